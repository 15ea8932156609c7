// A scenario run end to end: platform, mapping, analytic figures, event-graph period, simulation, comparison.
#pragma once

#include "mappers/mapper.hpp"
#include "model/analytic.hpp"
#include "model/mapping.hpp"
#include "scenarios/scenario.hpp"
#include "simulator/simulation.hpp"
#include "validation/monte_carlo.hpp"
#include "validation/result_output.hpp"

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

namespace pipesim {

struct ScenarioRun {
  Scenario scenario;
  Platform platform;
  MapperResult mapper;
  MappingRule rule = MappingRule::interval;
  AnalyticSummary analytic;
  bool deadlock             = false;
  double event_graph_period = 0;
  std::string critical_cycle;
  /// hedpm eqs. (1)-(2) (hedpm_predict): HeDPM's predicted production time, for one-port interval mappings with
  /// one processor per replica, dealt or not (nullopt for the others; infinite for an unreachable pair).
  std::optional<double> hedpm_period;
  std::optional<SimulationResult> simulated;
  double simulated_latency = 0;
  std::optional<SimulationResult> crash_run;    // with a failure model: run 0 of the series (its crashes drawn)
  std::optional<MonteCarloSummary> monte_carlo; // with simulation.runs > 1
  std::string command_line;

  /// A mapper may stop on its time limit before finding any mapping (bbr10.exhaustive): the mapping is then empty.
  bool has_mapping() const { return mapper.status != SolveStatus::infeasible && !mapper.mapping.intervals.empty(); }
};

/// The platform of a scenario: the YAML model as is, or the XML file loaded in a child process.
Platform load_platform(const Scenario& scenario);

/// Loads the platform, runs the mapper (or resolves the explicit mapping), computes the analytic figures and the
/// event-graph period (not when `analytic` is false: elections campaigns need only the mapping, and bbr10
/// eq. (2)'s failure probability is exponential in the overlapping processor sets of a general mapping). Bad input
/// (unknown mapper, refused problem, bad mapping) is an InputError. Every InputError leaving load_platform,
/// map_scenario, analyze_run and simulate_run has the file and line of the key it is about (Scenario::sources).
ScenarioRun map_scenario(const Scenario& scenario, bool analytic = true);

/// The analytic figures and event-graph period of run.mapper.mapping on run.platform (the second half of
/// map_scenario).
void analyze_run(ScenarioRun& run);

/// Simulates the mapped scenario (period run and one-data-set latency run, each in its own process, without
/// failures). With a failure model, also run 0 of the crash series; with simulation.runs > 1, the Monte Carlo series
/// (`jobs` processes at once). scenario.simulation.progress shows the data sets of each long run and the Monte Carlo
/// runs done on stderr (never the one-data-set latency run).
void simulate_run(ScenarioRun& run, int jobs = 2);

namespace detail { // the same without the places of the keys (the functions above wrap them in for_scenario)
ScenarioRun map_scenario(const Scenario& scenario, bool analytic);
void analyze_run(ScenarioRun& run);
void simulate_run(ScenarioRun& run, int jobs);
} // namespace detail

/// The JSON document of `pipesim map` (the run has no simulation) and `pipesim simulate` (it has one):
/// `nlohmann::json j = run;` (validation/scenario_run_json.cpp). Non-finite numbers are null (result_output.hpp).
void to_json(nlohmann::json& j, const ScenarioRun& run);
/// The same for a person: the mapping and its analytic figures; simulate_table adds the simulated ones (it is
/// map_table when the run has no simulation).
std::string map_table(const ScenarioRun& run);
std::string simulate_table(const ScenarioRun& run);
/// What `pipesim map` and `pipesim simulate` print: simulate_table, or the JSON document indented by 2.
void print(const ScenarioRun& run, ResultFormat format, std::ostream& out);

/// JSON form of a mapping: [{stages: [first, last], replicas: [[names]], replication}].
nlohmann::json mapping_json(const Mapping& mapping, const Platform& platform);

} // namespace pipesim

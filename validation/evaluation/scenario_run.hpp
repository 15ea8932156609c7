// A scenario run end to end: platform, mapping, analytic figures, event-graph period, simulation, comparison.
#pragma once

#include "mappers/mapper.hpp"
#include "model/analysis.hpp"
#include "model/analytic.hpp"
#include "model/analytic_series.hpp"
#include "model/mapping.hpp"
#include "model/random_times.hpp"
#include "scenarios/scenario.hpp"
#include "simulator/job.hpp"
#include "simulator/simulation.hpp"
#include "simulator/throughput_series.hpp"
#include "validation/evaluation/epoch_comparison.hpp"
#include "validation/evaluation/monte_carlo.hpp"
#include "validation/evaluation/period_after_crashes.hpp"
#include "validation/evaluation/result_output.hpp"

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// A run on a time-varying platform (DESIGN.md §3.11, docs/dynamic.md): the analytic series over the simulated
/// makespan, the windowed throughput of the fault-free run and their comparison epoch by epoch.
struct EpochSeries {
  std::vector<Epoch> analytic;
  int window = 0; // data sets per throughput window
  std::vector<ThroughputWindow> throughput;
  std::vector<EpochComparison> epochs; // one per epoch of `analytic` (none when `remapped`)
  /// A run that re-mapped: `analytic` is, from each re-map's decision to the next, the series of the mapping that
  /// runs then (the plot's steps); the windows are not compared with it (they straddle the drains).
  bool remapped = false;
  std::string note; // why there is no series (e.g. a mapping the multi-port graphs refuse), or ""
};

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
  /// With random operation times (pipeline.variability, DESIGN.md §3.10): the period of the means, the max-plus run
  /// with the simulation's draws, N and precision, the exponential period and the N.B.U.E. bracket
  /// (analyze_random_times on the event graph of the run's model); absent with deterministic laws, or when the
  /// mapping has no event graph (then `stochastic_note` says why).
  std::optional<RandomTimesSummary> stochastic;
  std::string stochastic_note;
  std::optional<SimulationResult> simulated;
  double simulated_latency = 0;
  std::optional<SimulationResult> crash_run;    // with a failure model: run 0 of the series (its crashes drawn)
  std::optional<MonteCarloSummary> monte_carlo; // with simulation.runs > 1
  std::optional<EpochSeries> series;            // a platform with profiles, simulated
  std::vector<Mapping> remap_mappings;          // with `dynamic:`: the mapping each of simulated->remaps took
  /// With a Monte Carlo series, a period bound (objective min F under P_max) and bbr10's model: the survived runs'
  /// period after their last crash against P_max.
  std::optional<PeriodAfterCrashes> after_crashes;
  std::string command_line;

  /// A mapper may stop on its time limit before finding any mapping (bbr10.exhaustive): the mapping is then empty.
  bool has_mapping() const { return mapper.status != SolveStatus::infeasible && !mapper.mapping.intervals.empty(); }
};

/// The platform of a scenario: the YAML model as is, or the XML file loaded in a child process.
Platform load_platform(const Scenario& scenario);

/// The mapping problem of `scenario` on its loaded `platform`: pipeline, platform, model, objective, the explicit
/// mapping resolved, and a task chain completed and checked on the platform (complete_task_chain_spec,
/// check_task_chain_spec, require_task_chain_functions, which update scenario.task_chain).
Problem scenario_problem(Scenario& scenario, Platform platform);

/// Loads the platform, runs the mapper (or resolves the explicit mapping), computes the analytic figures and the
/// event-graph period (not when `analytic` is false: elections campaigns need only the mapping, and bbr10
/// eq. (2)'s failure probability is exponential in the overlapping processor sets of a general mapping). Bad input
/// (unknown mapper, refused problem, bad mapping, a mapping the evaluators cannot handle:
/// validation/evaluation/run_checks.hpp) is an InputError, the mapper's refusal before it runs. Every InputError
/// leaving load_platform, map_scenario, analyze_run and simulate_run has the file and line of the key it is about
/// (Scenario::sources).
ScenarioRun map_scenario(const Scenario& scenario, bool analytic = true);

/// The analytic figures and event-graph period of run.mapper.mapping on run.platform (the second half of
/// map_scenario).
void analyze_run(ScenarioRun& run);

/// Simulates the mapped scenario (period run and one-data-set latency run, each in its own process, without
/// failures), after check_evaluators (what the simulator cannot handle is an InputError before any process starts).
/// With a failure model, also run 0 of the crash series; with simulation.runs > 1, the Monte Carlo series
/// (`jobs` processes at once). scenario.simulation.progress shows the data sets of each long run and the Monte Carlo
/// runs done on stderr (never the one-data-set latency run).
void simulate_run(ScenarioRun& run, int jobs = 2);

namespace detail { // the same without the places of the keys (the functions above wrap them in for_scenario)
ScenarioRun map_scenario(const Scenario& scenario, bool analytic);
void analyze_run(ScenarioRun& run);
void simulate_run(ScenarioRun& run, int jobs);
} // namespace detail

/// The JSON document of `pipesim map` (the run has no simulation) and `pipesim simulate` (it has one):
/// `nlohmann::json j = run;` (validation/evaluation/scenario_run_json.cpp). Non-finite numbers are null
/// (result_output.hpp).
void to_json(nlohmann::json& j, const ScenarioRun& run);
/// The same for a person: the mapping and its analytic figures; simulate_table adds the simulated ones (it is
/// map_table when the run has no simulation).
std::string map_table(const ScenarioRun& run);
std::string simulate_table(const ScenarioRun& run);
/// What `pipesim map` and `pipesim simulate` print: simulate_table, or the JSON document indented by 2.
void print(const ScenarioRun& run, ResultFormat format, std::ostream& out);

/// The series of a simulated run on a platform with profiles (simulate_run calls it): nothing when the platform's
/// values never change or the run was not simulated.
void compare_series_run(ScenarioRun& run);
/// Its table (empty without series) and JSON: "analytic_series" and "simulated" keys "throughput_series" and "epochs".
std::string series_text(const ScenarioRun& run);
void add_series_json(nlohmann::json& j, const ScenarioRun& run);

/// Re-mapping during the run (`dynamic:`, validation/evaluation/scenario_run_dynamic.cpp): the mapping the run starts
/// with (the clairvoyant policy's at t = 0, else the mapper's), the policy and settings of the period job, the re-maps'
/// table (empty without `dynamic:`) and JSON (key "dynamic").
Mapping dynamic_initial_mapping(const ScenarioRun& run);
void configure_dynamic(const ScenarioRun& run, SimulationJob& job);
/// The mapping each re-map took, read back from its text (`to`: the simulation runs in another process); empty when
/// one does not read back whole.
std::vector<Mapping> remap_mappings(const std::vector<RemapRecord>& remaps, const Platform& platform);
/// The analytic series of `mapping` on run.platform over [0, horizon) (analytic_series with the scenario's model,
/// buffer and senders).
std::vector<Epoch> mapping_series(const ScenarioRun& run, const Mapping& mapping, double horizon);
std::string remaps_text(const ScenarioRun& run);
void add_remaps_json(nlohmann::json& j, const ScenarioRun& run);

/// JSON form of a mapping: [{stages: [first, last], replicas: [[names]], replication}].
nlohmann::json mapping_json(const Mapping& mapping, const Platform& platform);

} // namespace pipesim

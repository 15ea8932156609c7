// Running one simulation: in this process (once per process: SimGrid allows one engine) or in a child process.
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"
#include "simulator/simulation.hpp"

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace pipesim {

/// SimGrid arguments for a run: in exact mode the network settings of DESIGN.md §3.4 come first, then the user's
/// --cfg/--log arguments (which therefore win).
std::vector<std::string> simgrid_arguments(const SimulationSettings& settings);

/// What prepare_engine set up in this process: the SimGrid arguments and the exact-mode size scale.
struct PreparedEngine {
  std::vector<std::string> args;
  double size_scale = 1;
};

/// The first half of simulate_here: checks the settings, starts this process's SimGrid engine with them, loads the
/// platform (or builds it) and applies the link edits and the exact-mode scaling. A process prepared this way can
/// fork many runs, each of which calls simulate_prepared (validation/monte_carlo.cpp); only the settings' seed and
/// crash schedule may differ between those runs.
PreparedEngine prepare_engine(const Pipeline& pipeline, const Platform& platform, const SimulationSettings& settings);
/// The second half: the link failures of the run, the actors of the settings' model, the run and its result.
SimulationResult simulate_prepared(const PreparedEngine& engine, const Pipeline& pipeline, const Platform& platform,
                                   const Mapping& mapping, const SimulationSettings& settings);

/// Starts this process's SimGrid engine, loads the platform (the XML file the model came from, or a full zone built
/// from the model), deploys the actors of the settings' model and runs. Call it at most once per process.
SimulationResult simulate_here(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                               const SimulationSettings& settings);

/// The settings of run `run` (0-based) of a series with failures: its seed run_seed(settings.seed, run) and, unless
/// `settings.crashes` is already given, the crash schedule drawn from `settings.failures` with that seed
/// (`fault_free_makespan` scales the `probability` window). Settings without failures come back unchanged.
SimulationSettings settings_for_run(const Platform& platform, const Mapping& mapping,
                                    const SimulationSettings& settings, int run, double fault_free_makespan);

/// The settings without failures (the fault-free reference run), with the same election policy.
SimulationSettings without_failures(const SimulationSettings& settings);

/// simulate_here in a forked child process; this process never starts SimGrid. With a failure model and no
/// explicit `crashes`, first runs the fault-free simulation when the model needs its makespan, then run 0 of
/// settings_for_run.
SimulationResult simulate(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                          const SimulationSettings& settings);

/// Latency (DESIGN.md §3.7): a separate one-data-set run, in its own process; infinite when the data set never
/// arrives (a link of the platform failed on its way).
double simulate_latency(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                        const SimulationSettings& settings);

/// `run` (a simulation that starts this process's SimGrid engine) in a forked child process under the limits of
/// simulation_limits() (base/resource_limits.hpp); the result comes back as JSON, and an InputError of the child is
/// the caller's. A child stopped at a limit is an InputError saying so: `what` it was doing (simulation_what), the
/// limit and how to raise it.
SimulationResult simulate_in_child(const std::function<SimulationResult()>& run,
                                   const std::string& what = "the simulation");
/// "the simulation of N data sets EXECUTION", what a run stopped at a limit was doing.
std::string simulation_what(int datasets, const std::string& execution);
/// The settings of the separate one-data-set latency run: one data set, no warm-up, no trace, no progress line.
SimulationSettings latency_settings(const SimulationSettings& settings);
/// A one-data-set run's latency: its output time, infinite when the data set never arrived.
double latency_of(const SimulationResult& one_dataset_run);

/// JSON of a run's failure measurements (interval numbered from 1, absent values null).
nlohmann::json failure_json(const FailureOutcome& outcome);
FailureOutcome failure_from_json(const nlohmann::json& j);

void to_json(nlohmann::json& j, const SimulationResult& r);
void from_json(const nlohmann::json& j, SimulationResult& r);

} // namespace pipesim

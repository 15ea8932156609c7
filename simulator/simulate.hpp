// The simulator's entry point: a job in (simulator/job.hpp), what it measured out. Period runs, latency runs and
// Monte Carlo series of every execution (one-port, multi-port, modules, programs) start here and nowhere else.
#pragma once

#include "simulator/job.hpp"

namespace pipesim {

/// Runs `job` in child processes (SimGrid allows one engine per process, and a second one does not even reset the
/// clock: this process never starts SimGrid):
/// - period: one child (two with a failure model and no crash schedule when the `probability` window needs the
///   fault-free makespan: that run first);
/// - latency: one child, one data set without failures; with SimGrid tracing on, its Paje trace goes to
///   `<file>.latency` so that the period run's trace stays;
/// - series: the fault-free run, then settings.runs runs, `job.processes` at once. Each worker process starts
///   SimGrid and builds the platform once; its runs go in batches (series_batch_size) of runs one after the other in
///   one engine, reset between them (the one place pipesim reuses an engine: docs/semantics.md, "Monte Carlo").
///   InputError without a failure model or with fewer than one run; a run's InputError is the job's.
/// Bad input is an InputError (the child's, rethrown here); a run that ends without a verdict is std::runtime_error.
SimulationOutput simulate(const SimulationJob& job);

/// A period or latency job in this process, which it turns into a SimGrid simulation: starts the engine (once per
/// process), builds the platform, deploys, runs. The crash schedule is the settings' (none drawn here).
SimulationOutput simulate_here(const SimulationJob& job);

/// Runs of a series per process: a batch's runs share one engine, reset between them, when it can run again (a
/// platform built from the model, SimGrid 3.32); 1 otherwise. Fixed by the series alone, not by the number of
/// processes, so a run's place in its batch never depends on the machine; at most 32, and small enough for every
/// worker to get several batches.
int series_batch_size(const Platform& platform, int runs);

/// The settings of run `run` (0-based) of a series with failures: its seed run_seed(settings.seed, run) and, unless
/// `settings.crashes` is already given, the crash schedule drawn from `settings.failures` with that seed
/// (`fault_free_makespan` scales the `probability` window). Settings without failures come back unchanged.
SimulationSettings settings_for_run(const Platform& platform, const Mapping& mapping,
                                    const SimulationSettings& settings, int run, double fault_free_makespan);

/// The settings without failures (the fault-free reference run), with the same election policy.
SimulationSettings without_failures(const SimulationSettings& settings);

} // namespace pipesim

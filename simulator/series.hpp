// Monte Carlo series behind the entry point (simulate(job) with RunKind::series): the runs of a job in batches, each
// batch one child of a prepared worker that runs its runs one after the other in one SimGrid engine. The engine is
// reset between two runs (simulator/engine_reuse.hpp), which nothing else in pipesim does.
#pragma once

#include "simulator/engine.hpp"
#include "simulator/job.hpp"

namespace pipesim::detail {

/// simulate(job) for a series (simulate.hpp says what it does).
SimulationOutput simulate_series(const SimulationJob& job);

/// One run of `job` with the settings `run` on the engine of this process, prepared by start_run_engine (reset
/// between runs by the series): makes the deployment, deploys, runs the engine, returns its result with the
/// engine's arguments as `config`.
SimulationResult run_prepared(const PreparedEngine& engine, const SimulationJob& job, const SimulationSettings& run);

/// A worker's engine for the runs of one job, one after the other (what a batch of a series does), for tests: starts
/// the engine (once per process), then run() deploys and runs each, resetting the engine before every run but the
/// first.
class SeriesEngine {
public:
  explicit SeriesEngine(const SimulationJob& job);
  SimulationResult run(const SimulationSettings& settings);

private:
  const SimulationJob& job_;
  PreparedEngine engine_;
  int runs_ = 0;
};

} // namespace pipesim::detail

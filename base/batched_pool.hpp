// Jobs run in batches: one child process per batch, the batch's jobs one after the other in it.
#pragma once

#include "base/subprocess.hpp"

#include <functional>
#include <vector>

namespace pipesim {

struct BatchOptions {
  int size = 1; // jobs per batch: batch b is jobs [b * size, min(count, (b + 1) * size))
  /// Called in the batch's process before each of its jobs but the first (a Monte Carlo batch resets its SimGrid
  /// engine there); what it throws ends the batch like a job's exception.
  std::function<void()> between = nullptr;
  /// Called in this process with the number of jobs whose outcome is now known (a batch's size, or 1).
  std::function<void(int jobs)> progress = nullptr;
};

/// run_pool over batches of jobs: each batch is one pool job (in prepared mode when `options.prepare` is set) that
/// runs its jobs in turn and sends all their results at once. A batch that does not finish (a job that threw, a
/// crash, a timeout: `options.timeout` is per batch) is run again one job per process, so every job gets the outcome
/// it would have had alone; a job's InputError ends its batch with `bad_input` for all of its jobs (bad input is the
/// same for every job). The outcomes, in job order.
std::vector<JobOutcome> run_pool_batched(int count, const PoolOptions& options, const BatchOptions& batches,
                                         const Job& job);

} // namespace pipesim

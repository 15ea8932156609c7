// Random task chains from a seed, for the sv95 mappers' cross-checks and benchmarks (sv95 gives no random
// instances: the ranges are pipesim's, chosen to look like §5's fitted polynomials).
#pragma once

#include "base/random.hpp"
#include "model/sv95/task_chain.hpp"

#include <cstdint>

namespace pipesim {

/// Ranges of the coefficients of sv95 §5's polynomials and of the constraints.
struct TaskChainRanges {
  std::array<Range, 3> exec{Range::uniform(0, 1), Range::uniform(1, 40), Range::uniform(0, 0.5)};
  std::array<Range, 3> icom{Range::uniform(0, 1), Range::uniform(0, 10), Range::uniform(0, 0.2)};
  std::array<Range, 5> ecom{Range::uniform(0, 1), Range::uniform(0, 10), Range::uniform(0, 10), Range::uniform(0, 0.2),
                            Range::uniform(0, 0.2)};
  Range p_min       = Range::uniform(1, 3, true);
  double replicable = 0.75; // probability that a task is replicable
};

/// Ranges shaped like the polynomials sv95 §5 fits for an FFT-Hist-like program, times in seconds: f_exec
/// C1 in [0.001, 0.01], C2 in [0.1, 2] (seconds of parallel work), C3 in [0, 1e-4]; communication an order of
/// magnitude smaller (f_icom C1 in [0, 0.005], C2 in [0, 0.1], C3 in [0, 1e-4]; f_ecom C1 in [0, 0.005], C2 and C3
/// in [0, 0.1], C4 and C5 in [0, 1e-4]); p_min in [1, 4]; three tasks in four replicable.
TaskChainRanges sv95_fitted_ranges();

/// Draws k tasks with pipesim::Rng(seed), in this order: per task, its three f_exec coefficients, p_min, and a
/// uniform number u (replicable iff u < ranges.replicable); then per pair i -> i+1 its three f_icom and five
/// f_ecom coefficients. No input or output time, no memory (p_min only). Throws InputError when k < 1 or a range
/// allows negative values. Complexity: O(k) draws.
TaskChain generate_task_chain(int k, const TaskChainRanges& ranges, std::uint64_t seed);

} // namespace pipesim

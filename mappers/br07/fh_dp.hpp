// Optimal interval mapping on Fully Homogeneous platforms by the dynamic program c(i, j, k) of br07 Prop. 1.
#pragma once

#include "mappers/mapper.hpp"

namespace pipesim {

/// Contract (mapper `br07.fh-dp`).
/// - Source: br07 §3.2.1, Proposition 1 (after sv95): c(i, j, k), the optimal period of stages
///   S_i..S_j on exactly k processors, is c(i, j, 1) = delta_{i-1}/b + sum_{i..j} w/s + delta_j/b (the br07
///   eq. (2) cycle-time, evaluated by br07_interval_cycle_time), c(i, j, k) = +inf when k > j - i + 1, and
///   c(i, j, k) = min over q + r = k (q, r >= 1) and i <= l < j of max(c(i, l, q), c(l + 1, j, r)); the answer is
///   min_{1 <= k <= p} c(1, n, k).
/// - Accepts: the one-port model, objective min_period, Fully Homogeneous platforms (all s_u equal, all b_{u,v}
///   equal, P_in/P_out links included) whose latencies c_{u,v} are all equal too. Refuses every other platform:
///   there the processors are not interchangeable and the recurrence is not exact. Refuses tables of more than 2e7
///   entries (n^2 min(n, p)).
/// - Complexity: O(n^3 p^2) time (k <= min(n, p)), O(n^2 p) memory.
/// - Returns: status `optimal`, the mapping (intervals on P_1, P_2, ... in order; ties: fewest processors, then
///   the first split found in the order of the loops) and its eq. (2) period. When options.time_limit runs out
///   before the table is complete: status `time limit` with the whole pipeline on one processor.
class Br07FullyHomogeneousDp : public Mapper {
public:
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override;
};

} // namespace pipesim

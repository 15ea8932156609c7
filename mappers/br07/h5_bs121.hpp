// H5-BS121 (br07 §4.2): Theorem 1's optimal one-to-one mapping applied to the L-cut intervals as super-stages.
#pragma once

#include "mappers/br07/heuristic.hpp"

namespace pipesim {

/// Contract (mapper `br07.h5-bs121`).
/// - Source: br07 §4.2, heuristic H5-BS121, i.e. §3.1 Theorem 1 (binary search + Algorithm 1)
///   on the "new application" whose stages are the L-cut intervals (br07_greedy_intervals, L = ceil(n/p)): super-stage
///   j does sum_{i in I_j} w_i and receives delta_{d_j - 1}, sends delta_{e_j}, so its eq. (1) cycle-time on a
///   processor is the eq. (2) cycle-time of I_j there.
/// - Method: the machinery of br07.one-to-one (mappers/br07/one_to_one_search.hpp): the m = ceil(n/L) fastest
///   processors, the sorted distinct cycle-times of every super-stage on each of them as candidate periods, a
///   binary search with Algorithm 1 (largest fitting cycle-time, ties to the smaller stage). Exact, no tolerance.
/// - Accepts: one-port, min_period, every platform class. Guarantee: on Fully Homogeneous and Communication
///   Homogeneous platforms with equal latencies the result is optimal among the one-to-one mappings of the cut
///   (distinct processors for the intervals), hence never worse than H1a-GR, H2-GSW, H3-GSD or H4-GP, and when
///   n <= p it is exactly br07.one-to-one's mapping (Theorem 1). Elsewhere (heterogeneous links, which the paper
///   leaves open, or unequal latencies) a transfer from or to a neighbour whose processor is not known costs its mean
///   over the m retained processors: a heuristic, no optimality; the objective is always eq. (2) with real links.
/// - Complexity: O(p log p + n + m^2 log m) (m^2 candidates, O(log m) greedy runs of O(m^2)), plus O(p m^2) for the
///   mean transfers when links are not uniform.
/// - Returns: status `feasible` (optimality is only among one-to-one mappings of the cut); statistics "candidates"
///   and "feasibility_tests"; `infeasible` only when p = 0.
class Br07H5Bs121 : public Br07Heuristic {
public:
  MapperInfo info() const override;

protected:
  IntervalAssignment assign(const Problem& problem, const MapperOptions& options) const override;
};

/// Entry point: the H5-BS121 assignment (precondition: p >= 1).
IntervalAssignment br07_h5_bs121(const Problem& problem);

} // namespace pipesim

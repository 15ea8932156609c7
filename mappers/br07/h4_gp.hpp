// H4-GP (br07 §4.1): processors by decreasing speed, each takes the remaining L-cut interval with the biggest
// period.
#pragma once

#include "mappers/br07/heuristic.hpp"

namespace pipesim {

/// Contract (mapper `br07.h4-gp`).
/// - Source: br07 §4.1, heuristic H4-GP "biggest period on fastest processor".
/// - Method: L = ceil(n/p) consecutive stages per interval, the last one shorter (br07_greedy_intervals); the m =
///   ceil(n/L) fastest processors in decreasing speed (ties: smaller index first); the current processor u takes the
///   remaining interval with the biggest period (delta_in + delta_out)/b + sum w / s_u, ties to the earlier interval.
///   That period is br07 eq. (2)'s cycle-time of the interval on u, through NeighbourCosts: P_in before the
///   first interval and P_out after the last are real; the processors of the other neighbours are not known yet.
/// - Accepts: one-port, min_period, every platform class. On Fully Homogeneous and Communication Homogeneous
///   platforms with equal latencies the period above is exact and this is the paper's heuristic. Elsewhere
///   (heterogeneous links, which the paper leaves open, or unequal latencies) a transfer from or to a neighbour not
///   chosen yet costs its mean over the m processors used; the objective is always eq. (2) with the real links.
///   Nothing is guaranteed beyond a valid interval mapping (with uniform links H5-BS121 is never worse).
/// - Complexity: O(m n) (every interval on every used processor) plus, when links are not uniform, O(p m n) to
///   precompute the mean transfers.
/// - Returns: status `feasible`, m intervals on the m fastest processors; `infeasible` only when p = 0.
class Br07H4Gp : public Br07Heuristic {
public:
  MapperInfo info() const override;

protected:
  IntervalAssignment assign(const Problem& problem, const MapperOptions& options) const override;
};

/// Entry point: the H4-GP assignment (precondition: p >= 1).
IntervalAssignment br07_h4_gp(const Problem& problem);

} // namespace pipesim

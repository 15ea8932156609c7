// H3-GSD (br07 §4.1): the L-cut intervals by decreasing delta_in + delta_out matched with the fastest processors.
#pragma once

#include "mappers/br07/heuristic.hpp"

namespace pipesim {

/// Contract (mapper `br07.h3-gsd`).
/// - Source: br07 §4.1, heuristic H3-GSD "biggest delta_in + delta_out".
/// - Method: L = ceil(n/p) consecutive stages per interval, the last one shorter (br07_greedy_intervals); intervals
///   [d, e] sorted by decreasing delta_{d-1} + delta_e (the paper's delta_in + delta_out, "out - 1 the last stage"),
///   processors by decreasing s_u, the k-th interval on the k-th processor. Ties (the paper is silent): equal sums
///   keep stage order, not w (the paper reports H3 worse than H2 when every delta is equal, which a w tie-break
///   would have hidden); equal speeds the smaller processor index first.
/// - Accepts: one-port, min_period, every platform class. The choice ignores links, so it is the paper's heuristic
///   on every class; the objective is br07 eq. (2) with the real links. Nothing is guaranteed beyond a valid
///   interval mapping (on Communication Homogeneous platforms with equal latencies H5-BS121 is never worse).
/// - Complexity: O(n + p log p).
/// - Returns: status `feasible`, ceil(n/L) intervals on the ceil(n/L) fastest processors; `infeasible` only when
///   p = 0.
class Br07H3Gsd : public Br07Heuristic {
public:
  MapperInfo info() const override;

protected:
  IntervalAssignment assign(const Problem& problem, const MapperOptions& options) const override;
};

/// Entry point: the H3-GSD assignment (precondition: p >= 1).
IntervalAssignment br07_h3_gsd(const Problem& problem);

} // namespace pipesim

// H2-GSW (br07 §4.1): the L-cut intervals by decreasing sum of w matched with processors by decreasing speed.
#pragma once

#include "mappers/br07/heuristic.hpp"

namespace pipesim {

/// Contract (mapper `br07.h2-gsw`).
/// - Source: br07 §4.1, heuristic H2-GSW "biggest sum w".
/// - Method: L = ceil(n/p) consecutive stages per interval, the last one shorter (br07_greedy_intervals); intervals
///   sorted by decreasing sum_{i in I} w_i, processors by decreasing s_u, the k-th interval on the k-th processor.
///   Ties (the paper is silent): equal sums keep stage order, equal speeds the smaller processor index first.
/// - Accepts: one-port, min_period, every platform class. The choice ignores links, so it is the paper's heuristic
///   on every class; the objective is br07 eq. (2) with the real links. Nothing is guaranteed beyond a valid
///   interval mapping (on Communication Homogeneous platforms with equal latencies H5-BS121 is never worse).
/// - Complexity: O(n + p log p).
/// - Returns: status `feasible`, ceil(n/L) intervals on the ceil(n/L) fastest processors; `infeasible` only when
///   p = 0.
class Br07H2Gsw : public Br07Heuristic {
public:
  MapperInfo info() const override;

protected:
  IntervalAssignment assign(const Problem& problem, const MapperOptions& options) const override;
};

/// Entry point: the H2-GSW assignment (precondition: p >= 1).
IntervalAssignment br07_h2_gsw(const Problem& problem);

} // namespace pipesim

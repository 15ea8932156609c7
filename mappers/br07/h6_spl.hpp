// H6-SPL (br07 §4.2): start with every stage on the fastest processor, then split the busiest interval in two.
#pragma once

#include "mappers/br07/heuristic.hpp"

namespace pipesim {

/// Contract (mapper `br07.h6-spl`).
/// - Source: br07 §4.2, heuristic H6-SPL "splitting intervals".
/// - Method: processors sorted by decreasing s_u (ties: smaller index first); S_1..S_n all on the first one. Each
///   step takes the used processor j with the largest cycle-time (ties: the earliest interval) and the next unused
///   processor j' of the list, and tries every split of j's interval [d, e] into [d, k] and [k+1, e], d <= k < e,
///   with either part on j and the other on j' (stage order kept). Cycle-times are br07 eq. (2) with the actual
///   neighbours (br07_interval_cycle_time), so they are exact on every platform class. Among the splits that do not
///   raise the period of the whole mapping, the one minimising max(period(j), period(j')) wins (ties: the smaller
///   whole period, then the smaller k, then j keeping the first part); it is applied if that maximum is strictly
///   below j's cycle-time before the split, the paper's "better than the original solution". Splitting stops when
///   the chosen split does not improve, when j's interval is a single stage, or when every processor is used:
///   the period of the solution is j's cycle-time, so once j cannot improve, no split improves the period.
/// - Ambiguities resolved: "improve" compares the pair's maximum with j's former cycle-time (not the whole period,
///   so a tie for the largest cycle-time between two processors does not stop the splitting); the "never raise the
///   whole period" filter only matters with heterogeneous links or unequal latencies, where a split also changes the
///   neighbours' transfers (on links that the paper leaves open); with uniform links it excludes nothing.
/// - Accepts: one-port, min_period, every platform class. Guarantee on every class: the returned period is at most
///   that of the whole pipeline on the fastest processor (each applied split never raises it).
/// - Complexity: O(min(n, p)) steps of O(n) splits, each evaluated in O(n) (all cycle-times): O(n^2 min(n, p)).
/// - Returns: status `feasible`, statistic "splits"; `infeasible` only when p = 0.
class Br07H6Spl : public Br07Heuristic {
public:
  MapperInfo info() const override;

protected:
  IntervalAssignment assign(const Problem& problem, const MapperOptions& options) const override;
};

/// Entry point: the H6-SPL assignment (precondition: p >= 1).
IntervalAssignment br07_h6_spl(const Problem& problem);

} // namespace pipesim

// Exhaustive reference for tiny instances: the best interval mapping (one processor per interval) by enumeration.
#pragma once

#include "mappers/mapper.hpp"

namespace pipesim {

/// Contract (mapper `exhaustive.interval`).
/// - Source: the INTERVAL MAPPING problem of br07 §2.3.2; each mapping is evaluated with br07 eq. (2)
///   (br07_interval_cycle_time, br07_eq2_period), real link costs b_{u,v} and latencies c_{u,v} included.
/// - Accepts: every platform class (Fully Heterogeneous included), the one-port model, objective min_period,
///   when the number of mappings sum_{m=1}^{min(n,p)} C(n-1, m-1) p!/(p-m)! is at most
///   `exhaustive_interval_limit`; refuses larger instances (the reason gives the count).
/// - Method: every composition of S_1..S_n into m <= p intervals, every injective assignment of distinct
///   processors to the intervals, depth first with the running maximum of the cycle-times known so far cut
///   against the best period (a cut never loses a strictly better mapping).
///   Order, which decides ties (the first mapping found wins): m increasing; for a given m, compositions in
///   lexicographic order of the interval ends (e_1, .., e_{m-1}); for a given composition, processor tuples (alloc_1,
///   .., alloc_m) in lexicographic order of processor indices.
/// - Complexity: O(count * m) evaluations in the worst case.
/// - Returns: status `optimal`, the mapping and its eq. (2) period; statistics "mappings" (the count) and
///   "evaluated" (complete mappings reached). When options.time_limit runs out: status `time limit` with the
///   best mapping so far.
class ExhaustiveInterval : public Mapper {
public:
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override;
};

/// Largest number of interval mappings `exhaustive.interval` accepts to enumerate.
inline constexpr double exhaustive_interval_limit = 5e7;

/// Number of interval mappings with m intervals, min_m <= m <= max_m, one distinct processor per interval.
double count_interval_mappings(int n, int p, int min_m, int max_m);

/// The same enumeration restricted to one-to-one mappings (m = n): the optimum of br07 eq. (1) on any
/// platform class, the reference that Theorem 1 (br07.one-to-one) is checked against. Precondition: a tiny
/// instance (no size limit, no time limit); n > p gives status `infeasible`, an empty mapping and an infinite
/// objective, as br07.one-to-one does.
MapperResult exhaustive_one_to_one(const Problem& problem);

} // namespace pipesim

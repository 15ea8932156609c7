// The test "worst-case period <= P_max" of pipesim's definition (docs/bbr10-periods.md), exact, with cheap bounds
// first: what bbr10.exhaustive and the Pareto sweep check candidate mappings with.
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

namespace pipesim {

/// Contract.
/// - Source: pipesim's worst-case period (docs/bbr10-periods.md: max over surviving configurations of the minimum
///   period over elections), computed exactly: bbr10 eq. (1) (bbr10_eq1_period) for interval mappings, otherwise
///   bbr10_worst_case_period with bbr10_election(ElectionPolicy::exhaustive) in every configuration (elect_is_exact).
/// - Accepts: mappings with active replication on single processors, at most 20 used processors (2^20
///   configurations); InputError beyond, or when a configuration has more than 1e6 elections.
/// - Complexity: O(sum_j |alloc|^2) for interval mappings; 2^k exhaustive elections otherwise (k used processors).
double bbr10_exact_worst_case_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping);

/// Contract.
/// - Source: two families of surviving configurations whose period is forced whatever the election, so that their
///   periods are lower bounds on the worst case of the definition (beyond bbr10):
///   (a) for each used u, u the only survivor of its subset and every other processor alive: u sends every
///       interval it holds to every replica of the next one, so its compute and output terms of Algorithm 1 are
///       those of every election (eq. (1)'s output terms, generalised);
///   (b) one survivor per subset: every election is the survivors, and bbr10_period of that election is the period.
/// - Accepts: the mappings of bbr10_exact_worst_case_period whose subsets have disjoint processor sets (bbr10
///   §3.4); InputError when two sets overlap (footnote 2's mappings).
/// - Complexity: k + prod_k |subset k| Algorithm 1 evaluations.
/// - Returns: the largest of these periods and terms, <= the worst-case period. With disjoint subsets it equals it,
///   and equals bbr10_worst_case_upper_bound: (a) reaches every output and compute term of the bound, (b) with the
///   sender of the largest latency or the most bytes to u surviving reaches every input term (docs/bbr10-periods.md).
double bbr10_forced_lower_bound(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping);

/// True when no processor is in two subsets' processor sets (bbr10 §3.4's rule; footnote 2 relaxes it). Then
/// bbr10_worst_case_upper_bound is the exact worst-case period (see bbr10_forced_lower_bound).
bool bbr10_disjoint_subsets(const Mapping& mapping);

/// "worst-case period <= P_max" for mappings with disjoint subsets, with a relative tolerance of 1e-9 (a mapping a
/// heuristic accepts with bbr10_worst_case_upper_bound <= P_max is never refused for rounding), cheapest test first:
/// eq. (1) for interval mappings; otherwise the forced lower bound (above: refused), the upper bound
/// bbr10_worst_case_upper_bound (below: accepted), and only then the exact enumeration. Counts what it ran.
class PeriodBoundCheck {
public:
  PeriodBoundCheck(const Pipeline& pipeline, const Platform& platform, double period_bound);
  bool holds(const Mapping& mapping);

  long long eq1_checks           = 0; // interval mappings (eq. (1), exact)
  long long lower_bound_refusals = 0;
  long long upper_bound_accepts  = 0;
  long long period_checks        = 0; // exact enumerations of general mappings

private:
  const Pipeline& pipeline_;
  const Platform& platform_;
  double limit_;
};

} // namespace pipesim

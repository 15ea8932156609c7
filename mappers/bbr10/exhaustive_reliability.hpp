// Exhaustive reference for bbr10's problem on tiny instances: the smallest failure probability F (eq. (2)) over
// every general (or interval) mapping with active replication whose worst-case period is at most P_max.
#pragma once

#include "mappers/mapper.hpp"

#include <vector>

namespace pipesim {

/// Contract (mappers `bbr10.exhaustive` and `bbr10.exhaustive.interval`).
/// - Source: bbr10 §3.4's problem (minimise F of eq. (2) subject to P <= P_max), with P pipesim's worst-case
///   period computed exactly (mappers/bbr10/period_check.hpp: eq. (1) for interval mappings, otherwise every
///   surviving configuration with the exhaustive election). With mapper_options.period_test
///   all-alive-best-election, P is instead the paper's test of the heuristics (bbr10_all_alive_period: every
///   processor alive, the best of the four elections, Random seeded with mapper_options.seed): the optimum over the
///   mappings that test accepts.
/// - Space: the stages partitioned into l subsets (every set partition; `.interval`: only partitions into
///   consecutive blocks, so each subset is one interval), the maximal runs of consecutive stages of a subset being
///   its intervals; subset k actively replicated on a non-empty processor set A_k, the A_k pairwise disjoint, one
///   processor per replica, unused processors allowed. This is the shape of the bbr10 heuristics' mappings.
/// - Accepts: the multi-port model (bbr10's), objective min_failure_probability with period_bound > 0, every
///   platform class, p <= 10 and at most `bbr10_exhaustive_limit` candidates (count_bbr10_mappings); refuses others
///   with the reason (e.g. n = 5, p = 6: 97,713 general candidates, accepted; n = 6, p = 6: 464,645, refused).
/// - Method: the ordered tuples (A_1, .., A_l) are sorted by increasing F (eq. (2) depends only on them; ties: l
///   increasing, then the processors' colourings in lexicographic order); for each tuple, every stage partition
///   with l blocks (restricted growth strings in lexicographic order, block k on A_k) is tested with
///   PeriodBoundCheck. The first candidate that satisfies P_max is optimal, so the search stops there.
/// - Complexity: count candidates in the worst case (nothing satisfies P_max), each with the checks of
///   PeriodBoundCheck (the exact 2^k enumeration only when the forced lower bound and the upper bound disagree).
/// - Returns: status `optimal`, the mapping, objective F; `infeasible` with an empty mapping and objective infinite
/// when
///   no candidate satisfies P_max; `time limit` with an empty mapping when options.time_limit runs out first.
///   Statistics: "candidates" (the count), "visited", "eq1_checks", "lower_bound_refusals", "upper_bound_accepts",
///   "period_checks" (exact enumerations) and "worst_case_period" (the exact worst case of the returned mapping).
class Bbr10Exhaustive : public Mapper {
public:
  explicit Bbr10Exhaustive(bool interval_only) : interval_only_(interval_only) {}
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override;

private:
  bool interval_only_;
};

/// Largest number of candidate mappings `bbr10.exhaustive` and `.interval` accept to enumerate.
inline constexpr double bbr10_exhaustive_limit = 2e5;

/// Number of candidates: sum_l B(n, l) T(p, l), with B(n, l) the Stirling number S(n, l) (general) or C(n-1, l-1)
/// (interval), and T(p, l) = sum_i (-1)^i C(l, i) (l + 1 - i)^p the ordered tuples of l disjoint non-empty subsets
/// of p processors.
double count_bbr10_mappings(int n, int p, bool interval_only);

/// The mapping of a stage partition (`block[i - 1]` the subset of stage i, 0-based) on processor sets (`sets[k]`
/// the processors of subset k): each maximal run of consecutive stages of a block is an interval actively
/// replicated on its block's set (in increasing processor order).
Mapping bbr10_partition_mapping(const std::vector<int>& block, const std::vector<std::vector<int>>& sets);

} // namespace pipesim

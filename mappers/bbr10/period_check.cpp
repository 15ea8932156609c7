// Exact worst-case period test of a replicated mapping, with forced lower bounds and the upper bound first.
#include "mappers/bbr10/period_check.hpp"

#include "base/input_error.hpp"
#include "model/bbr10/election_table.hpp"
#include "model/bbr10/worst_case_period.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace pipesim {

double bbr10_exact_worst_case_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  if (classify(mapping) != MappingRule::general) return bbr10_eq1_period(pipeline, platform, mapping);
  auto k = mapping.processors().size();
  if (k > 20)
    throw InputError::keyed("mapping", fmt::format("exact worst-case period: {} used processors, above the limit of "
                                                   "20 (2^20 failure configurations)",
                                                   k));
  WorstCaseOptions options;
  options.max_processors = 20;
  options.elect          = bbr10_election(ElectionPolicy::exhaustive);
  options.elect_is_exact = true;
  return bbr10_worst_case_period(pipeline, platform, mapping, options).period;
}

double bbr10_forced_lower_bound(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  Subsets parts = subsets(mapping);
  std::vector<int> subset_of(static_cast<std::size_t>(platform.p()), -1);
  for (std::size_t k = 0; k < parts.processor_sets.size(); ++k)
    for (int u : parts.processor_sets[k]) {
      if (subset_of[static_cast<std::size_t>(u)] >= 0)
        throw InputError::keyed("mapping", platform.node_name(u),
                                "forced lower bound: this processor is in two different processor sets (the bound "
                                "needs disjoint subsets)");
      subset_of[static_cast<std::size_t>(u)] = static_cast<int>(k);
    }
  auto subset_of_interval = [&](int j) {
    return subset_of[static_cast<std::size_t>(mapping.interval(j).replicas[0][0])];
  };
  double bound = 0;
  // (a) u alone in its subset, everyone else alive: u is elected for all its intervals.
  for (int u : mapping.processors()) {
    auto config = FailureConfiguration::all_alive(platform);
    for (int v : parts.processor_sets[static_cast<std::size_t>(subset_of[static_cast<std::size_t>(u)])])
      config.alive[static_cast<std::size_t>(v)] = v == u;
    Election election = first_alive_election(mapping, config);
    MultiportTerms t =
        bbr10_cycle_time_terms(pipeline, platform, mapping, config, election)[static_cast<std::size_t>(u)];
    bound = std::max({bound, t.compute, t.out_link, t.out_card});
  }
  // (b) one survivor per subset (odometer over the survivors): the election is forced.
  std::vector<std::size_t> pick(parts.processor_sets.size(), 0);
  for (;;) {
    auto config = FailureConfiguration::all_alive(platform);
    for (std::size_t k = 0; k < pick.size(); ++k)
      for (std::size_t i = 0; i < parts.processor_sets[k].size(); ++i)
        config.alive[static_cast<std::size_t>(parts.processor_sets[k][i])] = i == pick[k];
    Election election;
    for (int j = 0; j < mapping.m(); ++j) {
      auto k = static_cast<std::size_t>(subset_of_interval(j));
      election.sender.push_back(parts.processor_sets[k][pick[k]]);
    }
    bound         = std::max(bound, bbr10_period(pipeline, platform, mapping, config, election));
    std::size_t k = 0;
    while (k < pick.size() && ++pick[k] == parts.processor_sets[k].size())
      pick[k++] = 0;
    if (k == pick.size()) break;
  }
  return bound;
}

bool bbr10_disjoint_subsets(const Mapping& mapping)
{
  std::set<int> seen;
  for (const auto& set : subsets(mapping).processor_sets)
    for (int u : set)
      if (!seen.insert(u).second) return false;
  return true;
}

PeriodBoundCheck::PeriodBoundCheck(const Pipeline& pipeline, const Platform& platform, double period_bound)
    : pipeline_(pipeline), platform_(platform), limit_(period_bound * (1 + 1e-9))
{
}

bool PeriodBoundCheck::holds(const Mapping& mapping)
{
  if (classify(mapping) != MappingRule::general) { // eq. (1) is the definition, and cheap
    ++eq1_checks;
    return bbr10_eq1_period(pipeline_, platform_, mapping) <= limit_;
  }
  // Algorithm 1's compute term, sum w / s_u over the intervals u holds: every surviving configuration keeping u
  // alive has it, so it is a lower bound too, the cheapest.
  std::vector<double> work(static_cast<std::size_t>(platform_.p()), 0.0);
  for (const Interval& in : mapping.intervals)
    for (const auto& group : in.replicas)
      work[static_cast<std::size_t>(group.front())] += pipeline_.work(in.first, in.last);
  for (int u = 0; u < platform_.p(); ++u)
    if (work[static_cast<std::size_t>(u)] / platform_.speed(u) > limit_) {
      ++lower_bound_refusals;
      return false;
    }
  if (bbr10_worst_case_upper_bound(pipeline_, platform_, mapping) <= limit_) {
    ++upper_bound_accepts;
    return true;
  }
  if (bbr10_forced_lower_bound(pipeline_, platform_, mapping) > limit_) {
    ++lower_bound_refusals;
    return false;
  }
  ++period_checks;
  return bbr10_exact_worst_case_period(pipeline_, platform_, mapping) <= limit_;
}

} // namespace pipesim

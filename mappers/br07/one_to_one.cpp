// br07 Theorem 1: optimal one-to-one mapping on (Fully or Communication) Homogeneous platforms.
#include "mappers/br07/one_to_one.hpp"

#include "mappers/br07/one_to_one_search.hpp"
#include "model/analytic.hpp"

#include <cassert>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

namespace {
const MapperRegistration br07_one_to_one_registration{[] { return std::make_unique<Br07OneToOne>(); }};
} // namespace

std::vector<int> br07_greedy_assignment(const Problem& problem, const std::vector<int>& processors, double period)
{
  return br07_greedy_assignment(br07_one_to_one_costs(problem, processors), period);
}

MapperInfo Br07OneToOne::info() const
{
  MapperInfo info;
  info.name        = "br07.one-to-one";
  info.description = "br07 §3.1 Theorem 1: optimal one-to-one mapping by binary search over the candidate periods with "
                     "Algorithm 1's greedy";
  info.paper       = Paper::br07;
  info.family      = MapperFamily::period_search;
  info.objective   = MapperObjective::period;
  info.models      = {CommModel::one_port};
  info.platform_classes = {PlatformClass::fully_homogeneous, PlatformClass::communication_homogeneous};
  info.mapping          = MappingRule::one_to_one;
  info.exact            = true;
  info.complexity       = "O(p log p + n^2 log n)";
  info.restriction      = "Theorem 1 needs the one-port model and equal link bandwidths; with different bandwidths the "
                          "problem is NP-hard, br07 §3.3 Theorem 5";
  return info;
}

std::optional<std::string> Br07OneToOne::instance_refusal(const Problem& problem) const
{
  if (not br07_links_uniform(problem.platform)) // the bandwidths are equal (info()): the latencies differ
    return "link latencies c_{u,v} differ between pairs; the greedy of seed 000 Algorithm 1 assumes that every "
           "transfer costs the same";
  return std::nullopt;
}

MapperResult Br07OneToOne::map(const Problem& problem, const MapperOptions& /*options*/) const
{
  MapperResult result;
  int n = problem.pipeline.n();
  if (n > problem.platform.p()) {
    result.status    = SolveStatus::infeasible;
    result.objective = std::numeric_limits<double>::infinity();
    return result;
  }

  OneToOneSearch search =
      br07_one_to_one_search(br07_one_to_one_costs(problem, br07_fastest_processors(problem.platform, n)));
  assert(not search.alloc.empty());

  std::vector<std::pair<int, int>> intervals;
  for (int k = 1; k <= n; ++k)
    intervals.emplace_back(k, k);
  result.mapping   = make_interval_mapping(intervals, search.alloc);
  result.status    = SolveStatus::optimal;
  result.objective = br07_eq2_period(problem.pipeline, problem.platform, result.mapping);
  assert(result.objective == search.period);
  result.statistics["candidates"]        = search.candidates;
  result.statistics["feasibility_tests"] = search.tests;
  return result;
}

} // namespace pipesim

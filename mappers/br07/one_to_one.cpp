// Seed 000 Theorem 1: optimal one-to-one mapping on (Fully or Communication) Homogeneous platforms.
#include "mappers/br07/one_to_one.hpp"

#include "mappers/br07/one_to_one_search.hpp"
#include "model/analytic.hpp"

#include <cassert>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

namespace {
const MapperRegistration br07_one_to_one_registration{"br07.one-to-one",
                                                      [] { return std::make_unique<Br07OneToOne>(); }};
} // namespace

std::vector<int> br07_greedy_assignment(const Problem& problem, const std::vector<int>& processors, double period)
{
  return br07_greedy_assignment(br07_one_to_one_costs(problem, processors), period);
}

std::string Br07OneToOne::description() const
{
  return "optimal one-to-one mapping, binary search + greedy (seed 000 Theorem 1, Algorithm 1)";
}

std::optional<std::string> Br07OneToOne::refuses(const Problem& problem) const
{
  if (problem.objective.kind != Objective::Kind::min_period)
    return "it only minimises the period (objective min_period)";
  if (problem.model != CommModel::one_port)
    return fmt::format("it assumes the one-port model of seed 000, not {}", to_string(problem.model));
  if (problem.platform.classify() == PlatformClass::fully_heterogeneous)
    return "the platform is fully-heterogeneous (link bandwidths differ); optimal one-to-one mapping is NP-hard "
           "there (seed 000 §3.3, Theorem 5); Theorem 1 needs all b_{u,v} equal";
  if (not br07_links_uniform(problem.platform)) // the bandwidths are equal (checked above): the latencies differ
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

// H5-BS121 (br07 §4.2): binary search for the one-to-one mapping of the L-cut intervals.
#include "mappers/br07/h5_bs121.hpp"

#include "mappers/br07/one_to_one_search.hpp"

namespace pipesim {

namespace {
const MapperRegistration br07_h5_bs121_registration{[] { return std::make_unique<Br07H5Bs121>(); }};

/// br07 §4.2's "new application": one super-stage per interval.
Problem cut_application(const Problem& problem, const std::vector<std::pair<int, int>>& intervals)
{
  Problem cut  = problem;
  cut.pipeline = Pipeline{};
  cut.pipeline.delta.push_back(problem.pipeline.data(0));
  for (auto [first, last] : intervals) {
    cut.pipeline.w.push_back(problem.pipeline.work(first, last));
    cut.pipeline.delta.push_back(problem.pipeline.data(last));
  }
  return cut;
}

/// Cycle-times of each super-stage on each retained processor: Theorem 1's exact ones on link-uniform platforms,
/// estimates (mean transfers to the unknown neighbours) elsewhere.
OneToOneCosts cut_costs(const Problem& cut, std::vector<int> processors)
{
  if (br07_links_uniform(cut.platform)) return br07_one_to_one_costs(cut, std::move(processors));
  OneToOneCosts costs;
  costs.n          = cut.pipeline.n();
  costs.processors = std::move(processors);
  NeighbourCosts estimate(cut, costs.processors);
  for (int k = 1; k <= costs.n; ++k)
    for (int u : costs.processors) {
      int prev = k == 1 ? cut.platform.in() : NeighbourCosts::unknown;
      int next = k == costs.n ? cut.platform.out() : NeighbourCosts::unknown;
      costs.cycle_time.push_back(estimate.cycle_time(k, k, u, prev, next));
    }
  return costs;
}
} // namespace

IntervalAssignment br07_h5_bs121(const Problem& problem)
{
  IntervalAssignment result;
  result.intervals      = br07_greedy_intervals(problem.pipeline.n(), problem.platform.p());
  Problem cut           = cut_application(problem, result.intervals);
  int m                 = cut.pipeline.n();
  OneToOneSearch search = br07_one_to_one_search(cut_costs(cut, br07_fastest_processors(problem.platform, m)));
  result.alloc          = search.alloc;
  result.statistics["candidates"]        = search.candidates;
  result.statistics["feasibility_tests"] = search.tests;
  return result;
}

MapperInfo Br07H5Bs121::info() const
{
  return br07_heuristic_info(
      "br07.h5-bs121", "br07 §4.2 H5-BS121: optimal one-to-one mapping (Theorem 1) of the L = ceil(n/p) intervals",
      "O(p log p + n + m^2 log m), plus O(p m^2) when links are not uniform (m intervals)");
}

IntervalAssignment Br07H5Bs121::assign(const Problem& problem, const MapperOptions& /*options*/) const
{
  return br07_h5_bs121(problem);
}

} // namespace pipesim

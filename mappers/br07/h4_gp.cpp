// H4-GP (br07 §4.1): biggest period on the fastest processor.
#include "mappers/br07/h4_gp.hpp"

namespace pipesim {

namespace {
const MapperRegistration br07_h4_gp_registration{[] { return std::make_unique<Br07H4Gp>(); }};
} // namespace

IntervalAssignment br07_h4_gp(const Problem& problem)
{
  const Platform& platform = problem.platform;
  IntervalAssignment result;
  result.intervals            = br07_greedy_intervals(problem.pipeline.n(), platform.p());
  std::size_t m               = result.intervals.size();
  std::vector<int> processors = br07_processors_by_speed(platform);
  processors.resize(m);
  NeighbourCosts costs(problem, processors);
  result.alloc.assign(m, -1);
  for (int u : processors) {
    std::size_t chosen = m;
    double chosen_t    = -1;
    for (std::size_t j = 0; j < m; ++j) {
      if (result.alloc[j] >= 0) continue;
      int prev = j == 0 ? platform.in() : NeighbourCosts::unknown;
      int next = j + 1 == m ? platform.out() : NeighbourCosts::unknown;
      double t = costs.cycle_time(result.intervals[j].first, result.intervals[j].second, u, prev, next);
      if (t > chosen_t) { // biggest period; ties keep the earlier interval
        chosen   = j;
        chosen_t = t;
      }
    }
    result.alloc[chosen] = u;
  }
  return result;
}

MapperInfo Br07H4Gp::info() const
{
  return br07_heuristic_info(
      "br07.h4-gp",
      "br07 §4.1 H4-GP: L = ceil(n/p) stages per interval, the fastest processor takes the interval with the biggest "
      "period",
      "O(m n), plus O(p m n) when links are not uniform (m intervals)");
}

IntervalAssignment Br07H4Gp::assign(const Problem& problem, const MapperOptions& /*options*/) const
{
  return br07_h4_gp(problem);
}

} // namespace pipesim

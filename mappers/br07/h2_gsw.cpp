// H2-GSW (br07 §4.1): biggest sum of w on the fastest processor.
#include "mappers/br07/h2_gsw.hpp"

namespace pipesim {

namespace {
const MapperRegistration br07_h2_gsw_registration{[] { return std::make_unique<Br07H2Gsw>(); }};
} // namespace

IntervalAssignment br07_h2_gsw(const Problem& problem)
{
  IntervalAssignment result;
  result.intervals = br07_greedy_intervals(problem.pipeline.n(), problem.platform.p());
  std::vector<double> work;
  for (auto [first, last] : result.intervals)
    work.push_back(problem.pipeline.work(first, last)); // sum_{i in I} w_i
  result.alloc = br07_match_by_speed(problem.platform, work);
  return result;
}

MapperInfo Br07H2Gsw::info() const
{
  return br07_heuristic_info(
      "br07.h2-gsw", "br07 §4.1 H2-GSW: L = ceil(n/p) stages per interval, biggest sum w on the fastest processor",
      "O(n + p log p)");
}

IntervalAssignment Br07H2Gsw::assign(const Problem& problem, const MapperOptions& /*options*/) const
{
  return br07_h2_gsw(problem);
}

} // namespace pipesim

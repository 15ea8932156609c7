// H3-GSD (br07 §4.1): biggest delta_in + delta_out on the fastest processor.
#include "mappers/br07/h3_gsd.hpp"

namespace pipesim {

namespace {
const MapperRegistration br07_h3_gsd_registration{[] { return std::make_unique<Br07H3Gsd>(); }};
} // namespace

IntervalAssignment br07_h3_gsd(const Problem& problem)
{
  IntervalAssignment result;
  result.intervals = br07_greedy_intervals(problem.pipeline.n(), problem.platform.p());
  std::vector<double> communication;
  for (auto [first, last] : result.intervals)
    communication.push_back(problem.pipeline.data(first - 1) + problem.pipeline.data(last)); // delta_in + delta_out
  result.alloc = br07_match_by_speed(problem.platform, communication);
  return result;
}

MapperInfo Br07H3Gsd::info() const
{
  return br07_heuristic_info(
      "br07.h3-gsd",
      "br07 §4.1 H3-GSD: L = ceil(n/p) stages per interval, biggest delta_in + delta_out on the fastest processor",
      "O(n + p log p)");
}

IntervalAssignment Br07H3Gsd::assign(const Problem& problem, const MapperOptions& /*options*/) const
{
  return br07_h3_gsd(problem);
}

} // namespace pipesim

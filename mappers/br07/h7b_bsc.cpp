// H7b-BSC (br07 §4.2): binary search, interval whose period is closest to the target first.
#include "mappers/br07/h7b_bsc.hpp"

namespace pipesim {

namespace {
const MapperRegistration br07_h7b_bsc_registration{[] { return std::make_unique<Br07H7bBsc>(); }};
} // namespace

MapperInfo Br07H7bBsc::info() const
{
  return br07_heuristic_info(
      "br07.h7b-bsc",
      "br07 §4.2 H7b-BSC: binary search over the period, greedy taking the interval whose period is closest below it",
      "O(n^2 q log(n q)) (q distinct speeds, p when links are not uniform) plus O(log(n q)) greedy runs");
}

IntervalAssignment Br07H7bBsc::assign(const Problem& problem, const MapperOptions& /*options*/) const
{
  return br07_h7_binary_search(problem, H7Rule::closest);
}

} // namespace pipesim

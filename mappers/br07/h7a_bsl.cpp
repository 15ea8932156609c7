// H7a-BSL (br07 §4.2): binary search, longest interval first.
#include "mappers/br07/h7a_bsl.hpp"

namespace pipesim {

namespace {
const MapperRegistration br07_h7a_bsl_registration{[] { return std::make_unique<Br07H7aBsl>(); }};
} // namespace

MapperInfo Br07H7aBsl::info() const
{
  return br07_heuristic_info(
      "br07.h7a-bsl", "br07 §4.2 H7a-BSL: binary search over the period, greedy taking the longest interval that fits",
      "O(n^2 q log(n q)) (q distinct speeds, p when links are not uniform) plus O(log(n q)) greedy runs");
}

IntervalAssignment Br07H7aBsl::assign(const Problem& problem, const MapperOptions& /*options*/) const
{
  return br07_h7_binary_search(problem, H7Rule::longest);
}

} // namespace pipesim

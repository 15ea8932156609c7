// H7a-BSL (seed 000 §4.2): binary search, longest interval first.
#include "mappers/br07/h7a_bsl.hpp"

namespace pipesim {

namespace {
const MapperRegistration br07_h7a_bsl_registration{"br07.h7a-bsl", [] { return std::make_unique<Br07H7aBsl>(); }};
} // namespace

std::string Br07H7aBsl::description() const
{
  return "H7a-BSL: binary search over the period, greedy taking the longest interval that fits (seed 000 §4.2)";
}

IntervalAssignment Br07H7aBsl::assign(const Problem& problem, const MapperOptions& /*options*/) const
{
  return br07_h7_binary_search(problem, H7Rule::longest);
}

} // namespace pipesim

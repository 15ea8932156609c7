// H7b-BSC (seed 000 §4.2): binary search, interval whose period is closest to the target first.
#include "mappers/br07/h7b_bsc.hpp"

namespace pipesim {

namespace {
const MapperRegistration br07_h7b_bsc_registration{"br07.h7b-bsc", [] { return std::make_unique<Br07H7bBsc>(); }};
} // namespace

std::string Br07H7bBsc::description() const
{
  return "H7b-BSC: binary search over the period, greedy taking the interval whose period is closest below it "
         "(seed 000 §4.2)";
}

IntervalAssignment Br07H7bBsc::assign(const Problem& problem, const MapperOptions& /*options*/) const
{
  return br07_h7_binary_search(problem, H7Rule::closest);
}

} // namespace pipesim

// The largest addend that keeps a rounded sum within a bound: the exact inverse of eq. (2)'s additions.
#include "mappers/exact/max_addend.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace pipesim::exact {

double max_addend(double a, double bound)
{
  if (std::isinf(bound)) return bound;
  if (not(a < std::numeric_limits<double>::infinity()))
    return -std::numeric_limits<double>::infinity(); // an infinite (or NaN) part: nothing fits
  // Doubles ordered as integers; fl(a + y) is non-decreasing in y, so gallop then bisect from y = bound - a.
  auto order = [](double d) {
    auto bits = std::bit_cast<std::int64_t>(d);
    return bits < 0 ? std::numeric_limits<std::int64_t>::min() - bits : bits;
  };
  auto value = [](std::int64_t o) {
    return std::bit_cast<double>(o < 0 ? std::numeric_limits<std::int64_t>::min() - o : o);
  };
  auto fits         = [&](std::int64_t o) { return a + value(o) <= bound; };
  std::int64_t lo   = order(bound - a); // fits(lo) after the gallop; fits(hi) never
  std::int64_t hi   = lo;
  std::int64_t step = 1;
  if (fits(lo)) {
    while (fits(hi = lo + step)) {
      lo = hi;
      step *= 2;
    }
  } else {
    while (not fits(lo = hi - step)) {
      hi = lo;
      step *= 2;
    }
  }
  while (hi - lo > 1) {
    std::int64_t mid      = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return value(lo);
}

} // namespace pipesim::exact

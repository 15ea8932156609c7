// Seeded, portable random draws (same numbers on every platform and standard library), for generators.
#pragma once

#include <cstdint>
#include <string>

namespace pipesim {

/// splitmix64-seeded xoshiro256** generator with portable uniform draws.
class Rng {
public:
  explicit Rng(std::uint64_t seed);
  std::uint64_t next();
  double uniform01();                            // [0, 1)
  double uniform(double lo, double hi);          // [lo, hi)
  long long integer(long long lo, long long hi); // inclusive, unbiased
  double normal(double mean, double sd);         // Box-Muller

private:
  std::uint64_t s_[4];
};

/// A value drawn uniformly in [lo, hi] (integers when `integer`); lo == hi is a constant.
struct Range {
  double lo    = 0;
  double hi    = 0;
  bool integer = false;
  double draw(Rng& rng) const;
  bool constant() const { return lo == hi; }
  std::string to_string() const;
};

} // namespace pipesim

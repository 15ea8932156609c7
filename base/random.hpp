// Seeded, portable random draws (same numbers on every platform and standard library), for generators.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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

/// A value drawn from a distribution: uniform in [lo, hi] (the default; integers when `integer`, lo == hi is a
/// constant) or normal with `mean` and `sd`, clipped to be positive.
///
/// Normal draws are redrawn until > 0 (rejection keeps the shape of the normal above 0, unlike clamping, which
/// would pile values up at the clamp); with `integer`, a draw is rounded to the nearest integer and redrawn until
/// >= 1. `mean` must be > 0 (>= 1 with `integer`), so a redraw is needed with probability < 1/2 and the cap of
/// `max_redraws` attempts is never reached in practice; reaching it throws InputError. Each attempt consumes two
/// numbers of the Rng (Box-Muller), so a normal draw consumes a variable count.
struct Range {
  enum class Distribution { uniform, normal };
  static constexpr int max_redraws = 1000;

  double lo                 = 0;
  double hi                 = 0;
  bool integer              = false;
  Distribution distribution = Distribution::uniform;
  double mean               = 0; // normal only
  double sd                 = 0; // normal only

  static Range uniform(double low, double high, bool integers = false) { return Range{low, high, integers}; }
  static Range fixed(double x) { return Range{x, x}; }
  static Range normal(double mu, double sigma, bool integers = false);

  /// A value; `key` (the scenario key of the range, e.g. "pipeline.generate.w") names a normal range that draws no
  /// positive value in max_redraws tries.
  double draw(Rng& rng, std::string_view key = "generate") const;
  bool is_normal() const { return distribution == Distribution::normal; }
  /// A draw consumes no random number: uniform with lo == hi, or normal with sd == 0.
  bool constant() const { return is_normal() ? sd == 0 : lo == hi; }
  /// Parameters finite and consistent: lo <= hi with an integer inside when `integer`; mean > 0 (>= 1 when
  /// `integer`) and sd >= 0 for a normal. Says nothing about the sign of uniform values (see lowest()).
  bool well_formed() const;
  /// Infimum and supremum of the values drawn: [lo, hi] for uniform, (0, +inf) for normal (lowest() = 0 is then
  /// never reached: normal draws are > 0).
  double lowest() const;
  double highest() const;
  /// Every draw is > 0 (uniform: lo > 0; normal: always).
  bool positive() const { return is_normal() || lo > 0; }
  std::string to_string() const;
  bool operator==(const Range&) const = default;
};

} // namespace pipesim

// Portable seeded random draws.
#include "base/random.hpp"

#include "base/input_error.hpp"

#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

namespace {
std::uint64_t splitmix64(std::uint64_t& x)
{
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z               = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z               = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
} // namespace

Rng::Rng(std::uint64_t seed)
{
  for (auto& s : s_)
    s = splitmix64(seed);
}

std::uint64_t Rng::next()
{
  std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  std::uint64_t t      = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double Rng::uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }

long long Rng::integer(long long lo, long long hi)
{
  auto span = static_cast<std::uint64_t>(hi - lo) + 1;
  if (span == 0) return static_cast<long long>(next());
  std::uint64_t limit = UINT64_MAX - UINT64_MAX % span;
  std::uint64_t x;
  do
    x = next();
  while (x >= limit);
  return lo + static_cast<long long>(x % span);
}

double Rng::normal(double mean, double sd)
{
  double u1 = 1.0 - uniform01(); // (0, 1]
  double u2 = uniform01();
  return mean + sd * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

Range Range::normal(double mu, double sigma, bool integers)
{
  Range r;
  r.distribution = Distribution::normal;
  r.mean         = mu;
  r.sd           = sigma;
  r.integer      = integers;
  return r;
}

double Range::draw(Rng& rng, std::string_view key) const
{
  if (is_normal()) {
    if (sd == 0) return integer ? std::round(mean) : mean;
    for (int attempt = 0; attempt < max_redraws; ++attempt) {
      double x = rng.normal(mean, sd);
      if (integer) x = std::round(x);
      if (integer ? x >= 1 : x > 0) return x;
    }
    throw InputError::keyed(std::string(key), to_string(), fmt::format("no positive value in {} draws", max_redraws));
  }
  if (integer)
    return static_cast<double>(
        rng.integer(static_cast<long long>(std::ceil(lo)), static_cast<long long>(std::floor(hi))));
  if (lo == hi) return lo;
  return rng.uniform(lo, hi);
}

bool Range::well_formed() const
{
  if (is_normal()) return std::isfinite(mean) && std::isfinite(sd) && mean > 0 && (!integer || mean >= 1) && sd >= 0;
  return std::isfinite(lo) && std::isfinite(hi) && lo <= hi && (!integer || std::ceil(lo) <= std::floor(hi));
}

double Range::lowest() const { return is_normal() ? 0.0 : lo; }

double Range::highest() const { return is_normal() ? std::numeric_limits<double>::infinity() : hi; }

std::string Range::to_string() const
{
  const char* kind = integer ? " integers" : "";
  if (is_normal()) return fmt::format("normal(mean {}, sd {}) > 0{}", mean, sd, kind);
  if (lo == hi) return fmt::format("{}", lo);
  return fmt::format("[{}, {}]{}", lo, hi, kind);
}

} // namespace pipesim

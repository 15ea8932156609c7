// Ziggurat tables and draws (Marsaglia and Tsang 2000), exponential and normal.
#include "base/ziggurat.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace pipesim {

namespace {

constexpr double two32 = 4294967296.0;
constexpr double two31 = 2147483648.0;

/// Layer i (1..N-1) covers [0, x_i] between heights f(x_i) and f(x_{i-1}); layer 0 is the base strip of width
/// v / f(r), whose part beyond r is the tail. k[i] = x_{i-1} / x_i scaled to the integer draw (below it the point is
/// under the curve for sure), w[i] = x_i / scale, f[i] = f(x_i).
template <std::size_t N>
struct Tables {
  std::array<double, N> k{}, w{}, f{};
};

Tables<256> exponential_tables()
{
  Tables<256> t;
  double de = 7.69711747013104972, te = de;
  const double ve = 3.949659822581572e-3, q = ve / std::exp(-de);
  t.k[0]   = (de / q) * two32;
  t.k[1]   = 0;
  t.w[0]   = q / two32;
  t.w[255] = de / two32;
  t.f[0]   = 1;
  t.f[255] = std::exp(-de);
  for (int i = 254; i >= 1; --i) {
    de                                   = -std::log(ve / de + std::exp(-de));
    t.k[static_cast<std::size_t>(i + 1)] = (de / te) * two32;
    te                                   = de;
    t.f[static_cast<std::size_t>(i)]     = std::exp(-de);
    t.w[static_cast<std::size_t>(i)]     = de / two32;
  }
  return t;
}

Tables<128> normal_tables()
{
  Tables<128> t;
  double dn = 3.442619855899, tn = dn;
  const double vn = 9.91256303526217e-3, q = vn / std::exp(-0.5 * dn * dn);
  t.k[0]   = (dn / q) * two31;
  t.k[1]   = 0;
  t.w[0]   = q / two31;
  t.w[127] = dn / two31;
  t.f[0]   = 1;
  t.f[127] = std::exp(-0.5 * dn * dn);
  for (int i = 126; i >= 1; --i) {
    dn                                   = std::sqrt(-2 * std::log(vn / dn + std::exp(-0.5 * dn * dn)));
    t.k[static_cast<std::size_t>(i + 1)] = (dn / tn) * two31;
    tn                                   = dn;
    t.f[static_cast<std::size_t>(i)]     = std::exp(-0.5 * dn * dn);
    t.w[static_cast<std::size_t>(i)]     = dn / two31;
  }
  return t;
}

} // namespace

double ziggurat_exponential(KeyedStream& stream)
{
  static const Tables<256> t = exponential_tables();
  constexpr double r         = 7.69711747013104972;
  for (;;) {
    const std::uint64_t u = stream.next();
    const auto i          = static_cast<std::size_t>(u & 255);
    const auto j          = static_cast<double>(u >> 32);
    if (j < t.k[i]) return j * t.w[i];                // inside the layer's rectangle under the curve
    if (i == 0) return r - std::log(stream.open01()); // the tail beyond r: r + Exp(1) (memoryless)
    const double x = j * t.w[i];
    if (t.f[i] + stream.uniform01() * (t.f[i - 1] - t.f[i]) < std::exp(-x)) return x; // the wedge, under the curve
  }
}

double ziggurat_normal(KeyedStream& stream)
{
  static const Tables<128> t = normal_tables();
  constexpr double r         = 3.442619855899;
  for (;;) {
    const std::uint64_t u = stream.next();
    const auto i          = static_cast<std::size_t>(u & 127);
    const auto j          = static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(u >> 32)));
    if (std::abs(j) < t.k[i]) return j * t.w[i];
    if (i == 0) { // the tail beyond r (Marsaglia 1964)
      double x, y;
      do {
        x = -std::log(stream.open01()) / r;
        y = -std::log(stream.open01());
      } while (y + y < x * x);
      return j > 0 ? r + x : -r - x;
    }
    const double x = j * t.w[i];
    if (t.f[i] + stream.uniform01() * (t.f[i - 1] - t.f[i]) < std::exp(-0.5 * x * x)) return x;
  }
}

} // namespace pipesim

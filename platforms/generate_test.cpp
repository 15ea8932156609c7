// Tests of the seeded platform generator: classes, determinism, draw independence, value ranges.
#include "platforms/generate.hpp"

#include "base/input_error.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

PlatformGeneratorSpec spec_of(PlatformClass cls, std::uint64_t seed)
{
  PlatformGeneratorSpec spec;
  spec.platform_class = cls;
  spec.p              = 6;
  spec.speed          = Range{1, 20, true};
  spec.bandwidth      = Range{10, 100};
  spec.latency        = Range{0.001, 0.01};
  spec.seed           = seed;
  return spec;
}

bool same(const Platform& a, const Platform& b)
{
  if (a.p() != b.p() || a.in_name() != b.in_name() || a.out_name() != b.out_name()) return false;
  for (int u = 0; u < a.p(); ++u) {
    const auto& x = a.processor(u);
    const auto& y = b.processor(u);
    if (x.name != y.name || x.speed != y.speed || x.failure_probability != y.failure_probability ||
        x.nic_in != y.nic_in || x.nic_out != y.nic_out || x.mtbf != y.mtbf)
      return false;
  }
  for (int u = 0; u < a.nodes(); ++u)
    for (int v = 0; v < a.nodes(); ++v)
      if (a.bandwidth(u, v) != b.bandwidth(u, v) || a.latency(u, v) != b.latency(u, v)) return false;
  return true;
}

TEST(GeneratePlatform, ClassesAreTheRequestedOnes)
{
  for (auto cls : {PlatformClass::fully_homogeneous, PlatformClass::communication_homogeneous,
                   PlatformClass::fully_heterogeneous}) {
    Platform platform = generate_platform(spec_of(cls, 7));
    EXPECT_EQ(platform.classify(), cls) << to_string(cls);
    EXPECT_EQ(platform.p(), 6);
    EXPECT_EQ(platform.processor(0).name, "P1");
    EXPECT_EQ(platform.processor(5).name, "P6");
  }
}

TEST(GeneratePlatform, SameSeedSamePlatformOtherSeedOtherPlatform)
{
  for (auto cls : {PlatformClass::fully_homogeneous, PlatformClass::communication_homogeneous,
                   PlatformClass::fully_heterogeneous}) {
    EXPECT_TRUE(same(generate_platform(spec_of(cls, 11)), generate_platform(spec_of(cls, 11))));
    EXPECT_FALSE(same(generate_platform(spec_of(cls, 11)), generate_platform(spec_of(cls, 12))));
  }
}

TEST(GeneratePlatform, ValuesStayInTheirRanges)
{
  Platform platform = generate_platform(spec_of(PlatformClass::fully_heterogeneous, 3));
  for (int u = 0; u < platform.p(); ++u) {
    double s = platform.speed(u);
    EXPECT_GE(s, 1);
    EXPECT_LE(s, 20);
    EXPECT_EQ(s, std::floor(s)); // integer range
    EXPECT_EQ(platform.processor(u).failure_probability, 0.0);
    EXPECT_EQ(platform.processor(u).nic_in, unbounded);
  }
  for (int u = 0; u < platform.nodes(); ++u)
    for (int v = 0; v < platform.nodes(); ++v) {
      if (u == v) continue;
      EXPECT_GE(platform.bandwidth(u, v), 10);
      EXPECT_LT(platform.bandwidth(u, v), 100);
      EXPECT_GE(platform.latency(u, v), 0.001);
      EXPECT_LT(platform.latency(u, v), 0.01);
      // Fully heterogeneous: one draw per unordered pair, the same in both directions.
      EXPECT_EQ(platform.bandwidth(u, v), platform.bandwidth(v, u));
      EXPECT_EQ(platform.latency(u, v), platform.latency(v, u));
    }
}

TEST(GeneratePlatform, HomogeneousClassesShareOneDraw)
{
  Platform fh = generate_platform(spec_of(PlatformClass::fully_homogeneous, 5));
  Platform ch = generate_platform(spec_of(PlatformClass::communication_homogeneous, 5));
  for (int u = 1; u < fh.p(); ++u)
    EXPECT_EQ(fh.speed(u), fh.speed(0));
  EXPECT_FALSE(ch.flags().speed_hom); // 6 integer draws in [1, 20] with this seed are not all equal
  for (const Platform* platform : {&fh, &ch})
    for (int u = 0; u < platform->nodes(); ++u)
      for (int v = 0; v < platform->nodes(); ++v)
        if (u != v) {
          EXPECT_EQ(platform->bandwidth(u, v), platform->bandwidth(0, 1));
          EXPECT_EQ(platform->latency(u, v), platform->latency(0, 1));
        }
}

TEST(GeneratePlatform, QuantitiesUseIndependentStreams)
{
  // Adding failure probabilities and cards must not change the speeds or the links drawn for the same seed.
  PlatformGeneratorSpec plain = spec_of(PlatformClass::fully_heterogeneous, 9);
  PlatformGeneratorSpec more  = plain;
  more.failure_probability    = Range{0.01, 0.1};
  more.nic_bounded_in         = true;
  more.nic_in                 = Range{50, 60};
  Platform a                  = generate_platform(plain);
  Platform b                  = generate_platform(more);
  for (int u = 0; u < a.p(); ++u) {
    EXPECT_EQ(a.speed(u), b.speed(u));
    EXPECT_GE(b.processor(u).failure_probability, 0.01);
    EXPECT_LT(b.processor(u).failure_probability, 0.1);
    EXPECT_GE(b.processor(u).nic_in, 50);
    EXPECT_EQ(b.processor(u).nic_out, unbounded);
  }
  EXPECT_EQ(a.bandwidth(0, 3), b.bandwidth(0, 3));
  EXPECT_EQ(a.latency(a.in(), 2), b.latency(b.in(), 2));
}

TEST(GeneratePlatform, SharedIoHostHasOneLinkPerProcessor)
{
  PlatformGeneratorSpec spec = spec_of(PlatformClass::fully_heterogeneous, 4);
  spec.in_name = spec.out_name = "io";
  Platform platform            = generate_platform(spec);
  EXPECT_TRUE(platform.io_same_host());
  for (int u = 0; u < platform.p(); ++u) {
    EXPECT_EQ(platform.bandwidth(platform.in(), u), platform.bandwidth(u, platform.out()));
    EXPECT_EQ(platform.bandwidth(platform.out(), u), platform.bandwidth(platform.in(), u));
  }
  EXPECT_EQ(platform.bandwidth(platform.in(), platform.out()), unbounded); // one host: local
  EXPECT_EQ(platform.latency(platform.in(), platform.out()), 0.0);
}

TEST(GeneratePlatform, KnownValuesForAFixedSeed)
{
  // Pins the documented draw order: a change here changes every generated platform of every campaign.
  PlatformGeneratorSpec spec = spec_of(PlatformClass::communication_homogeneous, 2024);
  Platform platform          = generate_platform(spec);
  Rng speed_rng(2024 ^ 0x9e3779b97f4a7c15ULL);
  for (int u = 0; u < platform.p(); ++u)
    EXPECT_EQ(platform.speed(u), spec.speed.draw(speed_rng));
  Rng bandwidth_rng(2024 ^ (5 * 0x9e3779b97f4a7c15ULL));
  EXPECT_EQ(platform.bandwidth(0, 1), spec.bandwidth.draw(bandwidth_rng));
}

TEST(GeneratePlatform, InvalidSpecsAreInputErrors)
{
  PlatformGeneratorSpec spec = spec_of(PlatformClass::fully_heterogeneous, 1);
  spec.p                     = 0;
  EXPECT_THROW(generate_platform(spec), InputError);
  spec                     = spec_of(PlatformClass::fully_heterogeneous, 1);
  spec.failure_probability = Range{0.5, 1.0};
  EXPECT_THROW(generate_platform(spec), InputError);
  spec         = spec_of(PlatformClass::fully_heterogeneous, 1);
  spec.in_name = "P2";
  EXPECT_THROW(generate_platform(spec), InputError);
}

TEST(GeneratePlatform, ClassNames)
{
  EXPECT_EQ(platform_class_from_string("fully-homogeneous"), PlatformClass::fully_homogeneous);
  EXPECT_EQ(platform_class_from_string("communication_homogeneous"), PlatformClass::communication_homogeneous);
  EXPECT_EQ(platform_class_from_string("fully-heterogeneous"), PlatformClass::fully_heterogeneous);
  EXPECT_EQ(platform_class_from_string("heterogeneous"), std::nullopt);
}

} // namespace
} // namespace pipesim

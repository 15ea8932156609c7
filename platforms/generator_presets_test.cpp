// Tests of the platform presets: each draws values of the promised kind within its ranges, and YAML selects them.
#include "platforms/generator_presets.hpp"

#include "base/input_error.hpp"
#include "platforms/platform_yaml.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

Platform draw(std::string_view name, int p, std::uint64_t seed)
{
  const PlatformPreset* preset = find_platform_preset(name);
  EXPECT_NE(preset, nullptr) << name;
  PlatformGeneratorSpec spec = preset->spec;
  spec.p                     = p;
  spec.seed                  = seed;
  return generate_platform(spec);
}

Platform parse(const std::string& text)
{
  return parse_platform_yaml(load_yaml_text(text, "test.yaml").at("platform"));
}

void expect_in(double x, double lo, double hi, bool integer)
{
  EXPECT_GE(x, lo);
  EXPECT_LE(x, hi);
  if (integer) {
    EXPECT_EQ(x, std::floor(x));
  }
}

/// Every ordered pair of distinct nodes (P_in and P_out included).
template <class F>
void for_pairs(const Platform& platform, F f)
{
  for (int u = 0; u < platform.nodes(); ++u)
    for (int v = 0; v < platform.nodes(); ++v)
      if (u != v) f(u, v);
}

TEST(PlatformPresets, TableNamesAndSources)
{
  EXPECT_EQ(platform_preset_names(), "br07, bbr10, bbr10-fast, hedpm, hedpm-5.2");
  for (const auto& preset : platform_presets())
    EXPECT_NE(preset.source.find("seed 00"), std::string_view::npos) << preset.name;
  EXPECT_EQ(find_platform_preset("nope"), nullptr);
}

TEST(PlatformPresets, Br07IntegerSpeedsAndBandwidthTen)
{
  // br07 §5: Communication Homogeneous, b = 10, s_u an integer in [1, 20]; hedpm §5.2 uses that test.
  for (const char* name : {"br07", "hedpm-5.2"}) {
    Platform platform = draw(name, 100, 1);
    EXPECT_EQ(platform.classify(), PlatformClass::communication_homogeneous) << name;
    for (int u = 0; u < platform.p(); ++u) {
      expect_in(platform.speed(u), 1, 20, true);
      EXPECT_EQ(platform.processor(u).failure_probability, 0.0);
      EXPECT_EQ(platform.processor(u).nic_in, unbounded);
    }
    for_pairs(platform, [&](int u, int v) {
      EXPECT_EQ(platform.bandwidth(u, v), 10.0);
      EXPECT_EQ(platform.latency(u, v), 0.0);
    });
  }
}

TEST(PlatformPresets, Bbr10RealRangesCardsAndFailures)
{
  // bbr10 §7.1 (speeds [1, 20]) and §7.2 (speeds [10, 20]); cards and links [1, 10]; f in [0.05, 0.3].
  for (auto [name, speed_lo] : {std::pair{"bbr10", 1.0}, std::pair{"bbr10-fast", 10.0}}) {
    Platform platform = draw(name, 64, 3);
    EXPECT_EQ(platform.classify(), PlatformClass::fully_heterogeneous) << name;
    bool some_fraction = false;
    for (int u = 0; u < platform.p(); ++u) {
      const Processor& proc = platform.processor(u);
      expect_in(proc.speed, speed_lo, 20, false);
      expect_in(proc.nic_in, 1, 10, false);
      expect_in(proc.nic_out, 1, 10, false);
      expect_in(proc.failure_probability, 0.05, 0.3, false);
      some_fraction = some_fraction || proc.speed != std::floor(proc.speed);
    }
    EXPECT_TRUE(some_fraction) << name << ": double values, not integers";
    for_pairs(platform, [&](int u, int v) {
      expect_in(platform.bandwidth(u, v), 1, 10, false);
      EXPECT_EQ(platform.latency(u, v), 0.0);
    });
  }
}

TEST(PlatformPresets, HedpmNormalSpeedsPositive)
{
  // hedpm §5.1: speeds N(10, 5) clipped positive (truncated mean 10.28, see random_test.cpp); b = 10.
  Platform platform = draw("hedpm", 2000, 5);
  double sum        = 0;
  for (int u = 0; u < platform.p(); ++u) {
    EXPECT_GT(platform.speed(u), 0.0);
    sum += platform.speed(u);
  }
  EXPECT_NEAR(sum / platform.p(), 10.28, 0.35); // 2000 draws: standard error 0.105
  for_pairs(platform, [&](int u, int v) { EXPECT_EQ(platform.bandwidth(u, v), 10.0); });
}

TEST(PlatformPresets, YamlPresetIsTheTableSpecAndDeterministic)
{
  const std::string text = "platform:\n  generate: {preset: bbr10, p: 10, seed: 4}\n";
  Platform a = parse(text), b = parse(text), c = draw("bbr10", 10, 4);
  for (int u = 0; u < a.p(); ++u) {
    EXPECT_EQ(a.speed(u), b.speed(u));
    EXPECT_EQ(a.speed(u), c.speed(u));
    EXPECT_EQ(a.processor(u).failure_probability, c.processor(u).failure_probability);
    EXPECT_EQ(a.processor(u).nic_out, c.processor(u).nic_out);
  }
  for_pairs(a, [&](int u, int v) { EXPECT_EQ(a.bandwidth(u, v), c.bandwidth(u, v)); });
  Platform other = parse("platform:\n  generate: {preset: bbr10, p: 10, seed: 5}\n");
  EXPECT_NE(a.speed(0), other.speed(0));
}

TEST(PlatformPresets, ExplicitKeysOverrideThePreset)
{
  Platform platform = parse(R"(platform:
  generate:
    preset: br07
    p: 8
    seed: 2
    speed: {min: 30, max: 40, integer: true}
    bandwidth: 5
    failure_probability: 0.1
    nic_in: 7
)");
  EXPECT_EQ(platform.classify(), PlatformClass::communication_homogeneous); // kept from the preset
  for (int u = 0; u < platform.p(); ++u) {
    expect_in(platform.speed(u), 30, 40, true);
    EXPECT_EQ(platform.processor(u).failure_probability, 0.1);
    EXPECT_EQ(platform.processor(u).nic_in, 7.0);
    EXPECT_EQ(platform.processor(u).nic_out, unbounded);
  }
  EXPECT_EQ(platform.bandwidth(0, 1), 5.0);
  Platform hetero = parse("platform:\n  generate: {preset: br07, class: fully-heterogeneous, bandwidth: [1, 10], "
                          "p: 5, seed: 2}\n");
  EXPECT_EQ(hetero.classify(), PlatformClass::fully_heterogeneous);
}

TEST(PlatformPresets, YamlNormalRangeWithoutPreset)
{
  Platform platform = parse("platform:\n  generate: {class: communication-homogeneous, p: 50, "
                            "speed: {normal: {mean: 10, sd: 5}, integer: true}, bandwidth: 1, seed: 3}\n");
  for (int u = 0; u < platform.p(); ++u) {
    EXPECT_GE(platform.speed(u), 1.0);
    EXPECT_EQ(platform.speed(u), std::floor(platform.speed(u)));
  }
}

std::string error_of(const std::string& text)
{
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(PlatformPresets, Errors)
{
  std::string unknown = error_of("platform:\n  generate:\n    preset: br08\n    p: 2\n    seed: 1\n");
  EXPECT_EQ(unknown, "test.yaml:3: key 'platform.generate.preset': value 'br08': unknown platform preset (expected "
                     "one of: br07, bbr10, bbr10-fast, hedpm, hedpm-5.2)");
  std::string no_seed = error_of("platform:\n  generate: {preset: br07, p: 2}\n");
  EXPECT_NE(no_seed.find("test.yaml:2: key 'platform.generate.seed': missing"), std::string::npos) << no_seed;
  std::string no_p = error_of("platform:\n  generate: {preset: br07, seed: 1}\n");
  EXPECT_NE(no_p.find("key 'platform.generate.p': missing"), std::string::npos) << no_p;
  std::string normal_f = error_of("platform:\n  generate: {preset: bbr10, p: 2, seed: 1,\n    failure_probability: "
                                  "{normal: {mean: 0.1, sd: 0.1}}}\n");
  EXPECT_NE(normal_f.find("test.yaml:3: key 'platform.generate.failure_probability'"), std::string::npos) << normal_f;
  EXPECT_NE(normal_f.find("unbounded"), std::string::npos) << normal_f;
  std::string no_class = error_of("platform:\n  generate: {p: 2, speed: 1, bandwidth: 1, seed: 1}\n");
  EXPECT_NE(no_class.find("key 'platform.generate.class': missing"), std::string::npos) << no_class;
}

} // namespace
} // namespace pipesim

// Tests of the pipeline presets: each draws values of the promised kind within its ranges, deterministically.
#include "model/pipeline_presets.hpp"

#include "model/pipeline_generator.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

Pipeline draw(std::string_view name, int n, std::uint64_t seed)
{
  const PipelinePreset* preset = find_pipeline_preset(name);
  EXPECT_NE(preset, nullptr) << name;
  return generate_pipeline(n, preset->w, preset->delta, seed);
}

struct Expected {
  const char* name;
  double w_lo, w_hi;
  double delta_lo, delta_hi;
  bool delta_integer;
};

TEST(PipelinePresets, TableNamesAndSources)
{
  EXPECT_EQ(pipeline_preset_names(), "br07-exp1, br07-exp2, br07-exp3, br07-exp4, bbr10-table1, bbr10-tables23, hedpm, "
                                     "hedpm-5.2-hom, hedpm-5.2-het");
  for (const auto& preset : pipeline_presets())
    EXPECT_NE(preset.source.find("seed 00"), std::string_view::npos) << preset.name;
  EXPECT_EQ(find_pipeline_preset("br07-exp5"), nullptr);
}

TEST(PipelinePresets, UniformPresetsStayInTheirRangesWithTheirKind)
{
  const Expected expected[] = {
      {"br07-exp1", 1, 20, 10, 10, false},     // br07 §5.1
      {"br07-exp2", 1, 20, 1, 100, false},     // br07 §5.2
      {"br07-exp3", 10, 1000, 1, 20, false},   // br07 §5.3
      {"br07-exp4", 0.01, 10, 1, 20, false},   // br07 §5.4
      {"bbr10-table1", 1, 20, 1, 25, true},    // bbr10 §7.1
      {"bbr10-tables23", 1, 100, 1, 5, true},  // bbr10 §7.2
      {"hedpm-5.2-hom", 1, 20, 10, 10, false}, // hedpm §5.2 with br07 §5.1
      {"hedpm-5.2-het", 1, 20, 1, 100, false}, // hedpm §5.2 with br07 §5.2
  };
  for (const Expected& e : expected) {
    Pipeline p = draw(e.name, 120, 17);
    ASSERT_EQ(p.n(), 120);
    ASSERT_EQ(p.delta.size(), 121u);
    bool w_fraction = false, delta_fraction = false;
    for (double w : p.w) {
      EXPECT_GE(w, e.w_lo) << e.name;
      EXPECT_LE(w, e.w_hi) << e.name;
      w_fraction = w_fraction || w != std::floor(w);
    }
    for (double d : p.delta) {
      EXPECT_GE(d, e.delta_lo) << e.name;
      EXPECT_LE(d, e.delta_hi) << e.name;
      if (e.delta_integer) {
        EXPECT_EQ(d, std::floor(d)) << e.name;
      }
      delta_fraction = delta_fraction || d != std::floor(d);
    }
    EXPECT_TRUE(w_fraction) << e.name << ": w are reals";
    EXPECT_EQ(delta_fraction, !e.delta_integer && e.delta_lo != e.delta_hi) << e.name;
  }
}

TEST(PipelinePresets, IntegerDeltasCoverTheirRange)
{
  // 5 integer values in 121 draws: every one of 1..5 appears (the bound is inclusive).
  Pipeline p = draw("bbr10-tables23", 120, 2);
  for (int k = 1; k <= 5; ++k)
    EXPECT_NE(std::find(p.delta.begin(), p.delta.end(), static_cast<double>(k)), p.delta.end()) << k;
}

TEST(PipelinePresets, HedpmNormalLoadsWithCommunicationTenTimesLower)
{
  // hedpm §5.1: w ~ N(10, 5), delta ~ N(1, 0.5), both redrawn until > 0 (truncated means 10.276 and 1.0276).
  Pipeline p   = draw("hedpm", 20000, 8);
  double w_sum = 0, delta_sum = 0;
  for (double w : p.w) {
    EXPECT_GT(w, 0.0);
    w_sum += w;
  }
  for (double d : p.delta) {
    EXPECT_GT(d, 0.0);
    delta_sum += d;
  }
  EXPECT_NEAR(w_sum / p.n(), 10.276, 0.12); // standard error 0.033
  EXPECT_NEAR(delta_sum / static_cast<double>(p.delta.size()), 1.0276, 0.012);
}

TEST(PipelinePresets, SameSeedSamePipeline)
{
  for (const auto& preset : pipeline_presets()) {
    Pipeline a = draw(preset.name, 30, 5), b = draw(preset.name, 30, 5), c = draw(preset.name, 30, 6);
    EXPECT_EQ(a.w, b.w) << preset.name;
    EXPECT_EQ(a.delta, b.delta) << preset.name;
    EXPECT_NE(a.w, c.w) << preset.name;
  }
}

} // namespace
} // namespace pipesim

// Tests of generated instances in scenario files: pipeline and platform presets, overrides and their errors.
#include "scenarios/scenario.hpp"

#include "model/pipeline_generator.hpp"
#include "model/pipeline_presets.hpp"
#include "scenarios/scenario_test_util.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

Scenario parse(const std::string& pipeline, const std::string& platform = "{processors: [{name: P1, speed: 1}], "
                                                                          "bandwidth: 1}")
{
  return parse_scenario("pipeline:\n  generate: " + pipeline + "\nplatform: " + platform + "\nmapper: x\n",
                        "test.yaml");
}

TEST(ScenarioGenerate, PipelinePresetGivesThePresetRanges)
{
  Scenario s                   = parse("{preset: bbr10-table1, n: 40, seed: 6}");
  const PipelinePreset* preset = find_pipeline_preset("bbr10-table1");
  Pipeline expected            = generate_pipeline(40, preset->w, preset->delta, 6);
  EXPECT_EQ(s.pipeline.w, expected.w);
  EXPECT_EQ(s.pipeline.delta, expected.delta);
  for (double d : s.pipeline.delta) {
    EXPECT_GE(d, 1);
    EXPECT_LE(d, 25);
    EXPECT_EQ(d, std::floor(d));
  }
  EXPECT_EQ(parse("{preset: bbr10-table1, n: 40, seed: 6}").pipeline.w, s.pipeline.w); // same seed, same pipeline
}

TEST(ScenarioGenerate, ExplicitKeysOverrideThePipelinePreset)
{
  Scenario s = parse("{preset: br07-exp1, n: 30, seed: 2, delta: [50, 60]}");
  for (double w : s.pipeline.w) { // w from the preset: [1, 20]
    EXPECT_GE(w, 1);
    EXPECT_LE(w, 20);
  }
  for (double d : s.pipeline.delta) { // delta overridden: the preset's constant 10 is gone
    EXPECT_GE(d, 50);
    EXPECT_LE(d, 60);
  }
  Scenario both = parse("{preset: br07-exp1, n: 3, seed: 2, w: 7, delta: {normal: {mean: 4, sd: 1}}}");
  EXPECT_EQ(both.pipeline.w, std::vector<double>(3, 7.0));
  for (double d : both.pipeline.delta)
    EXPECT_GT(d, 0.0);
}

TEST(ScenarioGenerate, NormalRangesWithoutPreset)
{
  Scenario s = parse("{n: 100, w: {normal: {mean: 10, sd: 5}}, delta: {normal: {mean: 3, sd: 2}, integer: true}, "
                     "seed: 1}");
  for (double w : s.pipeline.w)
    EXPECT_GT(w, 0.0);
  for (double d : s.pipeline.delta) {
    EXPECT_GE(d, 1.0);
    EXPECT_EQ(d, std::floor(d));
  }
}

TEST(ScenarioGenerate, PipelineAndPlatformPresetsTogether)
{
  Scenario s = parse("{preset: hedpm, n: 4, seed: 1}", "{generate: {preset: hedpm, p: 4, seed: 1}}");
  ASSERT_EQ(s.platform.kind, PlatformSpec::Kind::model);
  EXPECT_EQ(s.platform.model.p(), 4);
  EXPECT_EQ(s.platform.model.bandwidth(0, 1), 10.0);
  for (int u = 0; u < 4; ++u)
    EXPECT_GT(s.platform.model.speed(u), 0.0);
  EXPECT_EQ(s.pipeline.n(), 4);
}

TEST(ScenarioGenerate, Errors)
{
  expect_input_error("pipeline:\n  generate:\n    preset: br07-exp9\n    n: 3\n    seed: 1\nplatform: {processors: "
                     "[{name: P1, speed: 1}], bandwidth: 1}\nmapper: x\n",
                     {"test.yaml:3: key 'pipeline.generate.preset': value 'br07-exp9': unknown pipeline preset "
                      "(expected one of: br07-exp1, br07-exp2, br07-exp3, br07-exp4, bbr10-table1, bbr10-tables23, "
                      "hedpm, hedpm-5.2-hom, hedpm-5.2-het)"});
  expect_input_error("pipeline:\n  generate: {preset: br07-exp1, seed: 1}\nplatform: {processors: [{name: P1, speed: "
                     "1}], bandwidth: 1}\nmapper: x\n",
                     {"test.yaml:2: key 'pipeline.generate.n': missing"});
  expect_input_error("pipeline:\n  generate: {preset: br07-exp1, n: 2}\nplatform: {processors: [{name: P1, speed: "
                     "1}], bandwidth: 1}\nmapper: x\n",
                     {"test.yaml:2: key 'pipeline.generate.seed': missing"});
  expect_input_error("pipeline:\n  generate: {n: 2, w: 1, seed: 1}\nplatform: {processors: [{name: P1, speed: "
                     "1}], bandwidth: 1}\nmapper: x\n",
                     {"test.yaml:2: key 'pipeline.generate.delta': missing"});
  expect_input_error("pipeline:\n  generate: {preset: br07-exp1, n: 2, seed: 1, sd: 3}\nplatform: {processors: "
                     "[{name: P1, speed: 1}], bandwidth: 1}\nmapper: x\n",
                     {"test.yaml:2: ", "pipeline.generate.sd"});
}

} // namespace
} // namespace pipesim

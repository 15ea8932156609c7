// `pipeline.variability` in scenario files: laws, per-stage exceptions, sample files, and every error with its file,
// line, key and value.
#include "scenarios/variability_spec.hpp"

#include "base/input_error.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/scenario_test_util.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

using ::testing::HasSubstr;

/// A three-stage scenario with `variability` as the block under pipeline.variability (lines from 4 on).
std::string scenario_with(const std::string& variability)
{
  return "pipeline:\n  w: [1, 2, 3]\n  delta: [1, 1, 1, 1]\n  variability:\n" + variability +
         "platform: {processors: [{name: P1, speed: 1}, {name: P2, speed: 2}, {name: P3, speed: 3}], "
         "bandwidth: 1}\nmapper: br07.one-to-one\n"
         "simulation: {seed: 9}\n";
}

/// A file in the test's scratch directory (TMPDIR).
std::string scratch_file(const std::string& name, const std::string& text)
{
  const char* dir  = std::getenv("TMPDIR");
  std::string path = std::string(dir ? dir : "/tmp") + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(VariabilitySpec, LawsStagesAndSampleFiles)
{
  const std::string samples   = scratch_file("s2.txt", "# measured\n2\n4.0\n\n6 # slow\n8\n");
  Scenario s                  = parse_scenario(scenario_with("    work: {law: gamma, cv: 0.5}\n"
                                                                              "    size: exponential\n"
                                                                              "    stages:\n"
                                                                              "      2: {work: {law: empirical, file: " +
                                                             samples +
                                                             "}}\n"
                                                                              "      0: {size: {law: uniform, cv: 0.25}}\n"
                                                                              "      3: {work: deterministic, size: {law: lognormal, "
                                                                              "cv: 2}}\n"),
                                               "test.yaml");
  const VariabilitySpec& spec = s.variability;
  EXPECT_FALSE(spec.seed);
  Variability v(s.pipeline, spec, spec.seed.value_or(s.simulation.seed));
  EXPECT_EQ(v.seed(), 9u);
  EXPECT_EQ(v.work_law(1).to_string(), "gamma(cv 0.5)");
  EXPECT_EQ(v.work_law(2).to_string(), "empirical(" + samples + ": 4 samples, cv 0.447)");
  EXPECT_TRUE(v.work_law(3).constant());
  EXPECT_EQ(v.size_law(0).to_string(), "uniform(cv 0.25)");
  EXPECT_EQ(v.size_law(1).law(), Law::exponential);
  EXPECT_EQ(v.size_law(3).to_string(), "lognormal(cv 2)");
  // w_2 draws the samples scaled to the mean w_2 = 2: {0.8, 1.6, 2.4, 3.2}
  for (long long k = 0; k < 20; ++k) {
    double x = v.work(2, k) / 0.8;
    EXPECT_NEAR(x, std::round(x), 1e-12) << x;
  }
}

TEST(VariabilitySpec, SeedAndDefaults)
{
  Scenario s = parse_scenario(scenario_with("    seed: 5\n"), "test.yaml");
  EXPECT_EQ(*s.variability.seed, 5u);
  EXPECT_TRUE(s.variability.deterministic());
  Scenario none = parse_scenario(scenario_with("    {}\n"), "test.yaml");
  EXPECT_TRUE(none.variability.deterministic());
}

TEST(VariabilitySpec, ErrorsNameFileLineKeyAndValue)
{
  expect_input_error(scenario_with("    work: normal\n"),
                     {"test.yaml:5", "pipeline.variability.work", "'normal'", "unknown law", "gamma"});
  expect_input_error(scenario_with("    work: gamma\n"), {"test.yaml:5", "needs a cv: write {law: gamma, cv: 0.5}"});
  expect_input_error(scenario_with("    work: {law: gamma}\n"), {"test.yaml:5", "a gamma law needs a cv"});
  expect_input_error(scenario_with("    work: {law: exponential, cv: 1}\n"),
                     {"test.yaml:5", "pipeline.variability.work.cv", "value '1'", "takes no cv (its cv is 1)"});
  expect_input_error(scenario_with("    size: {law: uniform, cv: 0.7}\n"),
                     {"test.yaml:5", "pipeline.variability.size.cv", "'0.7'", "[0, 0.577]", "below 0"});
  expect_input_error(scenario_with("    size: {law: lognormal, cv: 11}\n"), {"'11'", "expected a cv in [0, 10]"});
  expect_input_error(scenario_with("    size: {law: gamma, cv: -0.5}\n"), {"'-0.5'", "[0, 10]"});
  expect_input_error(scenario_with("    size: {law: gamma, cv: .nan}\n"), {"'.nan'", "expected a number"});
  expect_input_error(scenario_with("    work: {law: gamma, cv: 1, file: x.txt}\n"),
                     {"pipeline.variability.work.file", "only an empirical law reads a file"});
  expect_input_error(scenario_with("    work: empirical\n"), {"test.yaml:5", "needs its samples"});
  expect_input_error(scenario_with("    work: {law: empirical}\n"), {"test.yaml:5", "needs `file:`"});
  expect_input_error(scenario_with("    work: {law: empirical, file: no-such-file.txt}\n"),
                     {"pipeline.variability.work.file", "file not found"});
  expect_input_error(scenario_with("    stages: {7: {work: exponential}}\n"),
                     {"test.yaml:5", "pipeline.variability.stages.7", "stage number in 0..3"});
  expect_input_error(scenario_with("    stages: {two: {work: exponential}}\n"), {"stages.two", "stage number"});
  expect_input_error(scenario_with("    stages: {0: {work: exponential}}\n"),
                     {"pipeline.variability.stages.0.work", "no work"});
  expect_input_error(scenario_with("    stages: {1: {speed: exponential}}\n"), {"unknown key", "stages.1.speed"});
  expect_input_error(scenario_with("    spread: 2\n"),
                     {"test.yaml:5", "key 'pipeline.variability.spread': unknown key"});
  expect_input_error(scenario_with("    seed: -1\n"), {"pipeline.variability.seed", "integer >= 0"});
}

TEST(VariabilitySpec, BadSampleFilesNameTheirLine)
{
  const std::string negative = scratch_file("negative.txt", "1\n2\n-3\n");
  expect_input_error(scenario_with("    work: {law: empirical, file: " + negative + "}\n"),
                     {negative + ":3: value '-3'", "expected one number >= 0 per line",
                      "samples of test.yaml:5: key 'pipeline.variability.work.file'"});
  const std::string words = scratch_file("words.txt", "1\n2 3\n");
  expect_input_error(scenario_with("    work: {law: empirical, file: " + words + "}\n"), {words + ":2: value '2 3'"});
  const std::string empty = scratch_file("empty.txt", "# nothing measured\n\n");
  expect_input_error(scenario_with("    size: {law: empirical, file: " + empty + "}\n"),
                     {empty + ": no samples", "pipeline.variability.size.file"});
  const std::string zeros = scratch_file("zeros.txt", "0\n0\n");
  expect_input_error(scenario_with("    size: {law: empirical, file: " + zeros + "}\n"), {"every sample is 0"});
}

} // namespace
} // namespace pipesim

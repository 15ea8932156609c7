// `simulation.precision` and `simulation.max_datasets` (DESIGN.md §3.10): what they set and every error with its
// file, line, key and value.
#include "scenarios/scenario.hpp"
#include "scenarios/scenario_test_util.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

namespace {
const std::string precision_head = R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
)";
} // namespace

TEST(PrecisionSpec, SetsThePrecisionAndTheLargestRun)
{
  Scenario s = parse_scenario(precision_head + "simulation: {datasets: 500, precision: 0.01, max_datasets: 80000}\n",
                              "test.yaml");
  EXPECT_EQ(s.simulation.precision, 0.01);
  EXPECT_EQ(s.simulation.max_datasets, 80'000);
  EXPECT_EQ(s.simulation.effective_max_datasets(), 80'000);
  Scenario d = parse_scenario(precision_head + "simulation: {precision: 0.05}\n", "test.yaml");
  EXPECT_EQ(d.simulation.effective_max_datasets(), default_max_datasets);
  Scenario none = parse_scenario(precision_head + "simulation: {datasets: 100}\n", "test.yaml");
  EXPECT_EQ(none.simulation.precision, 0);
}

TEST(PrecisionSpec, ErrorsNameFileLineKeyAndValue)
{
  for (const char* bad : {"0", "1", "-0.5", "0.0"})
    expect_input_error(precision_head + "simulation:\n  precision: " + bad + "\n",
                       {"test.yaml:5:", "simulation.precision", std::string("value '") + bad + "'", "(0, 1)"});
  for (const char* bad : {"tight", "nan", ".nan"})
    expect_input_error(precision_head + "simulation:\n  precision: " + bad + "\n",
                       {"test.yaml:5:", "simulation.precision", std::string("value '") + bad + "'", "a number"});
  expect_input_error(precision_head + "simulation:\n  warmup: 10\n  precision: 0.01\n",
                     {"test.yaml:5:", "simulation.warmup", "detected"});
  expect_input_error(precision_head + "simulation:\n  max_datasets: 1000\n",
                     {"test.yaml:5:", "simulation.max_datasets", "simulation.precision"});
  expect_input_error(precision_head + "simulation:\n  datasets: 400\n  precision: 0.01\n  max_datasets: 399\n",
                     {"test.yaml:7:", "simulation.max_datasets", "value '399'", "[400, 10000000]"});
  expect_input_error(precision_head + "simulation:\n  precision: 0.01\n  max_datasets: 20000000\n",
                     {"test.yaml:6:", "simulation.max_datasets", "value '20000000'"});
}

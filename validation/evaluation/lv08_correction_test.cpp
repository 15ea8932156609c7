// analytic.network lv08 (model/network_correction.hpp): on one-port interval mappings with dedicated links the
// corrected formulas predict SimGrid's LV08 network (the `simgrid` mode) as the plain ones predict the exact mode.
#include "scenarios/scenario_test_util.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace pipesim;

namespace {

/// Maps and simulates a scenario text (`simulation` given without its closing brace, so that arguments can follow).
ScenarioRun lv08_simulated(const std::string& text)
{
  ScenarioRun run = map_scenario(parse_scenario(text, "lv08.yaml"));
  simulate_run(run, 1);
  return run;
}

double lv08_relative_gap(double a, double b) { return std::abs(a - b) / std::abs(b); }

const std::string lv08_interval_scenario = R"(
pipeline: {w: [20, 30, 40], delta: [1000.4, 499.6, 2000.3, 800.2]}
platform:
  processors: [{name: P1, speed: 10}, {name: P2, speed: 5}]
  bandwidth: 100
  latency: 0.01
mapping: [{stages: [1, 2], replicas: [P1]}, {stages: [3], replicas: [P2]}]
analytic: {network: lv08}
)";

} // namespace

TEST(Lv08Correction, IntervalMappingMatchesTheSimgridModeWithAndWithoutCrossTraffic)
{
  // LV08 in SimGrid 3.32: a transfer waits 13.01 c, then moves its whole bytes at 0.97 min(b, gamma / 2c); here
  // gamma / 2c = 4194304 / 0.02 is far above b = 100, so a transfer of X bytes takes 0.1301 + round(X) / 97.
  // P1 (stages 1-2): receive 1000 B, compute 50 / 10 = 5, send 2000 B: 0.2602 + 3000 / 97 + 5 = 36.188...
  // P2 (stage 3): receive 2000 B, compute 40 / 5 = 8, send 800 B: 0.2602 + 2800 / 97 + 8 = 37.126... (the period)
  // Eq. (2) on the platform as given says 0.02 + 2800.5 / 100 + 8 = 36.025.
  const double period = 2 * 13.01 * 0.01 + 8 + (2000.0 + 800.0) / 97;
  for (const char* simgrid : {"[--cfg=network/crosstraffic:0]", "[]"}) {
    ScenarioRun run = lv08_simulated(
        lv08_interval_scenario + fmt::format("simulation: {{network: simgrid, datasets: 40, simgrid: {}}}", simgrid));
    EXPECT_EQ(run.analytic.formula, "seed000-eq2+lv08");
    EXPECT_NEAR(run.analytic.period, period, 1e-12 * period);
    EXPECT_NEAR(run.event_graph_period, period, 1e-12 * period);
    ASSERT_TRUE(run.simulated);
    // cross traffic loads the link v -> u with 5 % of a transfer u -> v: on dedicated links in the one-port model
    // nothing else uses v -> u at that time (only u or v could, and each does one thing at a time)
    EXPECT_LT(lv08_relative_gap(run.simulated->period, period), 1e-9) << simgrid;
    // latency: in -> P1, compute 5, P1 -> P2, compute 8, P2 -> out: 3 x 0.1301 + 3800 / 97 + 13
    const double latency = 3 * 0.1301 + (1000.0 + 2000.0 + 800.0) / 97 + 13;
    EXPECT_NEAR(run.analytic.latency, latency, 1e-12 * latency);
    EXPECT_LT(lv08_relative_gap(run.simulated_latency, latency), 1e-9) << simgrid;
  }
  std::string plain = lv08_interval_scenario;
  plain.replace(plain.find("analytic: {network: lv08}"), 25, "analytic: {network: exact}");
  ScenarioRun exact = map_scenario(parse_scenario(plain, "exact.yaml"));
  EXPECT_EQ(exact.analytic.formula, "seed000-eq2");
  EXPECT_NEAR(exact.analytic.period, 0.02 + (2000.3 + 800.2) / 100 + 8, 1e-12);
}

TEST(Lv08Correction, TheTcpWindowBoundsALongRoute)
{
  // P1 -> P2 has b = 1e7 B/s and c = 0.5 s: gamma / 2c = 4194304 B/s < b, so 1e8 bytes take
  // 13.01 x 0.5 + 1e8 / (0.97 x 4194304) = 6.505 + 24.579... s; each processor adds 1 s of computation.
  const double period = 1 + 13.01 * 0.5 + 1e8 / (0.97 * 4194304);
  ScenarioRun run     = lv08_simulated(R"(
pipeline: {w: [1e9, 1e9], delta: [0, 1e8, 0]}
platform:
  processors: [{name: P1, speed: 1e9}, {name: P2, speed: 1e9}]
  bandwidth: 1e7
  latency: {default: 0, links: [{from: P1, to: P2, latency: 0.5}]}
mapping: [{stages: [1], replicas: [P1]}, {stages: [2], replicas: [P2]}]
analytic: {network: lv08}
simulation: {network: simgrid, datasets: 20}
)");
  EXPECT_EQ(run.analytic.formula, "seed000-eq1+lv08");
  EXPECT_NEAR(run.analytic.period, period, 1e-12 * period);
  ASSERT_TRUE(run.simulated);
  EXPECT_LT(lv08_relative_gap(run.simulated->period, period), 1e-9);
  EXPECT_LT(lv08_relative_gap(run.simulated_latency, period + 1), 1e-9);
}

TEST(Lv08Correction, RandomIntervalMappingsOnDedicatedLinks)
{
  // Fully Heterogeneous platforms with latencies (one link per ordered pair), random interval and one-to-one
  // mappings, real-valued message sizes (rounded to whole bytes by both sides).
  for (int seed = 1; seed <= 12; ++seed) {
    const std::string text =
        fmt::format(R"(
pipeline: {{generate: {{n: {}, w: [1, 20], delta: [1, 100], seed: {}}}}}
platform: {{generate: {{class: fully-heterogeneous, p: 6, speed: [1, 20], bandwidth: [1, 10], latency: [0, 0.1], seed: {}}}}}
mapper: {}
analytic: {{network: lv08}}
simulation: {{network: simgrid, datasets: 60, seed: {}, simgrid: [--cfg=network/crosstraffic:0]}}
)",
                    2 + seed % 5, seed, seed, seed % 2 ? "random.interval" : "random.one-to-one", seed);
    ScenarioRun run = lv08_simulated(text);
    ASSERT_TRUE(run.simulated) << text;
    EXPECT_LT(lv08_relative_gap(run.simulated->period, run.analytic.period), 1e-9) << text;
    EXPECT_LT(lv08_relative_gap(run.simulated_latency, run.analytic.latency), 1e-9) << text;
  }
}

TEST(Lv08Correction, ScenarioKeyIsChecked)
{
  std::string bad = lv08_interval_scenario;
  bad.replace(bad.find("lv08}"), 4, "lv07");
  expect_input_error(bad, {"test.yaml:8", "network", "lv07"});
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: br07.one-to-one
analytic: {netwrk: lv08}
)",
                     {"test.yaml:4", "netwrk"});
}

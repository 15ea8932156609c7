// Time-varying platforms end to end (DESIGN.md §3.11, issue 34): scenarios with platform.profiles simulated by SimGrid,
// their windowed throughput against the per-epoch event-graph period computed on a constant platform written apart.
#include "base/input_error.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace pipesim;

namespace {

// Three processors; P_in = P_out = io. One-port cycle-times (receive + compute + send, eq. (2)):
//   P1: 10/10 + 0.1 + 20/10 + 5/5 + 0.1   = 4.2   (the nominal period)
//   P2: 1.1 + 40/20 + 8/10 + 0.1          = 4.0
//   P3: 0.9 + 30/15 + 4/10 + 0.1          = 3.4
std::string scenario_text(const std::string& profiles, const std::string& speeds = "10, 20, 15",
                          const std::string& simulation = "", const std::string& links = "")
{
  double s[3];
  std::sscanf(speeds.c_str(), "%lf, %lf, %lf", &s[0], &s[1], &s[2]);
  return fmt::format(R"(pipeline: {{w: [20, 40, 30], delta: [10, 5, 8, 4]}}
platform:
  processors: [{{name: P1, speed: {}}}, {{name: P2, speed: {}}}, {{name: P3, speed: {}}}]
  bandwidth: {{default: 10, links: [{{from: P1, to: P2, bandwidth: 5}}{}]}}
  latency: 0.1
  io: {{in: io, out: io}}
{}mapping: [{{stages: [1], replicas: [P1]}}, {{stages: [2], replicas: [P2]}}, {{stages: [3], replicas: [P3]}}]
simulation: {{datasets: 200, seed: 1{}}}
)",
                     s[0], s[1], s[2], links, profiles.empty() ? "" : "  profiles:\n" + profiles, simulation);
}

ScenarioRun simulated(const std::string& text)
{
  ScenarioRun run = map_scenario(parse_scenario(text, "test.yaml"));
  simulate_run(run);
  return run;
}

/// The event-graph (one-port) or Algorithm 1 (multi-port) period of a constant platform: map it, no simulation.
double constant_period(const std::string& text)
{
  ScenarioRun run = map_scenario(parse_scenario(text, "constant.yaml"));
  return run.scenario.simulation.model == CommModel::one_port ? run.event_graph_period : run.analytic.period;
}

double relative(double a, double b) { return std::abs(a - b) / b; }

/// Every steady window of the epoch starting at `start` equals `period` within 1e-9, after a transient.
void expect_steady_windows(const ScenarioRun& run, double start, double period, int at_least)
{
  ASSERT_TRUE(run.series);
  const EpochSeries& s = *run.series;
  auto epochs          = compare_series(s.analytic, s.throughput, run.simulated->output_times, 1e-9);
  for (std::size_t i = 0; i < s.analytic.size(); ++i) {
    if (s.analytic[i].start != start) continue;
    EXPECT_NEAR(s.analytic[i].period, period, 1e-9 * period);
    ASSERT_TRUE(epochs[i].transient) << "no window matched the epoch from " << start;
    EXPECT_GE(epochs[i].steady, at_least);
    EXPECT_EQ(epochs[i].mismatched, 0) << "largest error " << epochs[i].max_error;
    return;
  }
  ADD_FAILURE() << "no epoch starts at " << start;
}

TEST(DynamicPlatform, ConstantHalfSpeedIsThePlatformAtHalfSpeed)
{
  const std::string half = "    hosts:\n      - {host: P1, speed: [[0, 0.5]]}\n      - {host: P2, speed: [[0, 0.5]]}\n"
                           "      - {host: P3, speed: [[0, 0.5]]}\n";
  for (const char* model : {"", ", model: multi-port, allocation: allotted"}) {
    ScenarioRun run = simulated(scenario_text(half, "10, 20, 15", model));
    double expected = constant_period(scenario_text("", "5, 10, 7.5", model)); // P1: 1.1 + 4 + 1.1 = 6.2 one-port
    if (model[0] == '\0') {
      EXPECT_NEAR(expected, 6.2, 1e-12);
    }
    EXPECT_LT(relative(run.simulated->period, expected), 1e-9) << model << ": " << run.simulated->period;
    ASSERT_TRUE(run.series);
    ASSERT_EQ(run.series->analytic.size(), 1u); // one epoch: the ratio holds from t = 0
    EXPECT_NEAR(run.series->analytic[0].period, expected, 1e-9 * expected);
  }
}

TEST(DynamicPlatform, SpeedStepEverySteadyWindowIsTheNewPeriod)
{
  // P2 at 0.25 from t = 100: its computation takes 40/5 = 8 s, cycle 1.1 + 8 + 0.9 = 10 (one-port), max 8 (multi-port)
  const std::string step = "    hosts: [{host: P2, speed: [[100, 0.25]]}]\n";
  for (const char* model : {"", ", model: multi-port, allocation: allotted"}) {
    ScenarioRun run = simulated(scenario_text(step, "10, 20, 15", model));
    double before   = constant_period(scenario_text("", "10, 20, 15", model));
    double after    = constant_period(scenario_text("", "10, 5, 15", model));
    if (model[0] == '\0') {
      EXPECT_NEAR(after, 10, 1e-12);
    }
    ASSERT_EQ(run.series->analytic.size(), 2u) << model;
    EXPECT_EQ(run.series->analytic[1].start, 100);
    expect_steady_windows(run, 0, before, 1);
    expect_steady_windows(run, 100, after, 10);
    EXPECT_LE(*run.series->epochs[1].transient, 20) << model; // data sets until the first window at the new period
  }
}

TEST(DynamicPlatform, BandwidthAndLatencyStepsOfAPair)
{
  // P1 -> P2 at 0.1 of its 5 B/s from t = 60: P1 sends 5 bytes in 10 + 0.1 s, cycle 1.1 + 2 + 10.1 = 13.2; the
  // latency of io -> P1 x 11 from t = 1000 (a transfer pays the latency of the date it starts).
  const std::string steps = "    links:\n      - {from: P1, to: P2, bandwidth: [[60, 0.1]], directed: true}\n"
                            "      - {from: io, to: P1, latency: [[1000, 11]], directed: true}\n";
  ScenarioRun run         = simulated(scenario_text(steps));
  auto slow_p1_to_p2      = [](std::string t) {
    t.replace(t.find("{from: P1, to: P2, bandwidth: 5}"), 32,
                   "{from: P1, to: P2, bandwidth: 0.5, directed: true}, {from: P2, to: P1, bandwidth: 5, directed: true}");
    return t;
  };
  double after_b = constant_period(slow_p1_to_p2(scenario_text("")));
  EXPECT_NEAR(after_b, 13.2, 1e-12);
  ASSERT_EQ(run.series->analytic.size(), 3u);
  expect_steady_windows(run, 60, after_b, 3);
  // from 1000 P1 receives in 1 + 1.1: cycle 14.2 (the model's latency of io -> P1 written as 1.1)
  std::string constant = slow_p1_to_p2(scenario_text(""));
  constant.replace(constant.find("latency: 0.1"), 12,
                   "latency: {default: 0.1, links: [{from: io, to: P1, latency: "
                   "1.1, directed: true}]}");
  double after_c = constant_period(constant);
  EXPECT_NEAR(after_c, 14.2, 1e-12);
  expect_steady_windows(run, 1000, after_c, 5);
  EXPECT_EQ(run.simulated->output_times.size(), 200u);
}

TEST(DynamicPlatform, BothNetworkModesEndWhenValuesChangeDuringLatencies)
{
  // Bandwidth and latency of io -> P1 alternate every 0.37 s for the whole run: changes fall inside transfers'
  // latency phases, where SimGrid 3.32 stops a transfer for ever (lazy update) when a latency changes, or a bandwidth
  // with network/weight-S > 0 (the simgrid mode's LV08). Every run must deliver its N data sets.
  const std::string flicker = "    links:\n      - {from: io, to: P1, bandwidth: {points: [[0, 1], [0.2, 0.5]], "
                              "period: 0.37}, latency: {points: [[0.1, 2], [0.3, 1]], period: 0.37}}\n";
  for (const char* network : {", network: exact", ", network: simgrid"}) {
    std::string text = scenario_text(flicker, "10, 20, 15", network);
    text.replace(text.find("datasets: 200"), 13, "datasets: 60");
    ScenarioRun run = simulated(text);
    EXPECT_EQ(run.simulated->failures.verdict, Verdict::survived) << network;
    EXPECT_EQ(run.simulated->output_times.size(), 60u) << network;
  }
}

TEST(DynamicPlatform, StateProfileIsACrash)
{
  // P3 turns off at t = 300 (a crash, DESIGN.md §3.5): alone on I_3 the run fails then; with a second replica of I_3
  // on P4 the run survives and P4 takes over.
  std::string text = scenario_text("    hosts: [{host: P3, state: [[300, 0]]}]\n");
  ScenarioRun lone = simulated(text);
  EXPECT_EQ(lone.simulated->failures.verdict, Verdict::failed);
  EXPECT_EQ(lone.simulated->failures.failure_time, 300);
  EXPECT_NE(simulate_table(lone).find("interval 3 lost its last replica (state profiles turned off P3 at 300)"),
            std::string::npos)
      << simulate_table(lone);
  auto replicated = [](std::string t) {
    t.replace(t.find("{name: P3, speed: 15}"), 21, "{name: P3, speed: 15}, {name: P4, speed: 10}");
    t.replace(t.find("replicas: [P3]"), 14, "replicas: [P3, P4]");
    return t;
  };
  ScenarioRun run = simulated(replicated(text));
  EXPECT_EQ(run.simulated->failures.verdict, Verdict::survived);
  EXPECT_EQ(run.simulated->output_times.size(), 200u);
  // after the crash P4 alone runs I_3: receive 0.9, compute 30/10 = 3, send 0.5: 4.4 > P1's 4.2
  std::string survivors = replicated(scenario_text(""));
  survivors.replace(survivors.find("replicas: [P3, P4]"), 18, "replicas: [P4]");
  double after = constant_period(survivors);
  EXPECT_NEAR(after, 4.4, 1e-12);
  ASSERT_EQ(run.series->analytic.size(), 2u);
  EXPECT_EQ(run.series->analytic[1].hosts_off, std::vector<std::string>{"P3"});
  expect_steady_windows(run, 300, after, 5);
}

TEST(DynamicPlatform, ProfilesOnTheIoHostsOrUnknownHostsAreRefused)
{
  EXPECT_THROW(parse_scenario(scenario_text("    hosts: [{host: io, state: [[1, 0]]}]\n"), "t.yaml"), InputError);
  try {
    parse_scenario(scenario_text("    hosts: [{host: P1, speed: [[0, 1], [0, 2]]}]\n"), "t.yaml");
    FAIL() << "dates that do not increase were taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("t.yaml:8: key 'platform.profiles.hosts[0].speed[1]'"), std::string::npos)
        << e.what();
  }
}

} // namespace

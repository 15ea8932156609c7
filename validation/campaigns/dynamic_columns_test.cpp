// The re-mapping columns of a campaign row (validation/campaigns/dynamic_columns.hpp) on the step of remap_test.cpp,
// whose outputs are worked out by hand, and a campaign row against a direct simulation of the same scenario.
#include "scenarios/campaign.hpp"
#include "validation/campaigns/dynamic_columns.hpp"
#include "validation/campaigns/run_execution.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

using namespace pipesim;

namespace {

// remap_test.cpp's step: two stages of 10 flop, 1-byte messages, b = 10; P1, P2 at 10 flop/s, P3 at 4; P2 at a
// quarter from t = 100. exact.interval maps [1]:P2 [2]:P1, period 1.2 s, until the threshold policy re-maps to
// [1-2]:P1 once.
std::string columns_step_scenario(const std::string& profiles)
{
  return fmt::format(R"(pipeline: {{w: [10, 10], delta: [1, 1, 1]}}
platform:
  processors: [{{name: P1, speed: 10}}, {{name: P2, speed: 10}}, {{name: P3, speed: 4}}]
  bandwidth: 10
  io: {{in: io, out: io}}
  profiles: {}
mapper: exact.interval
simulation: {{datasets: 200, seed: 1}}
dynamic: {{policy: threshold, threshold: 10, windows: 2, window: 5, state: [5, 7], restart: 0.3}}
)",
                     profiles);
}

ScenarioRun columns_run(const std::string& text)
{
  ScenarioRun run = map_scenario(parse_scenario(text, "step.yaml"));
  simulate_run(run);
  return run;
}

} // namespace

TEST(DynamicColumns, TheStepByHand)
{
  ScenarioRun run = columns_run(columns_step_scenario("{hosts: [{host: P2, speed: [[100, 0.25]]}]}"));
  ASSERT_TRUE(run.simulated);
  ASSERT_EQ(run.simulated->remaps.size(), 1u);
  CampaignRow row;
  fill_dynamic_columns(row, run, 50.0);
  EXPECT_EQ(row.policy, "threshold");
  EXPECT_EQ(row.dynamic_mapper, "exact.interval");
  EXPECT_EQ(row.remaps, 1);
  EXPECT_EQ(row.load_changes, 0); // the step at 100 s is after H = 50
  EXPECT_DOUBLE_EQ(*row.downtime, run.simulated->remaps[0].downtime);
  // one-port, no overlap: data set 0 leaves at 0.1 (P_in -> P2) + 1 + 0.1 (P2 -> P1) + 1 + 0.1 (P1 -> P_out) = 2.3 s,
  // then one every 1.2 s (P2 and P1 each receive 0.1 + compute 1 + send 0.1): t_out(k) = 2.3 + 1.2 k <= 50 for
  // k = 0..39, 40 data sets; mean period 50 / 40 = 1.25
  EXPECT_EQ(row.datasets_by_horizon, 40u);
  EXPECT_DOUBLE_EQ(*row.horizon, 50);
  EXPECT_DOUBLE_EQ(*row.mean_period, 1.25);
  EXPECT_DOUBLE_EQ(*row.makespan, run.simulated->makespan);
  // with H = 150 the step is one load change, and the outputs by 150 are those of the simulation
  CampaignRow later;
  fill_dynamic_columns(later, run, 150.0);
  EXPECT_EQ(later.load_changes, 1);
  std::uint64_t by_hand = 0;
  for (double t : run.simulated->output_times)
    by_hand += t <= 150 ? 1 : 0;
  EXPECT_EQ(later.datasets_by_horizon, by_hand);
  // at least the 82 output by 100 s (2.3 + 1.2 k <= 100: k <= 81), fewer than at 1.2 s throughout (124): the step
  EXPECT_GE(by_hand, 82u);
  EXPECT_LT(by_hand, 124u);
  // without a horizon: no data set count, the load changes until the makespan
  CampaignRow none;
  fill_dynamic_columns(none, run, std::nullopt);
  EXPECT_EQ(none.load_changes, 1);
  EXPECT_FALSE(none.datasets_by_horizon);
  EXPECT_FALSE(none.horizon.present());
}

TEST(DynamicColumns, ACampaignRowIsTheDirectSimulation)
{
  // generated epochs of P2 until H = 300; 400 data sets last beyond it (at least 1.2 s each)
  const std::string text =
      columns_step_scenario("{generate: {seed: 3, hosts: [P2], epoch: [40, 80], speed: [0.2, 1], horizon: 300}}");
  Campaign campaign = parse_campaign(
      "name: dynamic-row\nmode: simulate\nbase:\n" +
          [&] {
            std::string indented;
            for (std::size_t i = 0, j; i < text.size(); i = j + 1) {
              j = text.find('\n', i);
              indented += "  " + text.substr(i, j - i) + "\n";
            }
            return indented;
          }() +
          "sweep:\n  simulation.datasets: [400]\nseed: {from: 4, count: 1}\n",
      "dynamic-row.yaml", ".");
  ASSERT_EQ(campaign.runs.size(), 1u);
  // the run seed draws the load epochs too (docs/campaigns.md): generate.seed 3 becomes the run's seed, 4
  EXPECT_EQ(YAML::Load(campaign.runs[0].scenario_yaml)["platform"]["profiles"]["generate"]["seed"].as<std::uint64_t>(),
            campaign.runs[0].seed);
  CampaignRow row = execute_run(campaign, campaign.runs[0], "");
  ASSERT_TRUE(row.ok()) << row.error;
  ScenarioRun run = columns_run(campaign.runs[0].scenario_yaml);
  ASSERT_TRUE(run.simulated);
  EXPECT_EQ(row.remaps, static_cast<int>(run.simulated->remaps.size()));
  EXPECT_GE(*row.remaps, 1);
  std::uint64_t by_hand = 0;
  for (double t : run.simulated->output_times)
    by_hand += t <= 300 ? 1 : 0;
  EXPECT_EQ(row.datasets_by_horizon, by_hand);
  EXPECT_GT(*row.makespan, 300);
  int changes = 0; // P2's epochs: every date of its profile in (0, 300)
  for (const ProfilePoint& point : run.platform.profiles().host("P2")->speed->points)
    changes += point.date > 0 && point.date < 300 ? 1 : 0;
  EXPECT_EQ(row.load_changes, changes);
  EXPECT_GE(changes, 3); // epochs of 40-80 s over 300 s
  double downtime = 0;
  for (const RemapRecord& r : run.simulated->remaps)
    downtime += r.downtime;
  EXPECT_DOUBLE_EQ(*row.downtime, downtime);
  EXPECT_EQ(row.policy, "threshold");
}

TEST(DynamicColumns, TheAnalyticSeriesFollowsTheRunningMapping)
{
  // the plot's steps: [1]:P2 [2]:P1 at 1.2 s until the step at 100 s, 4.2 s until the re-map's decision, then
  // [1-2]:P1 at the new speeds, 2.2 s (remap_test.cpp's arithmetic)
  ScenarioRun run = columns_run(columns_step_scenario("{hosts: [{host: P2, speed: [[100, 0.25]]}]}"));
  ASSERT_TRUE(run.series);
  EXPECT_TRUE(run.series->remapped);
  ASSERT_EQ(run.remap_mappings.size(), 1u);
  EXPECT_EQ(to_text(run.remap_mappings[0], run.platform), "[1-2]:P1");
  const double decision         = run.simulated->remaps[0].time;
  const std::vector<Epoch>& all = run.series->analytic;
  ASSERT_EQ(all.size(), 3u);
  EXPECT_DOUBLE_EQ(all[0].start, 0);
  EXPECT_DOUBLE_EQ(all[0].end, 100);
  EXPECT_NEAR(all[0].period, 1.2, 1e-9);
  EXPECT_DOUBLE_EQ(all[1].start, 100);
  EXPECT_DOUBLE_EQ(all[1].end, decision);
  EXPECT_NEAR(all[1].period, 4.2, 1e-9);
  EXPECT_DOUBLE_EQ(all[2].start, decision);
  EXPECT_DOUBLE_EQ(all[2].end, run.simulated->makespan);
  EXPECT_NEAR(all[2].period, 2.2, 1e-9);
  EXPECT_TRUE(series_text(run).empty()); // the re-map table says what happened; the JSON has the series
}

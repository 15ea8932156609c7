// Re-mapping by handover (DESIGN.md §3.12, issue 34 item 3): the periodic policy on a step of one processor's speed,
// end to end from the scenario, against output times and costs worked out by hand, and against a drain on the same
// decision.
#include "base/input_error.hpp"
#include "model/event_graph.hpp"
#include "platforms/profile.hpp"
#include "validation/evaluation/remap_test_scenario.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace pipesim;

namespace {

// The scenario of remap_test_scenario.hpp (from t = 100 P2 runs at 2.5 flop/s: exact.interval's [1]:P2 [2]:P1 goes
// from 1.2 s to 4.2 s a data set, [1-2]:P1 takes 2.2 s), re-mapped every 50 s at the given cost.
std::string handover_scenario(const std::string& cost)
{
  return test::remap_scenario(
      fmt::format("{{policy: periodic, period: 50, window: 5, state: [5, 7], restart: 0.3, cost: {}}}", cost));
}

ScenarioRun handover_run(const std::string& cost)
{
  ScenarioRun run = map_scenario(parse_scenario(handover_scenario(cost), "handover.yaml"));
  simulate_run(run);
  return run;
}

// The run by hand, one-port, [1]:P2 [2]:P1 (plain programs: receive, compute, send):
// - before t = 100: P2 receives k in [1.2k, 1.2k + 0.1], computes until 1.2k + 1.1, sends until 1.2k + 1.2; P1
//   computes k until 1.2k + 2.2 and outputs it at t_out(k) = 1.2k + 2.3.
// - P2 receives 83 in [99.6, 99.7] and computes 3 of its 10 flop by t = 100, the other 7 at 2.5 flop/s until 102.8,
//   sends 83 until 102.9; from then a cycle of 0.1 + 4 + 0.1 = 4.2 s: P2 sends k until 102.9 + 4.2 (k - 83), P1
//   outputs k at 104.0 + 4.2 (k - 83); P_in's send of k ends at 103.0 + 4.2 (k - 84).
// - The periodic policy at 50 s sees the nominal model (no re-map); at 150 s P2 measures 2.5 flop/s and the mapper
//   picks [1-2]:P1. P_in's last completed send is 95's (149.2), and it has offered 96 since: k* = 97.
// - Handover: P2 finishes 96 (its send ends at 102.9 + 4.2 x 13 = 157.5); stage 1's state (S_1 = 5 bytes) leaves P2
//   then and reaches P1 at 158.0 (0.5 s), while P1 computes 96 and outputs it at t_out(96) = 158.6; P1 (stage 2 stays
//   there: no move) is then done with the old mapping, pays r = 0.3 (stage 1 moved to it) and starts 97 at 158.9:
//   t_out(97) = 158.9 + 0.1 + 20 / 10 + 0.1 = 161.1, then one every 2.2 s.
// - Drain on the same decision: the transfer starts at t_out(96) = 158.6, then r: t_out(97) = 158.6 + 0.5 + 0.3 +
//   2.2 = 161.6. The handover saves the transfer, which overlapped P1's last data set.
// - downtime = t_out(k*) - time - the undisturbed period (4.2, the last window before 150: outputs 85..90).
TEST(RemapHandover, PeriodicOnAStepHandsOverAtTheTimesComputedByHand)
{
  ScenarioRun run = handover_run("handover");
  ASSERT_TRUE(run.simulated);
  const SimulationResult& sim = *run.simulated;
  ASSERT_EQ(sim.output_times.size(), 200u);
  ASSERT_EQ(sim.remaps.size(), 1u) << "exactly one re-map for one step";
  const RemapRecord& r = sim.remaps.front();
  EXPECT_EQ(r.from, "[1]:P2 [2]:P1");
  EXPECT_EQ(r.to, "[1-2]:P1");
  EXPECT_DOUBLE_EQ(r.time, 150);
  EXPECT_EQ(r.dataset, 97);
  const auto& t = sim.output_times;
  EXPECT_NEAR(t[95], 154.4, 1e-9);
  EXPECT_NEAR(t[96], 158.6, 1e-9);
  EXPECT_NEAR(t[97], 161.1, 1e-9);
  EXPECT_NEAR(t[98], 163.3, 1e-9);
  EXPECT_NEAR(r.drain, 8.6, 1e-9);    // t_out(k* - 1) - time
  EXPECT_NEAR(r.transfer, 0.5, 1e-9); // 5 bytes at 10 bytes/s
  EXPECT_NEAR(r.restart, 0.3, 1e-9);
  EXPECT_NEAR(r.fill, 2.5, 1e-9); // t_out(k*) - t_out(k* - 1): r + 2.2
  EXPECT_NEAR(r.downtime, 161.1 - 150 - 4.2, 1e-9);
  EXPECT_DOUBLE_EQ(r.bytes, 5);
  // from k* on, every window of W = 5 data sets is the event-graph period of the new mapping at the new speeds
  const Mapping now = make_interval_mapping({{1, 2}}, {0});
  const double period =
      max_cycle_ratio(build_oneport_event_graph(run.scenario.pipeline, platform_at(run.platform, r.time), now)).period;
  EXPECT_NEAR(period, 2.2, 1e-12);
  int windows = 0;
  for (std::size_t first = 97; first + 5 < t.size(); first += 5, ++windows)
    EXPECT_NEAR((t[first + 5] - t[first]) / 5, period, 1e-9 * period) << "window from data set " << first;
  EXPECT_GT(windows, 15);
  for (std::size_t k = 1; k < t.size(); ++k)
    ASSERT_LT(t[k - 1], t[k]) << "outputs in order";
}

TEST(RemapHandover, LosesNoTimeAgainstADrainOnTheSameDecision)
{
  ScenarioRun handover = handover_run("handover");
  ScenarioRun drain    = handover_run("drain");
  ASSERT_TRUE(handover.simulated && drain.simulated);
  ASSERT_EQ(drain.simulated->remaps.size(), 1u);
  ASSERT_EQ(handover.simulated->remaps.size(), 1u);
  EXPECT_EQ(drain.simulated->remaps.front().dataset, 97);
  EXPECT_NEAR(drain.simulated->output_times[97], 161.6, 1e-9); // by hand, above
  EXPECT_NEAR(drain.simulated->output_times[97] - handover.simulated->output_times[97], 0.5, 1e-9);
  for (std::size_t k = 0; k < 97; ++k) // the same run before k*
    EXPECT_DOUBLE_EQ(drain.simulated->output_times[k], handover.simulated->output_times[k]) << k;
}

TEST(RemapHandover, ClairvoyantHandsOverAtNoCost)
{
  std::string text = handover_scenario("handover");
  text.replace(text.find("policy: periodic, period: 50"), 28, "policy: clairvoyant");
  ScenarioRun run = map_scenario(parse_scenario(text, "handover.yaml"));
  simulate_run(run);
  ASSERT_TRUE(run.simulated);
  ASSERT_EQ(run.simulated->remaps.size(), 1u);
  const RemapRecord& r = run.simulated->remaps.front();
  EXPECT_DOUBLE_EQ(r.time, 100);
  EXPECT_EQ(r.to, "[1-2]:P1");
  EXPECT_EQ(r.transfer, 0);
  EXPECT_EQ(r.restart, 0);
  EXPECT_EQ(r.bytes, 0);
  // no state, no restart: P1 starts k* as soon as the old mapping is done with it and with P2's data sets < k*, so
  // k* follows k* - 1 by one pass through the empty [1-2]:P1 (2.2 s)
  EXPECT_NEAR(r.fill, 2.2, 1e-9);
}

TEST(RemapHandover, ClairvoyantHandsOverUnderEitherCost)
{
  // The clairvoyant reference re-maps at zero cost (no drain either), so its re-map is a free handover under
  // `cost: drain` as well (RemapSettings::free_handover): the same record and the same output times as under
  // `cost: handover`.
  auto clairvoyant = [](const std::string& cost) {
    std::string text = handover_scenario(cost);
    text.replace(text.find("policy: periodic, period: 50"), 28, "policy: clairvoyant");
    ScenarioRun run = map_scenario(parse_scenario(text, "clairvoyant.yaml"));
    simulate_run(run);
    return run;
  };
  const ScenarioRun drain = clairvoyant("drain"), handover = clairvoyant("handover");
  ASSERT_TRUE(drain.simulated && handover.simulated);
  ASSERT_EQ(drain.simulated->remaps.size(), 1u);
  ASSERT_EQ(handover.simulated->remaps.size(), 1u);
  const RemapRecord &d = drain.simulated->remaps.front(), &h = handover.simulated->remaps.front();
  EXPECT_EQ(d.time, h.time);
  EXPECT_EQ(d.dataset, h.dataset);
  EXPECT_EQ(d.drain, h.drain);
  EXPECT_EQ(d.fill, h.fill);
  EXPECT_EQ(d.downtime, h.downtime);
  EXPECT_EQ(drain.simulated->output_times, handover.simulated->output_times);
}

TEST(RemapHandover, WithCrashRepairIsRefusedNamingTheKey)
{
  std::string text = handover_scenario("handover");
  text.replace(text.find("cost: handover"), 14, "cost: handover, on_crash: remap");
  try {
    parse_scenario(text, "handover.yaml");
    ADD_FAILURE() << "handover with on_crash: remap is refused";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("handover.yaml:11"), std::string::npos) << what;
    EXPECT_NE(what.find("key 'dynamic.cost'"), std::string::npos) << what;
    EXPECT_NE(what.find("use cost drain"), std::string::npos) << what;
  }
}

TEST(RemapHandover, WithHostStateProfilesIsRefusedNamingTheKey)
{
  std::string text       = handover_scenario("handover");
  const std::string step = "      - {host: P2, speed: [[100, 0.25]]}";
  text.replace(text.find(step), step.size(), step + "\n      - {host: P3, state: [[500, 0]]}");
  ScenarioRun run = map_scenario(parse_scenario(text, "handover.yaml"));
  try {
    simulate_run(run);
    ADD_FAILURE() << "handover on a platform whose hosts turn off is refused";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("key 'dynamic.cost'"), std::string::npos) << what;
    EXPECT_NE(what.find("state profiles"), std::string::npos) << what;
  }
}

} // namespace

// Repair after crashes (DESIGN.md §3.5, §3.12, `dynamic.on_crash: remap`, issue 34 item 4): a crash detected after d
// re-maps the survivors, end to end from the scenario, against output times worked out by hand.
#include "base/input_error.hpp"
#include "model/event_graph.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace pipesim;

namespace {

// Two stages of 10 flop, messages of 1 byte, b = 10 bytes/s (0.1 s a transfer), no latency, P1 and P2 at 10 flop/s.
// exact.interval maps [1]:P2 [2]:P1 (period 1.2: 0.1 + 1 + 0.1 on each). One-port, no overlap, in the steady state
// from the start (each processor's cycle is exactly 1.2 s and the two are in phase):
//   P2 receives data set k in [1.2k, 1.2k + 0.1], computes in [1.2k + 0.1, 1.2k + 1.1], sends in [1.2k + 1.1, 1.2k
//   + 1.2] P1 receives it then, computes in [1.2k + 1.2, 1.2k + 2.2], sends to P_out in [1.2k + 2.2, 1.2k + 2.3]
// so t_out(k) = 1.2k + 2.3.
std::string crash_repair_scenario(const std::string& crashes, const std::string& dynamic)
{
  return fmt::format(R"(pipeline: {{w: [10, 10], delta: [1, 1, 1]}}
platform:
  processors: [{{name: P1, speed: 10}}, {{name: P2, speed: 10}}]
  bandwidth: 10
  io: {{in: io, out: io}}
mapper: exact.interval
simulation:
  datasets: 100
  seed: 1
  failures: {{model: trace, crashes: [{}]}}
dynamic: {}
)",
                     crashes, dynamic);
}

ScenarioRun crash_repair_run(const std::string& crashes, const std::string& dynamic)
{
  ScenarioRun run = map_scenario(parse_scenario(crash_repair_scenario(crashes, dynamic), "repair.yaml"));
  simulate_run(run);
  return run;
}

TEST(CrashRepair, ACrashOfTheFirstStageLosesTheDataSetItHeldAndTheSurvivorRunsAtItsPeriod)
{
  ScenarioRun run = crash_repair_run("{host: P2, time: 50.05}", "{on_crash: remap, detect: 2}");
  ASSERT_EQ(to_text(run.mapper.mapping, run.platform), "[1]:P2 [2]:P1");
  ASSERT_TRUE(run.crash_run);
  const SimulationResult& sim = *run.crash_run;
  // P2 crashes at 50.05, computing data set 41 (received whole at 1.2 x 41 + 0.1 = 49.3, its send would start at
  // 50.3): 41 is lost with it; 0..40 had left P2 (40 at 49.2) and P1 outputs them, the last at 1.2 x 40 + 2.3 = 50.3.
  // The crash is detected at 50.05 + d = 52.05: every data set P2 delivered has been output, P_in resumes with 42 on
  // the survivor: [1-2]:P1 (no state, no restart), 0.1 + 2 + 0.1 = 2.2 s a data set, t_out(42 + i) = 52.05 + 2.2 (i+1).
  EXPECT_EQ(sim.failures.verdict, Verdict::survived);
  EXPECT_EQ(sim.datasets_lost, 1);
  EXPECT_EQ(sim.crashes_repaired, 1);
  ASSERT_EQ(sim.output_times.size(), 99u);
  for (std::size_t k = 0; k <= 40; ++k)
    EXPECT_NEAR(sim.output_times[k], 1.2 * static_cast<double>(k) + 2.3, 1e-9) << "data set " << k;
  for (std::size_t i = 0; 41 + i < sim.output_times.size(); ++i)
    EXPECT_NEAR(sim.output_times[41 + i], 52.05 + 2.2 * static_cast<double>(i + 1), 1e-9) << "data set " << 42 + i;
  ASSERT_EQ(sim.remaps.size(), 1u);
  const RemapRecord& r = sim.remaps.front();
  EXPECT_NEAR(r.time, 52.05, 1e-9);
  EXPECT_EQ(r.dataset, 42);
  EXPECT_EQ(r.lost, 1);
  EXPECT_EQ(r.reason, "crash of P2 detected at 52.05 s");
  EXPECT_EQ(r.from, "[1]:P2 [2]:P1");
  EXPECT_EQ(r.to, "[1-2]:P1");
  EXPECT_NEAR(r.drain, 0, 1e-9);
  // the period afterwards is the event-graph period of the new mapping (2.2 by hand)
  const double period = max_cycle_ratio(build_oneport_event_graph(run.scenario.pipeline, run.platform,
                                                                  make_interval_mapping({{1, 2}}, {0})))
                            .period;
  EXPECT_NEAR(period, 2.2, 1e-12);
  const auto& t = sim.output_times;
  EXPECT_NEAR((t.back() - t[50]) / static_cast<double>(t.size() - 1 - 50), period, 1e-9);
  ASSERT_EQ(sim.failures.crashes.size(), 1u);
  EXPECT_EQ(sim.failures.crashes.front().host, "P2");
}

TEST(CrashRepair, ADetectionLaterThanTheDrainWaitsForIt)
{
  // The same crash detected after 0: the decision is at 50.05 while P1 still has to output 40 (at 50.3): the segment
  // drains it, then the survivor starts at 50.3: t_out(42 + i) = 50.3 + 2.2 (i + 1).
  ScenarioRun run             = crash_repair_run("{host: P2, time: 50.05}", "{on_crash: remap}");
  const SimulationResult& sim = *run.crash_run;
  EXPECT_EQ(sim.datasets_lost, 1);
  ASSERT_EQ(sim.remaps.size(), 1u);
  EXPECT_NEAR(sim.remaps.front().time, 50.05, 1e-9);
  EXPECT_NEAR(sim.remaps.front().drain, 0.25, 1e-9);
  ASSERT_EQ(sim.output_times.size(), 99u);
  EXPECT_NEAR(sim.output_times[41], 50.3 + 2.2, 1e-9);
  EXPECT_NEAR(sim.output_times.back(), 50.3 + 2.2 * 58, 1e-9);
}

TEST(CrashRepair, NoMappingOnTheSurvivorsFailsTheRun)
{
  // P2 as above, then P1 at 60: [1-2]:P1 output 42, 43, 44 at 54.25, 56.45, 58.65 and computes 45 (received at
  // 58.75) when it crashes. Detected at 62: no processor is left, the run fails then, 41 + 3 data sets delivered.
  ScenarioRun run = crash_repair_run("{host: P2, time: 50.05}, {host: P1, time: 60}", "{on_crash: remap, detect: 2}");
  const SimulationResult& sim = *run.crash_run;
  EXPECT_EQ(sim.failures.verdict, Verdict::failed);
  EXPECT_NEAR(sim.failures.failure_time, 62, 1e-9);
  EXPECT_EQ(sim.failures.delivered, 44);
  EXPECT_EQ(sim.crashes_repaired, 1);
  EXPECT_EQ(sim.remaps.size(), 1u);
  ASSERT_EQ(sim.output_times.size(), 44u);
  EXPECT_NEAR(sim.output_times.back(), 58.65, 1e-9);
}

TEST(CrashRepair, ACrashOfAProcessorTheMappingDoesNotUseChangesNothing)
{
  // a third processor, unused, crashes: no re-map, nothing lost, the outputs of the fault-free run
  std::string yaml = crash_repair_scenario("{host: P3, time: 10}", "{on_crash: remap}");
  yaml.replace(yaml.find("{name: P2, speed: 10}]"), 22, "{name: P2, speed: 10}, {name: P3, speed: 1}]");
  ScenarioRun run = map_scenario(parse_scenario(yaml, "repair.yaml"));
  simulate_run(run);
  const SimulationResult& sim = *run.crash_run;
  EXPECT_EQ(sim.remaps.size(), 0u);
  EXPECT_EQ(sim.datasets_lost, 0);
  ASSERT_EQ(sim.output_times.size(), 100u);
  EXPECT_NEAR(sim.output_times.back(), 1.2 * 99 + 2.3, 1e-9);
}

TEST(CrashRepair, RefusesWhatItDoesNotRepair)
{
  auto message = [](const std::string& yaml) {
    try {
      parse_scenario(yaml, "repair.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string runs = crash_repair_scenario("{host: P2, time: 50.05}", "{on_crash: remap}");
  runs.replace(runs.find("seed: 1"), 7, "seed: 1\n  runs: 5");
  EXPECT_NE(message(runs).find("simulation.runs 1"), std::string::npos) << message(runs);
  std::string without = crash_repair_scenario("{host: P2, time: 50.05}", "{policy: static}");
  EXPECT_NE(message(without).find("unless dynamic.on_crash is remap"), std::string::npos) << message(without);
  EXPECT_NE(message(without).find("repair.yaml:"), std::string::npos) << message(without);
}

} // namespace

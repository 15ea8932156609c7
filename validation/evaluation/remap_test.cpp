// Re-mapping during the run (DESIGN.md §3.12, issue 34 item 3): the policies of
// validation/evaluation/remap_policies.hpp on a step of one processor's speed, end to end from the scenario, against
// periods and costs worked out by hand.
#include "base/input_error.hpp"
#include "model/event_graph.hpp"
#include "platforms/profile.hpp"
#include "validation/evaluation/remap_policies.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include "validation/evaluation/remap_test_scenario.hpp"

#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <limits>
#include <nlohmann/json.hpp>

using namespace pipesim;

namespace {

using test::remap_scenario;

ScenarioRun remap_run(const std::string& dynamic)
{
  ScenarioRun run = map_scenario(parse_scenario(remap_scenario(dynamic), "remap.yaml"));
  simulate_run(run);
  return run;
}

double remap_relative(double a, double b) { return std::abs(a - b) / std::abs(b); }

TEST(Remap, ThresholdOnAStepRemapsOnceAndReachesTheNewMappingsPeriod)
{
  ScenarioRun run = remap_run("{policy: threshold, threshold: 10, windows: 2, window: 5, state: [5, 7], restart: 0.3}");
  ASSERT_TRUE(run.simulated);
  const SimulationResult& sim = *run.simulated;
  ASSERT_EQ(run.mapper.mapping.m(), 2);
  ASSERT_EQ(sim.output_times.size(), 200u);
  ASSERT_EQ(sim.remaps.size(), 1u) << "exactly one re-map for one step";
  const RemapRecord& r = sim.remaps.front();
  EXPECT_EQ(r.from, "[1]:P2 [2]:P1");
  EXPECT_EQ(r.to, "[1-2]:P1");
  EXPECT_GT(r.time, 100);
  // the period of the new mapping at the new speeds, from the event graph of platform_at(t) (2.2 by hand, above)
  Mapping now = make_interval_mapping({{1, 2}}, {0});
  double new_speed =
      max_cycle_ratio(build_oneport_event_graph(run.scenario.pipeline, platform_at(run.platform, r.time), now)).period;
  EXPECT_NEAR(new_speed, 2.2, 1e-12);
  // every window of W = 5 data sets from k* on: the new period within 1e-9 (the new pipeline starts empty, and a
  // one-port chain on one processor outputs at its period from its first output)
  const auto& t = sim.output_times;
  int windows   = 0;
  for (std::size_t first = static_cast<std::size_t>(r.dataset); first + 5 < t.size(); first += 5, ++windows)
    EXPECT_LT(remap_relative((t[first + 5] - t[first]) / 5, new_speed), 1e-9) << "window from data set " << first;
  EXPECT_GT(windows, 10);
  // the costs by hand (DESIGN.md §3.12, drain):
  //   drain    = t_out(k* - 1) - t_decision                (the data sets in flight finish on [1]:P2 [2]:P1)
  //   transfer = S_1 over P2 -> P1 = c + 5 / 10 = 0.5 s    (stage 2 stays on P1: its 7 bytes do not move)
  //   restart  = r = 0.3 s
  //   fill     = k* through the empty [1-2]:P1 = 0.1 + 20 / 10 + 0.1 = 2.2 s
  //   downtime = t_out(k*) - t_decision - 4.2 (the undisturbed period: [1]:P2 [2]:P1 at the new speeds)
  //            = drain + 0.5 + 0.3 + 2.2 - 4.2
  const double drain = t[static_cast<std::size_t>(r.dataset) - 1] - r.time;
  EXPECT_NEAR(r.drain, drain, 1e-9);
  EXPECT_GT(r.drain, 0);
  EXPECT_NEAR(r.transfer, 0.5, 1e-9);
  EXPECT_NEAR(r.restart, 0.3, 1e-9);
  EXPECT_NEAR(r.fill, 2.2, 1e-9);
  EXPECT_NEAR(r.downtime, drain + 0.5 + 0.3 + 2.2 - 4.2, 1e-9);
  EXPECT_NEAR(t[static_cast<std::size_t>(r.dataset)], r.time + drain + 0.5 + 0.3 + 2.2, 1e-9);
  EXPECT_DOUBLE_EQ(r.bytes, 5);
  for (std::size_t k = 1; k < t.size(); ++k)
    ASSERT_LE(t[k - 1], t[k]) << "outputs in order";
}

TEST(Remap, StaticPolicyMeasuresAndNeverRemaps)
{
  ScenarioRun run = remap_run("{policy: static, window: 5}");
  ASSERT_TRUE(run.simulated);
  EXPECT_TRUE(run.simulated->remaps.empty());
  EXPECT_EQ(run.simulated->remap_windows, 39); // windows of 5 closed: outputs 0..199 hold 39 whole ones
  // the static run is the run without controller: after the step, [1]:P2 [2]:P1 at 4.2 s
  const auto& t = run.simulated->output_times;
  EXPECT_NEAR((t[199] - t[189]) / 10, 4.2, 1e-9);
}

TEST(Remap, ClairvoyantRemapsAtTheChangeAtNoCost)
{
  ScenarioRun run = remap_run("{policy: clairvoyant, window: 5, state: [5, 7], restart: 0.3}");
  ASSERT_TRUE(run.simulated);
  ASSERT_EQ(run.simulated->remaps.size(), 1u);
  const RemapRecord& r = run.simulated->remaps.front();
  EXPECT_DOUBLE_EQ(r.time, 100); // the date of the change
  EXPECT_EQ(r.to, "[1-2]:P1");
  EXPECT_EQ(r.transfer, 0);
  EXPECT_EQ(r.restart, 0);
  EXPECT_EQ(r.bytes, 0);
  EXPECT_NEAR(r.fill, 2.2, 1e-9);
}

TEST(Remap, PeriodicRemapsWhenTheMeasuredModelsBestMappingChanges)
{
  ScenarioRun run = remap_run("{policy: periodic, period: 50, window: 5}");
  ASSERT_TRUE(run.simulated);
  // at 50 s the measured model is the nominal one (same mapping: nothing); at 150 s P2 measures 2.5 flop/s
  ASSERT_EQ(run.simulated->remaps.size(), 1u);
  EXPECT_DOUBLE_EQ(run.simulated->remaps.front().time, 150);
  EXPECT_EQ(run.simulated->remaps.front().to, "[1-2]:P1");
  EXPECT_EQ(run.simulated->output_times.size(), 200u);
}

TEST(Remap, BadDynamicKeysNameFileLineKeyAndValue)
{
  auto message = [](const std::string& dynamic) {
    try {
      parse_scenario(remap_scenario(dynamic), "remap.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("{policy: sometimes}").find("remap.yaml:11"), std::string::npos);
  EXPECT_NE(message("{policy: sometimes}").find("sometimes"), std::string::npos);
  EXPECT_NE(message("{policy: periodic}").find("needs 'period'"), std::string::npos);
  EXPECT_NE(message("{policy: threshold, period: 3}").find("'period' applies to policy periodic only"),
            std::string::npos);
  EXPECT_EQ(message("{cost: handover}"), "no error");
  EXPECT_NE(message("{cost: handover, on_crash: remap}").find("use cost drain"), std::string::npos);
  EXPECT_NE(message("{detect: 2}").find("key 'dynamic.detect'"), std::string::npos);
  EXPECT_NE(message("{detect: 2}").find("applies to on_crash: remap only"), std::string::npos);
  EXPECT_NE(message("{on_crash: sometimes}").find("expected none or remap"), std::string::npos);
  EXPECT_NE(message("{on_crash: remap, detect: -1}").find("dynamic.detect"), std::string::npos);
  EXPECT_NE(message("{state: [1, 2, 3]}").find("expected 2 sizes"), std::string::npos);
  EXPECT_NE(message("{restart: -1}").find("dynamic.restart"), std::string::npos);
  EXPECT_NE(message("{policy: registered}").find("or a registered policy"), std::string::npos);
}

/// A registered policy (as a Python one registers itself): re-maps to [1-2]:P1 at its own date, 50 s.
class RegisteredDatePolicy final : public RemapPolicy {
public:
  explicit RegisteredDatePolicy(std::string mapper) : mapper_(std::move(mapper)) {}
  double next_date(double now) const override { return now < 50 ? 50 : std::numeric_limits<double>::infinity(); }
  std::optional<RemapDecision> decide(const RemapView& view) override
  {
    if (view.now != 50) return std::nullopt;
    return RemapDecision{make_interval_mapping({{1, 2}}, {0}), "registered at 50 s (" + mapper_ + ")", true};
  }

private:
  std::string mapper_;
};

TEST(Remap, ARegisteredPolicyIsUsedByNameAndBuiltInNamesAreRefused)
{
  EXPECT_THROW(register_remap_policy("threshold", nullptr), InputError);
  EXPECT_THROW(register_remap_policy("registered", nullptr), InputError);
  EXPECT_THROW(register_remap_policy("", nullptr), InputError);
  try {
    parse_scenario(remap_scenario("{policy: test.at-50}"), "remap.yaml");
    ADD_FAILURE() << "an unregistered name is refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("remap.yaml:11"), std::string::npos) << e.what();
  }
  register_remap_policy("test.at-50", [](const PolicySetup& setup) {
    EXPECT_EQ(setup.mapper, "exact.interval");
    EXPECT_EQ(setup.initial.m(), 2);
    return std::make_shared<RegisteredDatePolicy>(setup.mapper);
  });
  ScenarioRun run = remap_run("{policy: test.at-50, window: 5, check: 1000}");
  ASSERT_TRUE(run.simulated);
  ASSERT_EQ(run.simulated->remaps.size(), 1u);
  const RemapRecord& r = run.simulated->remaps.front();
  EXPECT_DOUBLE_EQ(r.time, 50); // the policy's own date (the checks are 1000 s apart)
  EXPECT_EQ(r.reason, "registered at 50 s (exact.interval)");
  EXPECT_EQ(r.to, "[1-2]:P1");
  EXPECT_EQ(r.bytes, 0); // free
  // before the step [1-2]:P1 runs at 0.1 + 20 / 10 + 0.1 = 2.2 s, and after it too (P1 keeps its speed)
  const auto& t = run.simulated->output_times;
  EXPECT_NEAR((t[199] - t[189]) / 10, 2.2, 1e-9);
  EXPECT_EQ(nlohmann::json(run)["dynamic"]["policy"], "test.at-50");
}

} // namespace

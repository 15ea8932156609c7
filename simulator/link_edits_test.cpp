// What-if edits of an XML platform in the simulator (issue 7): link settings, model speeds, link failures.
#include "base/input_error.hpp"
#include "model/analysis.hpp"
#include "model/analytic.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "simulator/crash_fixtures.hpp"
#include "simulator/simulate.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace pipesim;

namespace {

/// platforms/examples/two_clusters.xml: io (P_in, P_out), a-1..a-4 (1 Gflop/s), b-8..b-11 (2.5 Gflop/s). Routes:
/// io -> a-1: io_link, ca_backbone, ca_link_1_DOWN (b 100 MB/s, c 1.55 ms);
/// a-1 -> b-8: ca_link_1_UP, ca_backbone, backbone, cb_backbone, cb_link_8_DOWN (b 10 MB/s, c 5.67 ms);
/// b-8 -> io: cb_link_8_UP, cb_backbone, io_link (b 100 MB/s, c 1.12 ms).
struct TwoClusters {
  Platform platform =
      load_xml_platform(std::string(PIPESIM_SOURCE_DIR) + "/platforms/examples/two_clusters.xml", "io", "io");
  int a1 = *platform.find("a-1");
  int b8 = *platform.find("b-8");

  /// I_1 = S_1 on a-1, I_2 = S_2 on b-8: the transfer I_1 -> I_2 crosses `backbone`.
  Mapping across() const
  {
    Mapping m;
    m.intervals = {Interval{1, 1, {{a1}}, Replication::active}, Interval{2, 2, {{b8}}, Replication::active}};
    return m;
  }
};

/// Communication-bound on the backbone: per data set 1 MB from a-1 to b-8 (0.1 s at 10 MB/s), small elsewhere.
/// One-port cycle-times (br07 eq. 2): I_1 = 1.65 ms (receive) + 1 ms + B, I_2 = B + 4 ms + 1.22 ms (send), with
/// B = 5.67 ms + 1e6 / b_{a-1,b-8}. b-8 sends to io 4 ms after the backbone transfer, when a-1's receive from io
/// (1.65 ms) is over, so the two never share io_link and the formula is exact.
const Pipeline comm_bound{{1e6, 1e7}, {1e4, 1e6, 1e4}};

SimulationSettings edits_settings(CommModel model, Allocation allocation = Allocation::fair, int datasets = 40)
{
  return fixtures::trace_settings(model, allocation, datasets, {});
}

double relative(double x, double reference) { return std::abs(x - reference) / reference; }

} // namespace

// Issue 16: scale_speed 1e-300 on b-* made the flop count of each computation inf: the run deadlocked at time inf and
// ended in an internal error. 1.1e7 flop x (1e9 / 1e-295) overflows (the run itself would end by 1e304 s): refused.
TEST(ModelSpeeds, EditedSpeedWhoseFlopCountOverflowsIsRefused)
{
  TwoClusters tc;
  Platform edited               = tc.platform;
  edited.processor(tc.a1).speed = 1e-295;
  try {
    simulate({comm_bound, edited, tc.across(), edits_settings(CommModel::one_port)}).run;
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "key 'platform.edits': value 'a-1': simulation: this processor runs at s_u = "
        "1e-295 flop/s on a SimGrid host of speed 1e+09: its 1.1e+07 flops become a count past the largest double");
  }
}

/// The verdict a link failure gives: failed, on `link`, charged to the sending interval `interval`.
void expect_link_failure(const FailureOutcome& f, const std::string& link, int interval, const std::string& what)
{
  EXPECT_EQ(f.verdict, Verdict::failed) << what;
  EXPECT_EQ(f.failed_link, link) << what;
  EXPECT_EQ(f.failed_interval, interval) << what;
}

TEST(LinkEdits, HalvedBackboneBandwidthGivesTheFormulaOfTheHalvedRoute)
{
  TwoClusters tc;
  Mapping mapping = tc.across();
  Platform edited = tc.platform;
  edited.set_link_settings({{"backbone", 5e6, 0.005}});
  // the model as the edit makes it: the route's bandwidth is the smallest of its links, now the backbone's 5 MB/s
  for (auto [u, v] : {std::pair{tc.a1, tc.b8}, std::pair{tc.b8, tc.a1}})
    edited.set_link(u, v, 5e6, tc.platform.latency(u, v));
  double before = analyze_oneport(comm_bound, tc.platform, mapping).period;
  double after  = analyze_oneport(comm_bound, edited, mapping).period;
  EXPECT_NEAR(before, 0.00567 + 0.1 + 0.004 + 0.00122, 1e-12); // I_2's cycle-time
  EXPECT_NEAR(after, 0.00567 + 0.2 + 0.004 + 0.00122, 1e-12);

  auto sim = simulate({comm_bound, edited, mapping, edits_settings(CommModel::one_port)}).run;
  EXPECT_EQ(sim.failures.verdict, Verdict::survived);
  ASSERT_EQ(sim.output_times.size(), 40u);
  EXPECT_LT(relative(sim.period, after), 1e-9) << sim.period << " vs " << after;
  auto unedited = simulate({comm_bound, tc.platform, mapping, edits_settings(CommModel::one_port)}).run;
  EXPECT_LT(relative(unedited.period, before), 1e-9) << unedited.period << " vs " << before;
  EXPECT_GT(sim.period - unedited.period, 0.09);
}

TEST(LinkEdits, LinkLatencySettingIsApplied)
{
  // backbone latency 5 ms -> 25 ms: c_{a-1,b-8} = 25.67 ms, the period grows by 20 ms
  TwoClusters tc;
  Mapping mapping = tc.across();
  Platform edited = tc.platform;
  edited.set_link_settings({{"backbone", 1e7, 0.025}});
  for (auto [u, v] : {std::pair{tc.a1, tc.b8}, std::pair{tc.b8, tc.a1}})
    edited.set_link(u, v, 1e7, tc.platform.latency(u, v) + 0.02);
  double expected = analyze_oneport(comm_bound, edited, mapping).period;
  EXPECT_NEAR(expected, 0.02567 + 0.1 + 0.004 + 0.00122, 1e-12);
  auto sim = simulate({comm_bound, edited, mapping, edits_settings(CommModel::one_port)}).run;
  EXPECT_LT(relative(sim.period, expected), 1e-9) << sim.period << " vs " << expected;
}

TEST(LinkEdits, UnknownLinkIsAnInputErrorNamingIt)
{
  TwoClusters tc;
  Platform edited = tc.platform;
  edited.set_link_failures({{"no-such-link", 1}});
  try {
    simulate({comm_bound, edited, tc.across(), edits_settings(CommModel::one_port)}).run;
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'no-such-link'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("two_clusters.xml"), std::string::npos) << e.what();
  }
}

TEST(ModelSpeeds, HalvedModelSpeedTakesTwiceTheTimeInBothModels)
{
  // compute-bound on a-1: W_1 = 2e8 flop at the model's 0.5 Gflop/s (the host still says 1 Gflop/s) = 0.4 s.
  // One-port cycle-time of I_1: 1.65 ms + 0.4 + (5.67 ms + 1e4 / 1e7) = 0.40832 s; I_2's is 11.89 ms.
  TwoClusters tc;
  Mapping mapping = tc.across();
  Pipeline pipeline{{2e8, 1e7}, {1e4, 1e4, 1e4}};
  Platform edited = tc.platform;
  edited.processor(tc.a1).speed /= 2;
  double expected = analyze_oneport(pipeline, edited, mapping).period;
  EXPECT_NEAR(expected, 0.00165 + 0.4 + 0.00667, 1e-12);
  auto sim = simulate({pipeline, edited, mapping, edits_settings(CommModel::one_port)}).run;
  EXPECT_LT(relative(sim.period, expected), 1e-9) << sim.period << " vs " << expected;
  auto unedited = simulate({pipeline, tc.platform, mapping, edits_settings(CommModel::one_port)}).run;
  EXPECT_NEAR(sim.period - unedited.period, 0.2, 1e-9);

  // multi-port: every computation on a-1 takes exactly W_1 / s = 0.4 s, and the period is a-1's computation
  for (Allocation allocation : {Allocation::fair, Allocation::allotted}) {
    SimulationSettings s = edits_settings(CommModel::multi_port, allocation);
    s.record_trace       = true;
    auto mp              = simulate({pipeline, edited, mapping, s}).run;
    EXPECT_EQ(mp.failures.verdict, Verdict::survived) << allocation;
    int computations = 0;
    for (const auto& e : mp.trace)
      if (e.kind == Operation::compute && e.host == "a-1") {
        ++computations;
        EXPECT_LT(relative(e.end - e.start, 0.4), 1e-9) << allocation << " data set " << e.dataset;
      }
    EXPECT_EQ(computations, 40) << allocation;
    double formula = analyze_multiport(pipeline, edited, mapping).period;
    EXPECT_LT(relative(formula, 0.4), 1e-12) << allocation;
    EXPECT_LT(relative(mp.period, formula), 1e-9) << allocation << ": " << mp.period << " vs " << formula;
  }
}

TEST(LinkFailures, BackboneFailingMidRunFailsTheRunInBothModels)
{
  // the unedited one-port period is 0.11089 s, so 40 data sets take ~4.4 s; the backbone fails at t = 2
  TwoClusters tc;
  Platform edited = tc.platform;
  edited.set_link_failures({{"backbone", 2.0}});
  for (auto [model, allocation] : {std::pair{CommModel::one_port, Allocation::fair},
                                   {CommModel::multi_port, Allocation::fair},
                                   {CommModel::multi_port, Allocation::allotted}}) {
    std::string what = fmt::format("{}/{}", model, allocation);
    auto sim         = simulate({comm_bound, edited, tc.across(), edits_settings(model, allocation)}).run;
    const auto& f    = sim.failures;
    expect_link_failure(f, "backbone", 0, what);
    EXPECT_GE(f.failure_time, 2.0) << what;
    EXPECT_LT(f.failure_time, 2.0 + 0.2) << what; // at most one more transfer starts on the off link
    EXPECT_DOUBLE_EQ(sim.makespan, f.failure_time) << what;
    EXPECT_GT(f.delivered, 5) << what;
    EXPECT_LT(f.delivered, 30) << what;
    EXPECT_EQ(static_cast<std::size_t>(f.delivered), sim.output_times.size()) << what;
    for (double t : sim.output_times)
      EXPECT_LE(t, f.failure_time) << what;
    EXPECT_TRUE(f.crashes.empty()) << what;
  }
}

TEST(LinkFailures, OnePortTransferInProgressFailsWhenTheLinkTurnsOff)
{
  // one-port steady state: the backbone transfer of data set k starts at t_k + 5.22 ms (b-8 free again) and lasts
  // 105.67 ms of every 110.89 ms; the failure at t = 2 falls inside one (the run fails at once) or in the gap
  // before the next start (the run fails when it starts). Either way at most 5.22 ms late.
  TwoClusters tc;
  Platform edited = tc.platform;
  edited.set_link_failures({{"backbone", 2.0}});
  auto sim = simulate({comm_bound, edited, tc.across(), edits_settings(CommModel::one_port)}).run;
  EXPECT_EQ(sim.failures.verdict, Verdict::failed);
  EXPECT_LE(sim.failures.failure_time, 2.0 + 0.00522 + 1e-9);
}

TEST(LinkFailures, UnusedLinkFailureChangesNothing)
{
  // ca_link_3_UP is a-3's private uplink: no route of the mapping crosses it
  TwoClusters tc;
  Platform edited = tc.platform;
  edited.set_link_failures({{"ca_link_3_UP", 1.0}});
  for (CommModel model : {CommModel::one_port, CommModel::multi_port}) {
    auto clean = simulate({comm_bound, tc.platform, tc.across(), edits_settings(model)}).run;
    auto sim   = simulate({comm_bound, edited, tc.across(), edits_settings(model)}).run;
    fixtures::expect_verdict(sim, true, 40, to_string(model));
    EXPECT_EQ(sim.failures.delivered, 40) << model;
    EXPECT_TRUE(sim.failures.failed_link.empty()) << model;
    ASSERT_EQ(sim.output_times.size(), clean.output_times.size()) << model;
    for (std::size_t k = 0; k < sim.output_times.size(); ++k)
      EXPECT_LT(relative(sim.output_times[k], clean.output_times[k]), 1e-9) << model << " data set " << k;
  }
}

TEST(LinkFailures, UsedLinkOffAtTimeZeroFailsTheFirstTransferOnIt)
{
  // backbone off from the start: data set 0 reaches a-1 at 1.65 ms, is computed by 2.65 ms, and its transfer to b-8
  // (posted by b-8 at time 0) fails as it starts
  TwoClusters tc;
  for (double at : {0.0, -1.0})
    for (CommModel model : {CommModel::one_port, CommModel::multi_port}) {
      Platform edited = tc.platform;
      edited.set_link_failures({{"backbone", at}});
      auto sim      = simulate({comm_bound, edited, tc.across(), edits_settings(model)}).run;
      const auto& f = sim.failures;
      expect_link_failure(f, "backbone", 0, to_string(model));
      EXPECT_LT(relative(f.failure_time, 0.00265), 1e-9) << model << ": " << f.failure_time;
      EXPECT_EQ(f.delivered, 0) << model;
    }
}

TEST(LinkFailures, InputLinkOffAtTimeZeroFailsAtTimeZero)
{
  // io_link carries P_in's transfers: the first one fails at time 0; it counts for I_1
  TwoClusters tc;
  Platform edited = tc.platform;
  edited.set_link_failures({{"io_link", 0}});
  for (CommModel model : {CommModel::one_port, CommModel::multi_port}) {
    auto sim      = simulate({comm_bound, edited, tc.across(), edits_settings(model)}).run;
    const auto& f = sim.failures;
    expect_link_failure(f, "io_link", 0, to_string(model));
    EXPECT_EQ(f.failure_time, 0.0) << model;
    EXPECT_EQ(f.delivered, 0) << model;
  }
}

TEST(LinkFailures, OutputLinkFailureNamesTheLastInterval)
{
  // cb_link_8_UP only carries b-8's sends to io (P_out): the failure is I_2's, the sender's interval
  TwoClusters tc;
  Platform edited = tc.platform;
  edited.set_link_failures({{"cb_link_8_UP", 1.0}});
  for (CommModel model : {CommModel::one_port, CommModel::multi_port}) {
    auto sim      = simulate({comm_bound, edited, tc.across(), edits_settings(model)}).run;
    const auto& f = sim.failures;
    expect_link_failure(f, "cb_link_8_UP", 1, to_string(model));
    EXPECT_GE(f.failure_time, 1.0) << model;
    EXPECT_LT(f.failure_time, 1.2) << model;
  }
}

TEST(LinkFailures, FailedLinkRoundTripsThroughTheRunJson)
{
  FailureOutcome o;
  o.verdict         = Verdict::failed;
  o.failure_time    = 2;
  o.failed_interval = 0;
  o.failed_link     = "backbone";
  auto j            = failure_json(o);
  EXPECT_EQ(j.at("failed_link"), "backbone");
  EXPECT_EQ(failure_from_json(j).failed_link, "backbone");
  o.failed_link = "";
  EXPECT_TRUE(failure_json(o).at("failed_link").is_null());
  EXPECT_EQ(failure_from_json(failure_json(o)).failed_link, "");
}

// The max-plus recurrence with drawn times: hand-computed output times, an independent tandem recursion of the
// one-port line under random laws, the event-graph period when every law is deterministic (random mappings of every
// kind), runs in pieces equal to one run, and the precision loop.
#include "model/maxplus.hpp"

#include "model/multiport_event_graph.hpp"
#include "model/test_fixtures.hpp"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <iostream>

using namespace pipesim;
using ::testing::ElementsAre;

namespace {

/// A one-to-one line: stage i on P_i of speed s_i, every link of bandwidth b and latency c.
struct TandemLine {
  Pipeline pipeline;
  Platform platform;
  Mapping mapping;
  TandemLine(std::vector<double> w, std::vector<double> delta, std::vector<double> speeds, double b, double c)
      : pipeline{std::move(w), std::move(delta)}
  {
    std::vector<Processor> procs;
    std::vector<std::pair<int, int>> intervals;
    std::vector<int> alloc;
    for (std::size_t i = 0; i < speeds.size(); ++i) {
      procs.push_back(Processor{"P" + std::to_string(i + 1), speeds[i]});
      intervals.push_back({static_cast<int>(i) + 1, static_cast<int>(i) + 1});
      alloc.push_back(static_cast<int>(i));
    }
    platform = Platform(procs, "in", "out", b, c);
    mapping  = make_interval_mapping(intervals, alloc);
  }
};

/// The one-port line as a tandem of rendezvous, written from DESIGN.md §3.1 and not from the event graph. E_i(k) is
/// the end of the transfer of data set k from stage i to stage i + 1 (i = 0: P_in -> S_1, i = n: S_n -> P_out),
/// C_i(k) the end of S_i's computation of k. S_i receives k, computes, sends k, then receives k + 1; a transfer
/// needs both ends free: S_{i+1} can receive k once it sent k - 1. P_in and P_out are always ready.
///   C_i(k) = E_{i-1}(k) + w_i(k) / s_i
///   E_0(k) = E_1(k-1) + c + delta_0(k) / b
///   E_i(k) = max(C_i(k), E_{i+1}(k-1)) + c + delta_i(k) / b   (0 < i < n;  E_n(k): no E_{n+1})
/// and the output time of k is E_n(k).
std::vector<double> tandem_output_times(const TandemLine& line, const Variability& v, int datasets)
{
  const int n    = line.pipeline.n();
  const double b = line.platform.bandwidth(0, 1), c = line.platform.latency(0, 1);
  std::vector<double> prev(static_cast<std::size_t>(n + 1), 0.0), cur(prev.size()), out;
  for (int k = 0; k < datasets; ++k) {
    auto e_prev = [&](int i) { return k == 0 || i > n ? 0.0 : prev[static_cast<std::size_t>(i)]; };
    cur[0]      = e_prev(1) + c + v.size(0, k) / b;
    for (int i = 1; i <= n; ++i) {
      double computed = cur[static_cast<std::size_t>(i - 1)] + v.work(i, k) / line.platform.speed(i - 1);
      cur[static_cast<std::size_t>(i)] = std::max(computed, e_prev(i + 1)) + c + v.size(i, k) / b;
    }
    out.push_back(cur[static_cast<std::size_t>(n)]);
    prev = cur;
  }
  return out;
}

VariabilitySpec spec_of(UnitLaw work, UnitLaw size)
{
  VariabilitySpec spec;
  spec.work = std::move(work);
  spec.size = std::move(size);
  return spec;
}

} // namespace

TEST(MaxPlus, TwoStageLineByHand)
{
  // w = (2, 3), speeds 1, every delta 1 on links of 1: every transfer takes 1. Data set 0 crosses the empty line:
  // P_in -> S1 [0, 1], S1 computes [1, 3], S1 -> S2 [3, 4], S2 computes [4, 7], S2 -> P_out [7, 8]: t_0 = 8.
  // Data set 1: S1 receives it after sending 0: [4, 5], computes [5, 7]; S2 is free once it delivered 0 at 8:
  // S1 -> S2 [8, 9], computes [9, 12], delivers [12, 13]: t_1 = 13. From then on S2's cycle (1 + 3 + 1) sets the pace:
  // t_2 = 18, t_3 = 23.
  TandemLine line({2, 3}, {1, 1, 1}, {1, 1}, 1, 0);
  Variability means(line.pipeline);
  auto g = build_oneport_event_graph(line.pipeline, line.platform, line.mapping);
  EXPECT_THAT(maxplus_output_times(g, means, 4), ElementsAre(8, 13, 18, 23));
}

TEST(MaxPlus, DrawnTimesOfALineFollowTheTandemRecursion)
{
  // Five stages, random laws on both work and sizes, latencies: every output time equals the independent recursion.
  TandemLine line({3, 1, 4, 1, 5}, {2, 7, 1, 8, 2, 8}, {1.5, 0.5, 2, 1, 3}, 4, 0.25);
  const std::vector<VariabilitySpec> specs{spec_of(UnitLaw::exponential(), UnitLaw::exponential()),
                                           spec_of(UnitLaw::gamma(2), UnitLaw::uniform(0.5)),
                                           spec_of(UnitLaw::lognormal(0.8), UnitLaw())};
  auto g = build_oneport_event_graph(line.pipeline, line.platform, line.mapping);
  for (const auto& spec : specs) {
    Variability v(line.pipeline, spec, 2024);
    auto expected = tandem_output_times(line, v, 500);
    auto got      = maxplus_output_times(g, v, 500);
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t k = 0; k < got.size(); ++k)
      ASSERT_NEAR(got[k], expected[k], 1e-12 * expected[k]) << v.to_string() << ", data set " << k;
  }
}

TEST(MaxPlus, DeterministicLawsGiveTheEventGraphOutputTimesAndPeriod)
{
  // Random mappings of every kind (one-port interval, general, active, deal; multi-port active, deal, buffers 1-3;
  // latencies on every other one): with every law deterministic the recurrence is the schedule of
  // event_graph_output_times, and maxplus_period runs until the state is periodic: the maximum cycle ratio, width 0.
  long long rounds = 0;
  for (std::uint64_t seed = 1; seed <= 300 / fixtures::asan_scale; ++seed) {
    auto c = fixtures::random_graph_case(seed);
    Variability means(c.inst.pipeline);
    auto expected = event_graph_output_times(c.graph, 50);
    auto got      = maxplus_output_times(c.graph, means, 50);
    ASSERT_EQ(got, expected) << c.text;
    MaxPlusOptions options; // a dealt transient can last thousands of rounds (docs/event-graph.md)
    options.datasets     = 100;
    options.max_datasets = 100'000LL * c.graph.datasets_per_round;
    auto period          = maxplus_period(c.graph, means, options);
    auto ratio           = max_cycle_ratio(c.graph);
    ASSERT_TRUE(period.estimate.periodic) << c.text << ": " << period.estimate.reason;
    ASSERT_NEAR(period.estimate.period, ratio.period, 1e-9 * ratio.period) << c.text << ": " << period.estimate.reason;
    EXPECT_EQ(period.estimate.ci_lo, period.estimate.ci_hi);
    rounds = std::max(rounds, period.estimate.warmup / c.graph.datasets_per_round);
  }
  std::cout << "longest transient: " << rounds << " rounds\n";
}

TEST(MaxPlus, RunningInPiecesEqualsOneRun)
{
  auto c               = fixtures::random_graph_case(5); // a one-port deal mapping
  VariabilitySpec spec = spec_of(UnitLaw::gamma(0.7), UnitLaw::exponential());
  Variability v(c.inst.pipeline, spec, 9);
  MaxPlusRun pieces(c.graph, v);
  for (long long n : {1LL, 7LL, 100LL, 1000LL})
    pieces.run_until(n);
  auto whole = maxplus_output_times(c.graph, v, static_cast<long long>(pieces.output_times().size()));
  EXPECT_EQ(pieces.output_times(), whole) << c.text;
}

TEST(MaxPlus, PrecisionRunsUntilTheIntervalIsNarrowEnough)
{
  TandemLine line({1, 1, 1}, {0, 0, 0, 0}, {1, 1, 1}, 1, 0);
  Variability v(line.pipeline, spec_of(UnitLaw::exponential(), UnitLaw()), 3);
  auto g = build_oneport_event_graph(line.pipeline, line.platform, line.mapping);
  MaxPlusOptions o;
  o.datasets  = 1000;
  o.precision = 0.005;
  auto r      = maxplus_period(g, v, o);
  ASSERT_TRUE(r.estimate.ok) << r.estimate.reason;
  EXPECT_LE(r.estimate.relative_half_width(), 0.005);
  EXPECT_GT(r.datasets, 1000);
  EXPECT_EQ(r.output_times.size(), static_cast<std::size_t>(r.datasets));
  // the three-stage blocking line with equal exponential rates has period 39/22 (exponential_period_test.cpp)
  EXPECT_NEAR(r.estimate.period, 39.0 / 22, 4 * r.estimate.half_width());
}

TEST(MaxPlus, CooldownLeavesTheLastOutputsOutOfTheEstimate)
{
  // With a cool-down the estimate is estimate_period over the first N - cooldown(N) output times, and only on a run
  // that drains: N fixed (no precision) or max_datasets reached, as a simulation's (simulator/deployment.cpp).
  TandemLine line({1, 1, 1}, {0, 0, 0, 0}, {1, 1, 1}, 1, 0);
  Variability v(line.pipeline, spec_of(UnitLaw::exponential(), UnitLaw()), 3);
  auto g = build_oneport_event_graph(line.pipeline, line.platform, line.mapping);
  MaxPlusOptions o;
  o.datasets                   = 400;
  o.cooldown                   = [](long long n) { return n / 4; };
  const MaxPlusPeriod r        = maxplus_period(g, v, o);
  const std::vector<double> ts = maxplus_output_times(g, v, 400);
  PeriodEstimateOptions window;
  window.window              = 1;
  const PeriodEstimate first = estimate_period(std::span(ts).first(300), window);
  const PeriodEstimate all   = estimate_period(ts, window);
  ASSERT_TRUE(r.estimate.ok && first.ok) << r.estimate.reason;
  EXPECT_EQ(r.estimate.period, first.period);
  EXPECT_EQ(r.estimate.warmup, first.warmup);
  EXPECT_NE(r.estimate.period, all.period); // the cool-down did change something
  EXPECT_EQ(r.datasets, 400);               // every output time is kept, only the estimate leaves some out
  // a precision run that stops before max_datasets never drains: no cool-down
  o.precision      = 0.5;
  o.max_datasets   = 10'000;
  const auto early = maxplus_period(g, v, o);
  ASSERT_LT(early.datasets, o.max_datasets);
  EXPECT_EQ(early.estimate.period, all.period);
}

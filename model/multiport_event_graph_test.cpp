// Multi-port event graph with allotted bandwidths: bbr10 Algorithm 1 without deal, hand-worked deal cases, the
// allotment under deal, graph sizes, refusals, and the max-plus schedule against the cycle ratio.
#include "model/multiport_event_graph.hpp"

#include "base/input_error.hpp"
#include "model/allotment.hpp"
#include "model/analysis.hpp"
#include "model/analytic.hpp"
#include "model/multiport_analytic.hpp"
#include "model/oneport_plan.hpp"
#include "model/test_fixtures.hpp"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace pipesim;
using fixtures::interval;
using ::testing::HasSubstr;

namespace {

std::string event_graph_message_of(const std::function<void()>& f)
{
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no InputError";
}

} // namespace

TEST(MultiportEventGraph, AllottedEqualsAlgorithm1OnRandomIntervalMappings)
{
  // Without deal the event graph of the allotted execution has the period of bbr10 Algorithm 1 with every
  // processor alive (the largest over transfers of c + allotted time, and of the CPU terms), for any buffer size and
  // any election: buffers and elections change who waits, never the bottleneck.
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    Rng rng(seed);
    auto inst = fixtures::random_multiport_instance(rng, static_cast<int>(rng.integer(1, 6)),
                                                    static_cast<int>(rng.integer(2, 10)), seed % 2 == 0);
    fixtures::random_replicated_mapping(rng, inst);
    Election election; // a random elected sender per interval
    for (const auto& in : inst.mapping.intervals)
      election.sender.push_back(
          in.replicas[static_cast<std::size_t>(rng.integer(0, static_cast<long long>(in.replicas.size()) - 1))]
              .front());
    auto all         = FailureConfiguration::all_alive(inst.platform);
    double algorithm = bbr10_period(inst.pipeline, inst.platform, inst.mapping, all, election);
    int buffer       = static_cast<int>(seed % 3) + 1;
    auto g           = build_multiport_event_graph(inst.pipeline, inst.platform, inst.mapping, buffer, election.sender);
    auto r           = max_cycle_ratio(g);
    ASSERT_FALSE(r.deadlock) << "seed " << seed << ": " << inst.describe();
    ASSERT_NEAR(r.period, algorithm, 1e-12 * algorithm)
        << "seed " << seed << ", buffer " << buffer << ": " << inst.describe() << "\n"
        << r.describe(g);
  }
}

TEST(MultiportEventGraph, OneDealtStageIsTheSlowestReplicaOverR)
{
  // w = 12, delta = (6, 4), b = 6; replicas A (s = 1, Bin = 2), B (s = 2, Bout = 0.5, c_{in,B} = 0.5),
  // C (s = 3, b_{in,C} = 0.4). With overlap a replica's cycle-time is the largest of receive, compute and send:
  //   A: max(6/2, 12/1, 4/6) = 12;  B: max(0.5 + 6/6, 12/2, 4/0.5) = 8;  C: max(6/0.4, 12/3, 4/6) = 15.
  // Period = 15 / 3 = 5.
  Pipeline pl{{12}, {6, 4}};
  Platform pf({Processor{"A", 1, 0, 2}, Processor{"B", 2, 0, unbounded, 0.5}, Processor{"C", 3}}, "in", "out", 6.0,
              0.0);
  pf.set_link(pf.in(), 1, 6, 0.5);
  pf.set_link(pf.in(), 2, 0.4, 0);
  Mapping mp{{interval(1, 1, {0, 1, 2}, Replication::deal)}};
  auto g = build_multiport_event_graph(pl, pf, mp);
  EXPECT_NEAR(max_cycle_ratio(g).period, 5.0, 1e-12);
  // A: receives 0 in [0, 3], computes [3, 15], sends [15, 15 2/3]; receives 3 in [3, 6] (its slot frees when the
  // computation of 0 starts), computes [15, 27], sends [27, 27 2/3]. B: 1 in [0, 1.5], [1.5, 4.5], sends [4.5, 12.5];
  // 4 computed in [4.5, 7.5], sent once 1 is: [12.5, 20.5]. C: 2 in [0, 15], [15, 19], [19, 19 2/3]; 5 in [15, 30],
  // [30, 34], [34, 34 2/3]. In order: 1 waits for 0, 4 for 3.
  auto out = event_graph_output_times(g, 6);
  std::vector<double> hand{15 + 2.0 / 3, 15 + 2.0 / 3, 19 + 2.0 / 3, 27 + 2.0 / 3, 27 + 2.0 / 3, 34 + 2.0 / 3};
  ASSERT_EQ(out.size(), hand.size());
  for (std::size_t k = 0; k < hand.size(); ++k)
    EXPECT_NEAR(out[k], hand[k], 1e-12) << "data set " << k;
}

TEST(MultiportEventGraph, AnalyzeMultiportUsesTheGraphForDeal)
{
  // The example above through analyze_multiport: period 5, latency 15 2/3 (data set 0 alone, on A).
  Pipeline pl{{12}, {6, 4}};
  Platform pf({Processor{"A", 1, 0.1, 2}, Processor{"B", 2, 0.2, unbounded, 0.5}, Processor{"C", 3, 0.3}}, "in", "out",
              6.0, 0.0);
  pf.set_link(pf.in(), 1, 6, 0.5);
  pf.set_link(pf.in(), 2, 0.4, 0);
  Mapping mp{{interval(1, 1, {0, 1, 2}, Replication::deal)}};
  auto s = analyze_multiport(pl, pf, mp);
  EXPECT_EQ(s.formula, "event-graph");
  EXPECT_NEAR(s.period, 5.0, 1e-12);
  EXPECT_NEAR(s.latency, 15 + 2.0 / 3, 1e-12);
  EXPECT_NEAR(s.failure_probability, 1 - 0.9 * 0.8 * 0.7, 1e-15); // any replica's crash fails a dealt interval
  EXPECT_EQ(s.worst_case_period, 0);
}

TEST(MultiportEventGraph, BufferSizeCanChangeTheDealPeriod)
{
  // Without deal the buffers never change the period (Algorithm 1, above). With deal they can: in this seeded
  // instance ([1] dealt over P2, P9, P1, then [2-5] on P8) P8 receives data sets 0, 1, 2 of a round in 21.418, 6.807
  // and 6.337 and computes each in 6.637. Its busiest resource is its input, 34.563 per round: period 11.521 with two
  // buffer slots or more. With one slot, P8 may receive data set 0 of the next round only once it has started
  // computing 2, i.e. once it has computed 1: the receives of 0 and 1 and the computation of 1 chain into
  // 21.418 + 6.807 + 6.637 = 34.862 per round, period 11.621, above every resource's cycle-time (the Algorithmica
  // 2014 phenomenon in the multi-port model). 1 of 293 random deal mappings (seeds 1..500) differs so.
  Rng rng(235);
  auto inst = fixtures::random_multiport_instance(rng, static_cast<int>(rng.integer(2, 5)),
                                                  static_cast<int>(rng.integer(3, 9)), false);
  fixtures::random_deal_mapping(rng, inst);
  ASSERT_EQ(to_text(inst.mapping, inst.platform), "[1]:P2|P9|P1/deal [2-5]:P8");
  auto period = [&](int buffer) {
    return max_cycle_ratio(build_multiport_event_graph(inst.pipeline, inst.platform, inst.mapping, buffer)).period;
  };
  EXPECT_NEAR(period(1), 11.620587497739978, 1e-9);
  EXPECT_NEAR(period(2), 11.520846454613972, 1e-9);
  EXPECT_NEAR(period(5), period(2), 1e-12);
  EXPECT_NEAR(analyze_multiport(inst.pipeline, inst.platform, inst.mapping, 2).period, period(2), 1e-12);
}

TEST(MultiportEventGraph, DealGivesTheWholeCardToEachTransfer)
{
  // P (Bout = 10) sends delta_1 = 20 to the two replicas of I_2. Actively replicated, both copies of a data set share
  // the card: 40 / 10 = 4 each (Algorithm 1's out-card term). Dealt, a data set goes to one replica only, and P sends
  // one data set at a time: 20 / 10 = 2. w = (1, 8), speeds 10, b = 100: I_2's replicas compute 0.8 per data set, so
  // the card is the bottleneck: period 4 (active), 2 (deal).
  Pipeline pl{{1, 8}, {1, 20, 1}};
  Platform pf({Processor{"P", 10, 0, unbounded, 10}, Processor{"Q0", 10}, Processor{"Q1", 10}}, "in", "out", 100.0,
              0.0);
  for (auto replication : {Replication::active, Replication::deal}) {
    Mapping mp{{interval(1, 1, {0}, Replication::active), interval(2, 2, {1, 2}, replication)}};
    auto plan       = plan_oneport(pl, mp, pf.in(), pf.out());
    auto times      = allotted_transfer_times(plan, pf);
    double expected = replication == Replication::deal ? 2.0 : 4.0;
    for (std::size_t t = 0; t < plan.transfers.size(); ++t)
      if (plan.transfers[t].from == 0) {
        EXPECT_NEAR(times[t], expected, 1e-12) << to_string(replication);
      }
    EXPECT_NEAR(max_cycle_ratio(build_multiport_event_graph(pl, pf, mp)).period, expected, 1e-12);
  }
}

TEST(MultiportEventGraph, SizeAsTheHeaderStates)
{
  // L = 6; P = (2, 1, 1, 1) replicas processing a data set, sum P = 5, m = 4.
  // transitions = L (3 sum P + m + 1) = 6 x 20 = 120;
  // places = L (5 sum P + 2m + 2 (sum_{j>=2} P_j + 1) + P_1^2) = 6 x (25 + 8 + 8 + 4) = 270.
  Rng rng(3);
  auto inst    = fixtures::random_multiport_instance(rng, 4, 8, true);
  inst.mapping = Mapping{{interval(1, 1, {0, 1}, Replication::active), interval(2, 2, {2, 3, 4}, Replication::deal),
                          interval(3, 3, {5, 6}, Replication::deal), interval(4, 4, {7}, Replication::active)}};
  auto g       = build_multiport_event_graph(inst.pipeline, inst.platform, inst.mapping);
  EXPECT_EQ(g.transitions.size(), 120u);
  EXPECT_EQ(g.places.size(), 270u);
}

TEST(MultiportEventGraph, RefusesWhatItDoesNotModel)
{
  fixtures::Eq6Example ex; // S1 and S3 on P1: two intervals share a CPU
  EXPECT_THAT(event_graph_message_of([&] { build_multiport_event_graph(ex.pipeline, ex.platform, ex.mapping); }),
              HasSubstr("key 'mapping[2]': value 'P1': multi-port event graph: this processor also holds mapping[0]"));
  Mapping one = make_interval_mapping({{1, 3}}, {0});
  EXPECT_THAT(event_graph_message_of([&] { build_multiport_event_graph(ex.pipeline, ex.platform, one, 0); }),
              HasSubstr("key 'simulation.buffer': value '0': expected at least one data set"));
}

TEST(MultiportEventGraph, ScheduleAgreesWithTheCycleRatioOnRandomDealMappings)
{
  // As the one-port test: 3,000 rounds of the max-plus schedule, whole windows of L data sets after 2,000.
  for (std::uint64_t seed = 1; seed <= 150 / fixtures::asan_scale; ++seed) {
    Rng rng(seed);
    auto inst = fixtures::random_multiport_instance(rng, static_cast<int>(rng.integer(1, 5)),
                                                    static_cast<int>(rng.integer(2, 9)), seed % 2 == 0);
    fixtures::random_deal_mapping(rng, inst);
    auto g = build_multiport_event_graph(inst.pipeline, inst.platform, inst.mapping, static_cast<int>(seed % 2) + 1);
    auto r = max_cycle_ratio(g);
    ASSERT_FALSE(r.deadlock) << "seed " << seed << ": " << inst.describe();
    const int rounds = 3000;
    const int n      = rounds * g.datasets_per_round;
    const int k      = 2000 * g.datasets_per_round;
    auto out         = event_graph_output_times(g, n);
    double measured  = (out[static_cast<std::size_t>(n - 1)] - out[static_cast<std::size_t>(k - 1)]) / (n - k);
    ASSERT_NEAR(measured, r.period, 1e-9 * r.period) << "seed " << seed << ": " << inst.describe();
  }
}

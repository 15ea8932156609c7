// Deal replication in the simulator (DESIGN.md §3.7): hand-worked instances in both models, the output times of the
// event graphs (model/event_graph.hpp, model/multiport_event_graph.hpp), `fair` against `allotted`, and crashes.
#include "model/deal.hpp"
#include "model/event_graph.hpp"
#include "model/multiport_event_graph.hpp"
#include "model/test_fixtures.hpp"
#include "simulator/crash_fixtures.hpp"
#include "simulator/simulate.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace pipesim;
using fixtures::interval;
using ::testing::HasSubstr;

namespace {

SimulationSettings settings(CommModel model, int datasets)
{
  SimulationSettings s;
  s.model      = model;
  s.allocation = Allocation::allotted;
  s.datasets   = datasets;
  return s;
}

void expect_times(const std::vector<double>& sim, const std::vector<double>& expected, const std::string& what)
{
  ASSERT_EQ(sim.size(), expected.size()) << what;
  for (std::size_t k = 0; k < expected.size(); ++k)
    ASSERT_NEAR(sim[k], expected[k], 1e-9 * std::max(1.0, expected[k])) << what << ", data set " << k;
}

/// One-port: the simulation has the event graph's output times and its period, over whole rounds of L.
void expect_oneport_graph(const Pipeline& pl, const Platform& pf, const Mapping& mp, double period, int datasets)
{
  auto graph = build_oneport_event_graph(pl, pf, mp);
  ASSERT_NEAR(max_cycle_ratio(graph).period, period, 1e-12);
  auto sim = simulate({pl, pf, mp, settings(CommModel::one_port, datasets)}).run;
  expect_times(sim.output_times, event_graph_output_times(graph, datasets), to_text(mp, pf));
  EXPECT_NEAR(sim.period, period, 1e-9 * period) << to_text(mp, pf);
}

/// hedpm eq. (1)'s case, the one-port event graph's hand example (model/event_graph_deal_test.cpp): w = 12,
/// delta = (6, 4); A (s = 1, b_in = 6, b_out = 4), B (s = 2, 2, 1), C (s = 3, 1, 0.5).
struct OneDealtStage {
  Pipeline pl{{12}, {6, 4}};
  Platform pf{{{"A", 1}, {"B", 2}, {"C", 3}}, "in", "out", 1.0, 0.0};
  Mapping mp{{interval(1, 1, {0, 1, 2}, Replication::deal)}};
  OneDealtStage()
  {
    for (auto [u, b_in, b_out] : {std::tuple{0, 6.0, 4.0}, {1, 2.0, 1.0}, {2, 1.0, 0.5}}) {
      pf.set_link(pf.in(), u, b_in, 0);
      pf.set_link(u, pf.out(), b_out, 0);
    }
  }
};

} // namespace

TEST(DealSimulation, OneDealtStageIsTheSlowestReplicaOverR)
{
  // Each replica runs alone (P_in feeds it as fast as it takes its data sets, P_out takes every delivery): receive +
  // compute + send = A 1 + 12 + 1 = 14, B 3 + 6 + 4 = 13, C 6 + 4 + 8 = 18. Period max / R = 18 / 3 = 6. Arrivals:
  // A's data sets 0, 3, 6 at 14, 28, 42; B's 1, 4, 7 at 13, 26, 39; C's 2, 5, 8 at 18, 36, 54; in order: 1 waits for
  // 0, 4 for 3, 7 for 6.
  OneDealtStage ex;
  auto sim = simulate({ex.pl, ex.pf, ex.mp, settings(CommModel::one_port, 9)}).run;
  expect_times(sim.output_times, {14, 14, 18, 28, 28, 36, 42, 42, 54}, "one dealt stage");
  double slowest = 0;
  for (int u = 0; u < 3; ++u)
    slowest = std::max(slowest, ex.pf.transfer_time(ex.pf.in(), u, 6) + 12 / ex.pf.speed(u) +
                                    ex.pf.transfer_time(u, ex.pf.out(), 4));
  EXPECT_DOUBLE_EQ(slowest, 18);
  EXPECT_NEAR(simulate({ex.pl, ex.pf, ex.mp, settings(CommModel::one_port, 300)}).run.period, slowest / 3, 1e-9 * 6);
  EXPECT_NEAR(simulate({ex.pl, ex.pf, ex.mp, settings(CommModel::one_port, 1), RunKind::latency}).latency(), 14, 1e-9);
}

TEST(DealSimulation, OnePortHandInstancesOfTheEventGraph)
{
  // The hand-worked instances of model/event_graph_deal_test.cpp, simulated.
  // Dealt neighbours (I_1 over A0, A1; I_2 over B0, B1, B2; L = 6): period 10 / 6 (the B's cycle).
  Pipeline two_three{{1, 4}, {0, 1, 0}};
  Platform five({{"A0", 1}, {"A1", 1}, {"B0", 1}, {"B1", 1}, {"B2", 1}}, "in", "out", 1.0, 0.0);
  expect_oneport_graph(
      two_three, five,
      Mapping{{interval(1, 1, {0, 1}, Replication::deal), interval(2, 2, {2, 3, 4}, Replication::deal)}}, 5.0 / 3, 60);
  // Gathering (S_1, S_2 on each replica of a dealt interval over A (s = 1), B (s = 2)): max(7, 4.5) / 2 = 3.5; the
  // same as two dealt intervals on the same replicas (a general mapping, local inputs); crossed replicas chain both
  // processors: 13.5 per round, 6.75.
  Pipeline pl{{2, 3}, {1, 1, 1}};
  Platform pf({{"A", 1}, {"B", 2}}, "in", "out", 1.0, 0.0);
  expect_oneport_graph(pl, pf, Mapping{{interval(1, 2, {0, 1}, Replication::deal)}}, 3.5, 40);
  expect_oneport_graph(
      pl, pf, Mapping{{interval(1, 1, {0, 1}, Replication::deal), interval(2, 2, {0, 1}, Replication::deal)}}, 3.5, 40);
  expect_oneport_graph(pl, pf,
                       Mapping{{interval(1, 1, {0, 1}, Replication::deal), interval(2, 2, {1, 0}, Replication::deal)}},
                       6.75, 40);
}

TEST(DealSimulation, PeriodAboveTheLargestResourceCycleTime)
{
  // Benoit, Gallet, Gaujal, Robert (Algorithmica 2014), the one-port instance of model/event_graph_deal_test.cpp:
  // I_1 dealt over A0, A1, then B, then C; A0->B takes 4, A1->B 1, B computes 1, B->C 1, C computes 1, delivers in 2.
  // Every resource needs at most 4.5 per data set, but each round chains 4 + 1 + 1 + 1 + 2 + 1 = 10: period 5.
  // Outputs 9, 13, then every 10 s.
  Pipeline pl{{0, 1, 1}, {0, 1, 1, 2}};
  Platform pf({{"A0", 1}, {"A1", 1}, {"B", 1}, {"C", 1}}, "in", "out", 1.0, 0.0);
  pf.set_link(0, 2, 0.25, 0);
  Mapping mp{{interval(1, 1, {0, 1}, Replication::deal), interval(2, 2, {2}, Replication::active),
              interval(3, 3, {3}, Replication::active)}};
  auto sim = simulate({pl, pf, mp, settings(CommModel::one_port, 6)}).run;
  expect_times(sim.output_times, {9, 13, 19, 23, 29, 33}, "Algorithmica 2014 instance");
  expect_oneport_graph(pl, pf, mp, 5.0, 40);
}

TEST(DealSimulation, MultiPortOneDealtStage)
{
  // model/multiport_event_graph_test.cpp's hand example: with overlap a replica's cycle-time is the largest of
  // receive, compute and send: A max(6/2, 12, 4/6) = 12, B max(0.5 + 1, 6, 8) = 8, C max(15, 4, 2/3) = 15; period
  // 15 / 3 = 5. Outputs 15 2/3, 15 2/3, 19 2/3, 27 2/3, 27 2/3, 34 2/3 (hand schedule in that test). Without
  // concurrent transfers on any card or link, `fair` gives every transfer its whole path: the same times.
  Pipeline pl{{12}, {6, 4}};
  Platform pf({Processor{"A", 1, 0, 2}, Processor{"B", 2, 0, unbounded, 0.5}, Processor{"C", 3}}, "in", "out", 6.0,
              0.0);
  pf.set_link(pf.in(), 1, 6, 0.5);
  pf.set_link(pf.in(), 2, 0.4, 0);
  Mapping mp{{interval(1, 1, {0, 1, 2}, Replication::deal)}};
  std::vector<double> hand{15 + 2.0 / 3, 15 + 2.0 / 3, 19 + 2.0 / 3, 27 + 2.0 / 3, 27 + 2.0 / 3, 34 + 2.0 / 3};
  for (Allocation allocation : {Allocation::allotted, Allocation::fair}) {
    SimulationSettings s = settings(CommModel::multi_port, 6);
    s.allocation         = allocation;
    expect_times(simulate({pl, pf, mp, s}).run.output_times, hand, to_string(allocation));
    s.datasets = 300;
    EXPECT_NEAR(simulate({pl, pf, mp, s}).run.period, 5.0, 5e-9) << allocation;
  }
}

TEST(DealSimulation, MultiPortDealGivesTheWholeCardToEachTransfer)
{
  // P (Bout = 10) sends delta_1 = 20 to I_2 = {Q0, Q1}; w = (1, 8), speeds 10, b = 100. Active: both copies of a data
  // set share the card, 40 / 10 = 4 per data set, with `allotted` (each capped at 20 / 4) and with `fair` (max-min
  // halves the card). Dealt: one copy per data set, P sends one data set at a time, 20 / 10 = 2 in both allocations.
  Pipeline pl{{1, 8}, {1, 20, 1}};
  Platform pf({Processor{"P", 10, 0, unbounded, 10}, Processor{"Q0", 10}, Processor{"Q1", 10}}, "in", "out", 100.0,
              0.0);
  for (auto replication : {Replication::active, Replication::deal})
    for (Allocation allocation : {Allocation::allotted, Allocation::fair}) {
      Mapping mp{{interval(1, 1, {0}, Replication::active), interval(2, 2, {1, 2}, replication)}};
      SimulationSettings s = settings(CommModel::multi_port, 200);
      s.allocation         = allocation;
      double expected      = replication == Replication::deal ? 2.0 : 4.0;
      EXPECT_NEAR(simulate({pl, pf, mp, s}).run.period, expected, 1e-9 * expected)
          << to_string(replication) << ", " << allocation;
    }
}

TEST(DealSimulation, MultiPortBufferSizeChangesTheDealPeriod)
{
  // model/multiport_event_graph_test.cpp's seeded instance: [1] dealt over P2, P9, P1, then [2-5] on P8. With one
  // buffer slot P8 chains two receives and a computation per round (period 11.621, above every resource's
  // cycle-time); with two, its input bounds it (11.521). The simulation has the graph's output times and period.
  Rng rng(235);
  auto inst = fixtures::random_multiport_instance(rng, static_cast<int>(rng.integer(2, 5)),
                                                  static_cast<int>(rng.integer(3, 9)), false);
  fixtures::random_deal_mapping(rng, inst);
  ASSERT_EQ(to_text(inst.mapping, inst.platform), "[1]:P2|P9|P1/deal [2-5]:P8");
  for (auto [buffer, period] : {std::pair{1, 11.620587497739978}, {2, 11.520846454613972}}) {
    SimulationSettings s = settings(CommModel::multi_port, 60);
    s.buffer             = buffer;
    auto graph           = build_multiport_event_graph(inst.pipeline, inst.platform, inst.mapping, buffer);
    auto sim             = simulate({inst.pipeline, inst.platform, inst.mapping, s}).run;
    expect_times(sim.output_times, event_graph_output_times(graph, 60), "buffer " + std::to_string(buffer));
    EXPECT_NEAR(sim.period, period, 1e-9 * period) << "buffer " << buffer;
  }
}

TEST(DealSimulation, CrashOfADealtReplicaFailsTheRun)
{
  // I_1 on P1, I_2 dealt over P2, P3, I_3 on P4: P3 crashes at 10.5 with data sets left; a dealt interval has no
  // redundancy, so the run fails there, naming I_2 (index 1), in both models.
  Pipeline pl{{1, 2, 1}, {1, 1, 1, 1}};
  Platform pf({{"P1", 1}, {"P2", 1}, {"P3", 1}, {"P4", 1}}, "in", "out", 1.0, 0.0);
  Mapping mp{{interval(1, 1, {0}, Replication::active), interval(2, 2, {1, 2}, Replication::deal),
              interval(3, 3, {3}, Replication::active)}};
  for (CommModel model : {CommModel::one_port, CommModel::multi_port}) {
    auto sim = simulate({pl, pf, mp, fixtures::trace_settings(model, Allocation::allotted, 40, {{"P3", 10.5}})}).run;
    const auto& f = sim.failures;
    EXPECT_EQ(f.verdict, Verdict::failed) << model;
    EXPECT_EQ(f.failed_interval, 1) << model;
    EXPECT_DOUBLE_EQ(f.failure_time, 10.5) << model;
    EXPECT_LT(f.delivered, 40) << model;
    EXPECT_TRUE(fixtures::strictly_increasing(sim.output_times)) << model;
    nlohmann::json j = failure_json(f);
    EXPECT_EQ(j["failed_interval"], 2) << model; // numbered from 1 in the outputs
    EXPECT_EQ(j["failure_time"], 10.5) << model;
  }
}

TEST(DealSimulation, CrashOfAReplicaThatDeliveredEverythingIsHarmless)
{
  // One stage dealt over A (s = 4) and B (s = 1), everything else 1 s, one-port: A takes 1 + 0.25 + 1 = 2.25 per
  // data set, B 3. With N = 8, A delivers its data sets 0, 2, 4, 6 at 2.25, 4.5, 6.75, 9 and B its 1, 3, 5, 7 at 3,
  // 6, 9, 12. A crash of A at 10 loses nothing: the run survives with the fault-free output times. A crash of A at 8
  // fails the run (I_1).
  Pipeline pl{{1}, {1, 1}};
  Platform pf({{"A", 4}, {"B", 1}}, "in", "out", 1.0, 0.0);
  Mapping mp{{interval(1, 1, {0, 1}, Replication::deal)}};
  auto fault_free = simulate({pl, pf, mp, settings(CommModel::one_port, 8)}).run;
  expect_times(fault_free.output_times, {2.25, 3, 4.5, 6, 6.75, 9, 9, 12}, "fault-free");
  auto late =
      simulate({pl, pf, mp, fixtures::trace_settings(CommModel::one_port, Allocation::fair, 8, {{"A", 10}})}).run;
  EXPECT_EQ(late.failures.verdict, Verdict::survived);
  expect_times(late.output_times, fault_free.output_times, "crash at 10");
  auto early =
      simulate({pl, pf, mp, fixtures::trace_settings(CommModel::one_port, Allocation::fair, 8, {{"A", 8}})}).run;
  EXPECT_EQ(early.failures.verdict, Verdict::failed);
  EXPECT_EQ(early.failures.failed_interval, 0);
  EXPECT_DOUBLE_EQ(early.failures.failure_time, 8);
}

TEST(DealSimulation, ActiveIntervalBeforeADealtOneReElects)
{
  // I_1 active on P1, P2 (P1 elected), I_2 dealt over P3, P4. P1's crash at 20 elects P2, which sends each data set
  // to its dealt receiver: the run survives with N outputs in order, and the period after the crash is the event graph
  // of the survivors (one-port).
  Pipeline pl{{2, 3}, {1, 1, 1}};
  Platform pf({{"P1", 1}, {"P2", 2}, {"P3", 1}, {"P4", 1}}, "in", "out", 1.0, 0.0);
  Mapping mp{{interval(1, 1, {0, 1}, Replication::active), interval(2, 2, {2, 3}, Replication::deal)}};
  Mapping survivors{{interval(1, 1, {1}, Replication::active), interval(2, 2, {2, 3}, Replication::deal)}};
  for (CommModel model : {CommModel::one_port, CommModel::multi_port}) {
    auto sim = simulate({pl, pf, mp, fixtures::trace_settings(model, Allocation::allotted, 80, {{"P1", 20}})}).run;
    fixtures::expect_verdict(sim, true, 80, to_string(model));
    EXPECT_EQ(sim.failures.elections, 1) << model;
    double after = model == CommModel::one_port
                       ? max_cycle_ratio(build_oneport_event_graph(pl, pf, survivors)).period
                       : max_cycle_ratio(build_multiport_event_graph(pl, pf, survivors)).period;
    EXPECT_NEAR(sim.failures.period_after, after, 1e-9 * after) << model;
  }
}

TEST(DealSimulation, MultiPortRefusesMixedLocalInputs)
{
  // P1 holds I_1 (replica 0 of 2) and I_2 (replica 1 of 2): it computes data set 0 of I_1 and must receive data set 1
  // of I_2 from P2, which the stations' single input buffer cannot order; the one-port model runs it.
  Pipeline pl{{1, 1}, {1, 1, 1}};
  Platform pf({{"P1", 1}, {"P2", 1}}, "in", "out", 1.0, 0.0);
  Mapping mp{{interval(1, 1, {0, 1}, Replication::deal), interval(2, 2, {1, 0}, Replication::deal)}};
  try {
    simulate({pl, pf, mp, settings(CommModel::multi_port, 10)}).run;
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_THAT(e.what(), HasSubstr("computes different data sets"));
  }
}

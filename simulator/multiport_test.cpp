// Multi-port simulation (no failures) against hand-computed cycle-times.
#include "model/mapping.hpp"
#include "simulator/run.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

namespace {
SimulationSettings multiport(const std::string& allocation, int datasets = 60)
{
  SimulationSettings s;
  s.model      = "multi-port";
  s.allocation = allocation;
  s.datasets   = datasets;
  return s;
}

/// w = [10, 20], delta = [10, 20, 10], b = 10; I_1 on {P1, P2}, I_2 on {P3, P4}; speeds 10, 5, 10, 10; Bout_P1 = 15.
/// P1 (elected) sends 20 bytes to P3 and P4 at once: links 20/10 = 2 each, its card 40/15 = 8/3: the sends take 8/3.
/// Cycle-times (max of receive, compute, send with overlap): P1 max(1, 1, 8/3); P2 max(1, 2); P3 max(8/3, 2, 1);
/// P4 max(8/3, 2). Period 8/3.
struct Example {
  Pipeline pipeline{{10, 20}, {10, 20, 10}};
  Platform platform;
  Mapping mapping;
  Example()
  {
    platform = Platform({{"P1", 10.0}, {"P2", 5.0}, {"P3", 10.0}, {"P4", 10.0}}, "in", "out", 10.0);
    platform.processor(0).nic_out = 15;
    mapping.intervals             = {Interval{1, 1, {{0}, {1}}, Replication::active},
                                     Interval{2, 2, {{2}, {3}}, Replication::active}};
  }
};
} // namespace

TEST(MultiPortSimulation, AllottedReachesTheCycleTime)
{
  Example ex;
  auto sim = simulate(ex.pipeline, ex.platform, ex.mapping, multiport("allotted"));
  EXPECT_NEAR(sim.period, 8.0 / 3, 1e-6);
}

TEST(MultiPortSimulation, FairSharesTheCardEqually)
{
  // Max-min gives each of the two sends 7.5 of the card: 20 / 7.5 = 8/3 as well.
  Example ex;
  auto sim = simulate(ex.pipeline, ex.platform, ex.mapping, multiport("fair"));
  EXPECT_NEAR(sim.period, 8.0 / 3, 1e-6);
}

TEST(MultiPortSimulation, OverlapBeatsOnePort)
{
  // One-port pays receive + compute + sends in sequence: P1 1 + 1 + 2 + 2 = 6 (its card is a multi-port notion).
  Example ex;
  SimulationSettings one;
  one.datasets = 60;
  EXPECT_NEAR(simulate(ex.pipeline, ex.platform, ex.mapping, one).period, 6.0, 6e-9);
}

TEST(MultiPortSimulation, GeneralMappingSharesTheCpu)
{
  // S1 and S3 on P1, S2 on P2 (seed 000 eq. (6)'s shape), b = 10 everywhere, no card limits, w = [10, 10, 10],
  // delta = 10: P1 computes 20 flop per data set at speed 10: 2; P2 1; transfers 1 each. Period 2.
  Pipeline pl{{10, 10, 10}, {10, 10, 10, 10}};
  Platform pf({{"P1", 10.0}, {"P2", 10.0}}, "in", "out", 10.0);
  Mapping mp = make_interval_mapping({{1, 1}, {2, 2}, {3, 3}}, {0, 1, 0});
  EXPECT_NEAR(simulate(pl, pf, mp, multiport("allotted")).period, 2.0, 1e-6);
  EXPECT_NEAR(simulate(pl, pf, mp, multiport("fair")).period, 2.0, 1e-6);
}

TEST(MultiPortSimulation, CooldownLeavesOutTheFastTail)
{
  // Without a cool-down, S3 gets P1's whole CPU once S1 has no data set left: the last outputs come every second
  // and the period over [N/2, N] comes out below the CPU bound of 2 (measured 1.8667 with N = 60).
  Pipeline pl{{10, 10, 10}, {10, 10, 10, 10}};
  Platform pf({{"P1", 10.0}, {"P2", 10.0}}, "in", "out", 10.0);
  Mapping mp           = make_interval_mapping({{1, 1}, {2, 2}, {3, 3}}, {0, 1, 0});
  SimulationSettings s = multiport("allotted");
  s.cooldown           = 0;
  EXPECT_LT(simulate(pl, pf, mp, s).period, 1.9);
  EXPECT_EQ(multiport("fair").effective_cooldown(), 15);
}

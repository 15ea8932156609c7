// MinNbProcs (bbr10 Algorithm 5) on hand-checked instances.
#include "model/bbr10/min_comm.hpp"
#include "model/bbr10/min_nb_procs.hpp"
#include "model/test_fixtures.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

TEST(Bbr10MinNbProcs, FewestSurvivorsFirst)
{
  // fixtures::ElectionExample: I_2 (one survivor) first: P3. I_1 and I_3 (two each) tie on delta |R| = 10: index
  // order, then as MinComm: P1 for I_1 (0.5 < 0.667), P2 for I_3 (0.667 < 1). Period 2/3.
  fixtures::ElectionExample ex;
  auto all = FailureConfiguration::all_alive(ex.platform);
  auto e   = bbr10_min_nb_procs_election(ex.pipeline, ex.platform, ex.mapping, all);
  EXPECT_EQ(e.sender, (std::vector<int>{0, 2, 1}));
  EXPECT_DOUBLE_EQ(bbr10_period(ex.pipeline, ex.platform, ex.mapping, all, e), 2.0 / 3);
}

TEST(Bbr10MinNbProcs, FewestSurvivorsFirstCanLoseToMinComm)
{
  // I_1 = [1] on {P1, P2, P3}, I_2 = [2] on {P4}, I_3 = [3] on {P1, P2} (overlapping sets, allowed by bbr10's
  // footnote 2); w = 1, speeds 100; delta = (1, 10, 1, 5); b = 100 except b_{P1,P4} = b_{P2,P4} = b_{P3,P4} = 40;
  // Bout_1 = 20, Bout_2 = 10, Bout_3 = 4. Receivers: I_1 -> {P4} (10), I_2 -> {P1, P2} (1), I_3 -> {P_out} (5).
  // MinComm: I_2 forced (P4); transfer times I_1 10/40 = 0.25 > I_3 5/100: I_1 first. I_1: P1 max(10/20, 0.25) =
  //   0.5, P2 1, P3 2.5 -> P1. I_3: P1 (10 + 5)/20 = 0.75, P2 5/10 = 0.5 -> P2. Period 0.5 (the optimum).
  // MinNbProcs: I_2 (1 survivor), I_3 (2), I_1 (3). I_3: P1 5/20 = 0.25, P2 0.5 -> P1. I_1: P1 15/20 = 0.75,
  //   P2 10/10 = 1, P3 10/4 = 2.5 -> P1. Period 0.75.
  Pipeline pl{{1, 1, 1}, {1, 10, 1, 5}};
  Platform pf({Processor{"P1", 100, 0.1, unbounded, 20}, Processor{"P2", 100, 0.1, unbounded, 10},
               Processor{"P3", 100, 0.1, unbounded, 4}, Processor{"P4", 100, 0.1}},
              "in", "out", 100, 0);
  for (int u : {0, 1, 2})
    pf.set_link(u, 3, 40, 0);
  Mapping mp{{Interval{1, 1, {{0}, {1}, {2}}, Replication::active}, Interval{2, 2, {{3}}, Replication::active},
              Interval{3, 3, {{0}, {1}}, Replication::active}}};
  auto all = FailureConfiguration::all_alive(pf);
  auto e   = bbr10_min_nb_procs_election(pl, pf, mp, all);
  EXPECT_EQ(e.sender, (std::vector<int>{0, 3, 0}));
  EXPECT_DOUBLE_EQ(bbr10_period(pl, pf, mp, all, e), 0.75);
  auto c = bbr10_min_comm_election(pl, pf, mp, all);
  EXPECT_EQ(c.sender, (std::vector<int>{0, 3, 1}));
  EXPECT_DOUBLE_EQ(bbr10_period(pl, pf, mp, all, c), 0.5);
}

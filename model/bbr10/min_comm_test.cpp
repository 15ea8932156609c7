// MinComm (bbr10 Algorithm 4) on hand-checked instances.
#include "model/bbr10/min_comm.hpp"
#include "model/test_fixtures.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

TEST(Bbr10MinComm, SplitsTheOutputsOverTheCards)
{
  // fixtures::ElectionExample. Step 1: I_2 has one replica, P3 (sends delta_2 = 1 to P1 and P2: 2/inf, 1/100).
  // Step 3: I_1 and I_3 both cost 10/100 on their slowest link: index order. I_1: P1 max(10/20, 0.1) = 0.5,
  // P2 10/15 = 0.667 -> P1. I_3: P1 (10 + 10)/20 = 1, P2 10/15 -> P2. Period max(0.5, 2/3, compute 0.02) = 2/3.
  fixtures::ElectionExample ex;
  auto all = FailureConfiguration::all_alive(ex.platform);
  auto e   = bbr10_min_comm_election(ex.pipeline, ex.platform, ex.mapping, all);
  EXPECT_EQ(e.sender, (std::vector<int>{0, 2, 1}));
  EXPECT_DOUBLE_EQ(bbr10_period(ex.pipeline, ex.platform, ex.mapping, all, e), 2.0 / 3);
}

TEST(Bbr10MinComm, Bbr10Section2ElectsDifferentProcessorsForS1AndS3)
{
  // bbr10 §2, all alive. Transfer times: S_2 4/10, S_1 3/10, S_3 1/10. S_2: P7..P12 all max(6*4/30, 0.4) = 0.8
  // -> P7. S_1: P1..P6 all max(6*3/20, 0.3) = 0.9 -> P1. S_3: P1 (18 + 1)/20 = 0.95, P2 1/20 -> P2 (Figure 3).
  // Period: P7..P12's compute 50/55.
  fixtures::Bbr10Section2 ex;
  Mapping mp = ex.general();
  auto all   = FailureConfiguration::all_alive(ex.platform);
  auto e     = bbr10_min_comm_election(ex.pipeline, ex.platform, mp, all);
  EXPECT_EQ(e.sender, (std::vector<int>{0, 6, 1}));
  EXPECT_DOUBLE_EQ(bbr10_period(ex.pipeline, ex.platform, mp, all, e), 50.0 / 55);
  // P2..P6 crashed: P1 is forced for both (step 1), 0.95.
  auto lone = fixtures::crashed(ex.platform, {1, 2, 3, 4, 5});
  e         = bbr10_min_comm_election(ex.pipeline, ex.platform, mp, lone);
  EXPECT_EQ(e.sender, (std::vector<int>{0, 6, 0}));
  EXPECT_DOUBLE_EQ(bbr10_period(ex.pipeline, ex.platform, mp, lone, e), 0.95);
}

TEST(Bbr10MinComm, LocalOutputsElectTheFirstAliveReplica)
{
  // I_1 = [1] and I_2 = [2] on the same {P1, P2}: I_1's output stays local (no receiver), whoever is elected.
  // I_2 sends delta_2 = 10 to P_out; Bout_1 = 5, Bout_2 = 10 (b = 100): P2 (10/10 = 1 < 10/5 = 2).
  Pipeline pl{{1, 1}, {1, 10, 10}};
  Platform pf({Processor{"P1", 100, 0.1, unbounded, 5}, Processor{"P2", 100, 0.1, unbounded, 10}}, "in", "out", 100, 0);
  Mapping mp{{Interval{1, 1, {{0}, {1}}, Replication::active}, Interval{2, 2, {{0}, {1}}, Replication::active}}};
  auto all = FailureConfiguration::all_alive(pf);
  auto e   = bbr10_min_comm_election(pl, pf, mp, all);
  EXPECT_EQ(e.sender, (std::vector<int>{0, 1}));
  EXPECT_DOUBLE_EQ(bbr10_period(pl, pf, mp, all, e), 1.0);
}

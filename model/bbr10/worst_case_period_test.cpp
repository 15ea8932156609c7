// The worst-case period: hand example, eq. (1) on interval mappings, heuristic >= exact elections.
#include "base/input_error.hpp"
#include "model/bbr10/election_table.hpp"
#include "model/bbr10/worst_case_period.hpp"
#include "model/test_fixtures.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

TEST(Bbr10WorstCase, HandExample)
{
  // fixtures::ElectionExample: P3 must survive (alone in I_2); the surviving configurations are {P1, P2, P3} (best
  // election 2/3), {P1, P3} (P1 sends both: 20/20 = 1) and {P2, P3} (P2 sends both: 20/15). Worst: P1 crashed.
  fixtures::ElectionExample ex;
  auto worst = bbr10_worst_case_period(ex.pipeline, ex.platform, ex.mapping);
  EXPECT_EQ(worst.configurations, 3);
  EXPECT_DOUBLE_EQ(worst.period, 20.0 / 15);
  EXPECT_EQ(worst.config.alive, (std::vector<bool>{false, true, true}));
  EXPECT_FALSE(worst.exact);
  WorstCaseOptions exact;
  exact.elect          = bbr10_election(ElectionPolicy::exhaustive);
  exact.elect_is_exact = true;
  EXPECT_DOUBLE_EQ(bbr10_worst_case_period(ex.pipeline, ex.platform, ex.mapping, exact).period, 20.0 / 15);
  // The bound: P1 elected for I_1 and I_3 with every replica alive: card 20/20 = 1; P2 likewise: 20/15; P3 receives
  // delta_1 from P1 or P2 (10/100 per link) and sends delta_2 to both (link 1/100). 20/15: tight here.
  EXPECT_DOUBLE_EQ(bbr10_worst_case_upper_bound(ex.pipeline, ex.platform, ex.mapping), 20.0 / 15);
  WorstCaseOptions small;
  small.max_processors = 2;
  auto bound           = bbr10_worst_case_period(ex.pipeline, ex.platform, ex.mapping, small);
  EXPECT_FALSE(bound.enumerated);
  EXPECT_FALSE(bound.exact);
  EXPECT_DOUBLE_EQ(bound.period, 20.0 / 15);
}

TEST(Bbr10WorstCase, Bbr10Section2IsTheLoneSurvivor)
{
  // bbr10 §2 general mapping: the best election gives 50/55 while two replicas of {S_1, S_3} survive; when
  // only one does, it sends both outputs: 0.95 for P1..P4 (card (3*6+1)/20); P5, P6 have the same card. 0.95.
  fixtures::Bbr10Section2 ex;
  auto worst = bbr10_worst_case_period(ex.pipeline, ex.platform, ex.general());
  EXPECT_DOUBLE_EQ(worst.period, 0.95);
  EXPECT_DOUBLE_EQ(bbr10_worst_case_upper_bound(ex.pipeline, ex.platform, ex.general()), 0.95); // tight too
  EXPECT_EQ(worst.configurations, 63 * 63);
  // Interval mapping (Figure 2): eq. (1) = 50/55.
  EXPECT_DOUBLE_EQ(bbr10_worst_case_period(ex.pipeline, ex.platform, ex.interval()).period, 50.0 / 55);
}

TEST(Bbr10WorstCase, IntervalMappingsGiveEq1)
{
  // docs/bbr10-periods.md: for interval mappings the worst case is eq. (1) whatever the election.
  Rng rng(1001);
  for (int t = 0; t < 200; ++t) {
    int n     = static_cast<int>(rng.integer(1, 6));
    int p     = static_cast<int>(rng.integer(1, 9));
    auto inst = fixtures::random_platform_and_pipeline(rng, n, p, t % 2 == 1);
    fixtures::random_replicated_mapping(rng, inst);
    for (int u = 0; u < p; ++u) {
      inst.platform.processor(u).nic_in  = rng.uniform(1, 30);
      inst.platform.processor(u).nic_out = rng.uniform(1, 30);
    }
    double eq1 = bbr10_eq1_period(inst.pipeline, inst.platform, inst.mapping);
    auto worst = bbr10_worst_case_period(inst.pipeline, inst.platform, inst.mapping);
    ASSERT_NEAR(worst.period, eq1, 1e-12 * eq1) << inst.describe();
    WorstCaseOptions first;
    first.elect = bbr10_election(ElectionPolicy::first_alive);
    ASSERT_NEAR(bbr10_worst_case_period(inst.pipeline, inst.platform, inst.mapping, first).period, eq1, 1e-12 * eq1)
        << inst.describe();
    ASSERT_NEAR(bbr10_worst_case_upper_bound(inst.pipeline, inst.platform, inst.mapping), eq1, 1e-12 * eq1)
        << inst.describe();
  }
}

TEST(Bbr10WorstCase, BestIsAnUpperBoundOnTheExactWorstCase)
{
  Rng rng(77);
  WorstCaseOptions exact;
  exact.elect          = bbr10_election(ElectionPolicy::exhaustive);
  exact.elect_is_exact = true;
  for (int t = 0; t < 60; ++t) {
    int n     = static_cast<int>(rng.integer(2, 5));
    int p     = static_cast<int>(rng.integer(2, 7));
    auto inst = fixtures::random_platform_and_pipeline(rng, n, p, t % 2 == 1);
    fixtures::random_replicated_general_mapping(rng, inst);
    auto heuristic = bbr10_worst_case_period(inst.pipeline, inst.platform, inst.mapping);
    auto reference = bbr10_worst_case_period(inst.pipeline, inst.platform, inst.mapping, exact);
    EXPECT_TRUE(reference.exact);
    ASSERT_EQ(heuristic.configurations, reference.configurations);
    ASSERT_GE(heuristic.period, reference.period) << inst.describe();
    ASSERT_GE(bbr10_worst_case_upper_bound(inst.pipeline, inst.platform, inst.mapping), heuristic.period)
        << inst.describe();
  }
}

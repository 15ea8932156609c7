#include "mappers/bbr10/subset_state.hpp"

#include "mappers/bbr10/all_alive_period.hpp"
#include "mappers/bbr10/reliability_fixtures.hpp"
#include "model/analytic.hpp"
#include "model/bbr10/worst_case_period.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

TEST(SubsetState, Section2GeneralMappingHasCt1AndFgen)
{
  // bbr10 §2: {S_1, S_3} on P1..P6, {S_2} on P7..P12; CT_1 = 0.95 is P1..P6's worst case (the bound is exact
  // here, docs/bbr10-periods.md), F_gen = 1 - (1 - 0.15^6)^2 = 0.0000228.
  Problem problem = fixtures::section2_problem(1.0);
  SubsetState state(problem, 1.0);
  state.set_partition({-1, 0, 1, 0}, 2);
  for (int u = 0; u < 12; ++u)
    state.add(u, u < 6 ? 0 : 1);
  ASSERT_TRUE(state.complete());
  EXPECT_NEAR(state.period_bound(), 0.95, 1e-12);
  EXPECT_NEAR(state.failure_probability(), 1 - std::pow(1 - std::pow(0.15, 6), 2), 1e-15);
  EXPECT_NEAR(state.failure_probability(), 0.000023, 0.0000005);
  EXPECT_EQ(to_text(state.mapping(), problem.platform), "[1]:P1|P2|P3|P4|P5|P6 [2]:P7|P8|P9|P10|P11|P12 "
                                                        "[3]:P1|P2|P3|P4|P5|P6");
  EXPECT_EQ(state.output_data(0), 3 + 1); // delta_1 + delta_3
  EXPECT_EQ(state.work(0), 17 + 23);
}

TEST(SubsetState, AgreesWithTheWorstCaseBoundAndEq2OnRandomStates)
{
  Rng rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    int n = static_cast<int>(rng.integer(1, 6)), p = static_cast<int>(rng.integer(1, 8));
    Problem problem = fixtures::random_reliability_problem(rng, n, p);
    int l           = static_cast<int>(rng.integer(1, std::min(n, p)));
    SubsetState state(problem, problem.objective.period_bound);
    state.set_partition(fixtures::random_partition(rng, n, l), l);
    for (int u = 0; u < p; ++u) { // one processor per subset, then the others in a random subset or unused
      int k = u < l ? u : static_cast<int>(rng.integer(-1, l - 1));
      if (k >= 0) state.add(u, k);
    }
    ASSERT_TRUE(state.complete());
    Mapping mapping = state.mapping();
    validate(mapping, problem.pipeline, problem.platform);
    double bound = bbr10_worst_case_upper_bound(problem.pipeline, problem.platform, mapping);
    EXPECT_NEAR(state.period_bound(), bound, 1e-12 * bound) << trial;
    double f = bbr10_eq2_failure_probability(problem.platform, mapping);
    EXPECT_NEAR(state.failure_probability(), f, 1e-12) << trial;
  }
}

TEST(SubsetState, FitsIsTheBoundAfterAddingChecked)
{
  // fits(u, k) checks only the processors whose terms change; it must say what the whole bound says.
  Rng rng(12);
  int checks = 0, yes = 0;
  for (int trial = 0; trial < 300; ++trial) {
    int n = static_cast<int>(rng.integer(2, 6)), p = static_cast<int>(rng.integer(2, 8));
    Problem problem = fixtures::random_reliability_problem(rng, n, p);
    int l           = static_cast<int>(rng.integer(1, std::min(n, p)));
    auto partition  = fixtures::random_partition(rng, n, l);
    std::vector<int> owner(static_cast<std::size_t>(p), -1);
    for (auto& k : owner)
      if (rng.uniform01() < 0.5) k = static_cast<int>(rng.integer(0, l - 1));
    auto build = [&](double bound) {
      SubsetState state(problem, bound);
      state.set_partition(partition, l);
      for (int u = 0; u < p; ++u)
        if (owner[static_cast<std::size_t>(u)] >= 0) state.add(u, owner[static_cast<std::size_t>(u)]);
      return state;
    };
    SubsetState probe = build(0);
    double bound      = probe.period_bound() * rng.uniform(1, 1.5);
    SubsetState state = build(bound);
    for (int u : probe.unused())
      for (int k = 0; k < l; ++k) {
        SubsetState copy = probe;
        copy.add(u, k);
        bool expected = copy.period_bound() <= bound * (1 + 1e-12);
        ++checks;
        yes += expected ? 1 : 0;
        EXPECT_EQ(state.fits(u, k), expected) << trial;
      }
  }
  EXPECT_GT(checks, 500);
  EXPECT_GT(yes, checks / 10); // both answers are exercised
  EXPECT_LT(yes, checks * 9 / 10);
}

TEST(SubsetState, PartialStatesAndFailureProbability)
{
  Problem problem = fixtures::two_stage_problem(1.5);
  SubsetState state(problem, 1.5);
  state.set_partition({-1, 0, 1}, 2);
  EXPECT_FALSE(state.complete());
  EXPECT_EQ(state.failure_probability(), 1.0); // subsets without processors fail
  EXPECT_TRUE(state.fits(0, 0));               // 2 / 2 = 1
  state.add(0, 0);
  state.add(3, 1);
  EXPECT_TRUE(state.complete());
  EXPECT_NEAR(state.failure_probability(), 1 - 0.9 * 0.6, 1e-15);
  EXPECT_EQ(state.unused(), (std::vector<int>{1, 2}));
  state.merge_stages(0, 1); // {1, 2} on no processor: P1 and P4 become unused
  EXPECT_EQ(state.live_subsets(), (std::vector<int>{0}));
  EXPECT_FALSE(state.fits(0, 0)); // 4 / 2 = 2 > 1.5
  EXPECT_TRUE(state.fits(3, 0));  // 4 / 4 = 1
  EXPECT_NEAR(state.cycle_time_with(3, 0), 1.0, 1e-12);
}

TEST(SubsetState, TheTwoPeriodTestsAcceptDifferentReplicaCounts)
{
  // fixtures::split_senders_problem: w = (4, 8, 4), delta = (1, 1, 1, 3), speeds 10, Bin = 100, Bout = 4, links 100,
  // P_max = 1. Subset A = {S1, S3} (intervals I1 = [1], I3 = [3]) on a processors, subset B = {S2} (I2) on b.
  // - B's elected sender sends delta_2 = 1 to each of A's a replicas: a / 4 <= 1, so a <= 4 under both tests.
  // - An A replica computes (4 + 4) / 10 = 0.8 and receives (delta_0 + delta_2) / 100 = 0.02; a B replica 8 / 10.
  // - Worst case (one survivor in A, every replica of B alive): it sends delta_1 = 1 to the b replicas of B and
  //   delta_3 = 3 to P_out: (b + 3) / 4 <= 1, so b <= 1.
  // - Every processor alive, best election (a >= 2): MinComm elects I3's sender first (3 / 100 > 1 / 100), A's first
  //   replica (3 / 4); for I1 that replica would reach (3 + b) / 4, the second one b / 4: the second is elected.
  //   Period max(0.8, 3 / 4, b / 4, a / 4) <= 1, so b <= 4.
  // B gets P5, A gets P1..P4, then P6, P7, P8 try B: the worst-case test stops at b = 1, the paper's test at b = 4.
  Problem problem = fixtures::split_senders_problem();
  for (PeriodTest test : enum_values<PeriodTest>()) {
    bool paper = test == PeriodTest::all_alive_best_election;
    SubsetState state(problem, 1.0, test);
    state.set_partition({-1, 0, 1, 0}, 2);
    ASSERT_TRUE(state.fits(4, 1)) << test;
    state.add(4, 1);
    for (int u = 0; u < 4; ++u) {
      ASSERT_TRUE(state.fits(u, 0)) << test << " P" << u + 1;
      state.add(u, 0);
    }
    EXPECT_FALSE(state.fits(5, 0)) << test; // a = 5: B's sender 5 / 4
    EXPECT_NEAR(state.period(), 1.0, 1e-12) << test;
    for (int u = 5; u < 8; ++u) {
      EXPECT_EQ(state.fits(u, 1), paper) << test << " P" << u + 1;
      if (paper) state.add(u, 1);
    }
    EXPECT_EQ(state.processors(1).size(), paper ? 4U : 1U) << test;
    double f = 0.2;
    EXPECT_NEAR(state.failure_probability(), 1 - (1 - std::pow(f, 4)) * (1 - std::pow(f, paper ? 4 : 1)), 1e-15);
    EXPECT_NEAR(state.period(), 1.0, 1e-12) << test;
    // the worst case of the paper's mapping: one survivor of A sends (4 + 3) / 4
    EXPECT_NEAR(state.period_bound(), paper ? 7.0 / 4 : 1.0, 1e-12) << test;
  }
  // The paper's election on the full mapping: I1 and I3 sent by different replicas of A, each within P_max.
  SubsetState state(problem, 1.0, PeriodTest::all_alive_best_election);
  state.set_partition({-1, 0, 1, 0}, 2);
  for (int u = 0; u < 8; ++u)
    state.add(u, u < 4 ? 0 : 1);
  AllAlivePeriod best = bbr10_all_alive_period(problem.pipeline, problem.platform, state.mapping(), 1);
  ASSERT_EQ(best.election.sender.size(), 3U);
  EXPECT_NE(best.election.sender[0], best.election.sender[2]);
  EXPECT_NEAR(best.period, 1.0, 1e-12);
  EXPECT_NEAR(best.cycle_time[static_cast<std::size_t>(best.election.sender[2])], 0.8, 1e-12); // 3 / 4 < 0.8
  // BCT's cycle-time of a joining replica of B: P8 is not elected (MinComm's tie on I2 keeps P5, the first), so
  // 0.8 under the paper's test; its worst-case terms include sending I2 to A's 4 replicas, 4 / 4.
  state.remove(7);
  EXPECT_NEAR(state.cycle_time_with(7, 1), 0.8, 1e-12);
  SubsetState worst(problem, 1.0);
  worst.set_partition({-1, 0, 1, 0}, 2);
  for (int u = 0; u < 5; ++u)
    worst.add(u, u < 4 ? 0 : 1);
  EXPECT_NEAR(worst.cycle_time_with(7, 1), 1.0, 1e-12);
}

TEST(SubsetState, UnderThePapersTestFitsIsTheBestElectionOfTheStateAfterAdding)
{
  // fits(u, k) refuses on u's election-free terms and accepts on the worst-case bound before evaluating the four
  // elections: on 300 seeded random partial states it says what bbr10_all_alive_period of the state with u says.
  Rng rng(13);
  int checks = 0, yes = 0;
  for (int trial = 0; trial < 300; ++trial) {
    int n = static_cast<int>(rng.integer(2, 6)), p = static_cast<int>(rng.integer(2, 8));
    Problem problem = fixtures::random_reliability_problem(rng, n, p);
    int l           = static_cast<int>(rng.integer(1, std::min(n, p)));
    auto partition  = fixtures::random_partition(rng, n, l);
    double bound    = problem.objective.period_bound * rng.uniform(1, 3);
    auto seed       = static_cast<std::uint64_t>(trial);
    SubsetState state(problem, bound, PeriodTest::all_alive_best_election, seed);
    state.set_partition(partition, l);
    for (int u = 0; u < p; ++u)
      if (int k = static_cast<int>(rng.integer(-1, l - 1)); k >= 0 && state.fits(u, k)) state.add(u, k);
    for (int u : state.unused())
      for (int k = 0; k < l; ++k) {
        SubsetState copy = state;
        copy.add(u, k);
        double period = bbr10_all_alive_period(problem.pipeline, problem.platform, copy.partial_mapping(), seed).period;
        bool expected = period <= bound * (1 + 1e-12);
        ++checks;
        yes += expected ? 1 : 0;
        EXPECT_EQ(state.fits(u, k), expected) << "trial " << trial << " P" << u + 1 << " -> " << k;
        EXPECT_EQ(copy.period(), period) << "trial " << trial;
      }
  }
  EXPECT_GT(checks, 300);
  EXPECT_GT(yes, checks / 10); // both answers are exercised
  EXPECT_LT(yes, checks * 9 / 10);
}

} // namespace
} // namespace pipesim

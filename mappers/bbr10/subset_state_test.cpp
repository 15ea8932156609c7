#include "mappers/bbr10/subset_state.hpp"

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

} // namespace
} // namespace pipesim

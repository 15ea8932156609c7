#include "mappers/bbr10/bct.hpp"

#include "mappers/bbr10/reliability_fixtures.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

TEST(Bbr10Bct, TakesTheMostCriticalProcessorThatFits)
{
  // two_stage_problem(1.5): cycle-times of one stage: P1..P3 1 (2 / 2), P4 0.5 (2 / 4); transfers 1/1000. Round 1:
  // {S1} <- P1 (1, ties: smaller index), {S2} <- P2; round 2: {S1} <- P3, {S2} <- P4. Fusion: only P4 holds both.
  Problem problem = fixtures::two_stage_problem(1.5);
  SubsetState state(problem, 1.5);
  state.set_partition({-1, 0, 1}, 2);
  EXPECT_EQ(bbr10_most_critical_processor(state, 0), 0);
  bbr10_bct(state, SubsetOrder::output_data, false);
  EXPECT_EQ(to_text(state.mapping(), problem.platform), "[1]:P1|P3 [2]:P2|P4");
  EXPECT_NEAR(state.failure_probability(), 1 - 0.97 * 0.92, 1e-15);
}

TEST(Bbr10Bct, NothingFits)
{
  Problem problem = fixtures::two_stage_problem(0.4); // no processor computes a stage in 0.4
  SubsetState state(problem, 0.4);
  state.set_partition({-1, 0, 1}, 2);
  EXPECT_EQ(bbr10_most_critical_processor(state, 0), -1);
  bbr10_bct(state, SubsetOrder::workload, false);
  EXPECT_FALSE(state.complete());
  EXPECT_EQ(state.failure_probability(), 1.0);
}

TEST(Bbr10Bct, UnderThePapersTestTheBoundedSearchTakesWhatTryingEveryProcessorTakes)
{
  // bbr10_most_critical_processor skips the candidates whose worst-case terms cannot beat the best cycle-time found;
  // on 200 seeded random partial states it returns what the plain loop over every unused processor returns.
  Rng rng(8);
  int found = 0;
  for (int trial = 0; trial < 200; ++trial) {
    int n = static_cast<int>(rng.integer(2, 6)), p = static_cast<int>(rng.integer(2, 9));
    Problem problem = fixtures::random_reliability_problem(rng, n, p);
    int l           = static_cast<int>(rng.integer(1, std::min(n, p)));
    SubsetState state(problem, problem.objective.period_bound * rng.uniform(1, 3), PeriodTest::all_alive_best_election,
                      static_cast<std::uint64_t>(trial));
    state.set_partition(fixtures::random_partition(rng, n, l), l);
    for (int u = 0; u < p; ++u)
      if (int k = static_cast<int>(rng.integer(-2, l - 1)); k >= 0 && state.fits(u, k)) state.add(u, k);
    int k = static_cast<int>(rng.integer(0, l - 1)), expected = -1;
    double best = 0;
    for (int u : state.unused())
      if (auto cycle = state.fitting_cycle_time(u, k); cycle && (expected < 0 || *cycle > best)) {
        expected = u;
        best     = *cycle;
      }
    EXPECT_EQ(bbr10_most_critical_processor(state, k), expected) << "trial " << trial;
    found += expected >= 0 ? 1 : 0;
  }
  EXPECT_GT(found, 50);
}

} // namespace
} // namespace pipesim

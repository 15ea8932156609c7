#include "mappers/bbr10/bct.hpp"

#include "mappers/bbr10/reliability_fixtures.hpp"

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

} // namespace
} // namespace pipesim

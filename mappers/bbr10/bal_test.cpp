#include "mappers/bbr10/bal.hpp"

#include "mappers/bbr10/reliability_fixtures.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

TEST(Bbr10Bal, FillsEachSubsetToTheBalancedFailureProbability)
{
  // two_stage_problem(1.5), l = 2: target sqrt(0.1 x 0.2 x 0.3 x 0.4) = 0.049. {S1} takes the most critical: P1
  // (0.1 > target), then P2 (0.02 <= target); {S2} takes P3 (0.3), then P4 (0.12, no processor left). Fusion: only
  // P4 holds both stages (0.4): kept.
  Problem problem = fixtures::two_stage_problem(1.5);
  SubsetState state(problem, 1.5);
  state.set_partition({-1, 0, 1}, 2);
  bbr10_bal(state, SubsetOrder::output_data, false);
  EXPECT_EQ(to_text(state.mapping(), problem.platform), "[1]:P1|P2 [2]:P3|P4");
  EXPECT_NEAR(state.failure_probability(), 1 - 0.98 * 0.88, 1e-15);
}

TEST(Bbr10Bal, OneSubsetTakesEverythingThatFits)
{
  // l = 1: target = the product of all f; the subset takes every processor that fits (P4 only, at P_max = 1.5).
  Problem problem = fixtures::two_stage_problem(1.5);
  SubsetState state(problem, 1.5);
  state.set_partition({-1, 0, 0}, 1);
  bbr10_bal(state, SubsetOrder::workload, false);
  EXPECT_EQ(to_text(state.mapping(), problem.platform), "[1-2]:P4");
}

} // namespace
} // namespace pipesim

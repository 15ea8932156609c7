#include "mappers/bbr10/fusion.hpp"

#include "mappers/bbr10/reliability_fixtures.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

TEST(Bbr10Fusion, FusesWhenOneSubsetOnMoreProcessorsIsMoreReliable)
{
  // Speeds (2, 2, 2, 2), P_max = 2.5: a processor holds both stages (4 / 2 = 2). {S1} on P1 (f 0.1), {S2} on P2, P3
  // (0.06): F = 1 - 0.9 x 0.94. The least reliable subset {S1} fuses with {S2}; every processor fits, by increasing
  // f: {S1, S2} on P1..P4, F = 0.1 x 0.2 x 0.3 x 0.4 = 0.0024.
  Problem problem = fixtures::two_stage_problem(2.5, {2, 2, 2, 2});
  SubsetState state(problem, 2.5);
  state.set_partition({-1, 0, 1}, 2);
  state.add(0, 0);
  state.add(1, 1);
  state.add(2, 1);
  EXPECT_NEAR(state.failure_probability(), 1 - 0.9 * 0.94, 1e-15);
  bbr10_fusion(state, false);
  EXPECT_EQ(state.live_subsets().size(), 1U);
  EXPECT_EQ(to_text(state.mapping(), problem.platform), "[1-2]:P1|P2|P3|P4");
  EXPECT_NEAR(state.failure_probability(), 0.0024, 1e-15);
}

TEST(Bbr10Fusion, KeepsTheMappingWhenNoFusionHelps)
{
  // P_max = 1.5: only P4 holds both stages; the fusion would give F = 0.4 > 1 - 0.9 x 0.94.
  Problem problem = fixtures::two_stage_problem(1.5);
  SubsetState state(problem, 1.5);
  state.set_partition({-1, 0, 1}, 2);
  state.add(0, 0);
  state.add(1, 1);
  state.add(2, 1);
  bbr10_fusion(state, false); // then P4 goes to the least reliable subset, {S1} (0.1 > 0.06)
  EXPECT_EQ(to_text(state.mapping(), problem.platform), "[1]:P1|P4 [2]:P2|P3");
  EXPECT_NEAR(state.failure_probability(), 1 - (1 - 0.04) * (1 - 0.06), 1e-15);
}

TEST(Bbr10Fusion, IntervalVariantFusesOnlyNeighbours)
{
  // Three stages w = 1, speeds 10 (everything fits): {S1} on P1 (0.1), {S2} on P2 (0.2), {S3} on P3 (0.3). The least
  // reliable, {S3}, may fuse with {S2} only (interval variant): {S2, S3} on P2, P3, P4 (the unused P4 joins).
  std::vector<Processor> procs;
  for (int u = 0; u < 4; ++u)
    procs.push_back(Processor{"P" + std::to_string(u + 1), 10, 0.1 * (u + 1)});
  Problem problem =
      fixtures::reliability_problem(Pipeline{{1, 1, 1}, {1, 1, 1, 1}}, Platform(procs, "in", "out", 100), 10);
  for (bool intervals : {true, false}) {
    SubsetState state(problem, 10);
    state.set_partition({-1, 0, 1, 2}, 3);
    for (int u = 0; u < 3; ++u)
      state.add(u, u);
    bbr10_fusion(state, intervals);
    EXPECT_EQ(to_text(state.mapping(), problem.platform), "[1-3]:P1|P2|P3|P4") << intervals;
    EXPECT_NEAR(state.failure_probability(), 0.0024, 1e-15);
  }
  // one step of the interval variant: {S3} with {S1} is not tried
  SubsetState state(problem, 10);
  state.set_partition({-1, 0, 1, 0}, 2); // {S1, S3} and {S2}: a general partition, fused only with a neighbour
  state.add(0, 0);
  state.add(1, 1);
  bbr10_fusion(state, true);
  EXPECT_EQ(state.live_subsets().size(), 1U);
}

TEST(Bbr10Fusion, UnusedProcessorsGoToTheLeastReliableSubsetTheyFit)
{
  Problem problem = fixtures::two_stage_problem(1.5);
  SubsetState state(problem, 1.5);
  state.set_partition({-1, 0, 1}, 2);
  state.add(1, 0); // {S1}: P2 (0.2)
  state.add(3, 1); // {S2}: P4 (0.4)
  bbr10_give_unused_processors(state);
  // P1 (0.1) -> {S2} (0.4) = 0.04; P3 (0.3) -> {S1} (0.2 > 0.04)
  EXPECT_EQ(to_text(state.mapping(), problem.platform), "[1]:P2|P3 [2]:P1|P4");
  EXPECT_EQ(bbr10_processors_by_reliability(problem.platform), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(bbr10_subset_order(state, SubsetOrder::workload), (std::vector<int>{0, 1})); // ties: index
}

} // namespace
} // namespace pipesim

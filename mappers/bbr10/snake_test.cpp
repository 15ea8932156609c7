#include "mappers/bbr10/snake.hpp"

#include "mappers/bbr10/reliability_fixtures.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

TEST(Bbr10Snake, SnakeOrderOfReliability)
{
  // two_stage_problem(1.5): P1..P3 hold one stage, P4 either or both. {S1}, {S2}; Lp = P1, P2, P3, P4. Round 1:
  // {S1} <- P1, {S2} <- P2; Lp reversed (P4, P3); round 2: {S1} <- P4, {S2} <- P3. Fusion: only P4 holds both
  // (F 0.4 > 1 - 0.96 x 0.94): kept.
  Problem problem = fixtures::two_stage_problem(1.5);
  for (SubsetOrder order : {SubsetOrder::output_data, SubsetOrder::workload}) {
    SubsetState state(problem, 1.5);
    state.set_partition({-1, 0, 1}, 2);
    bbr10_snake(state, order, false);
    EXPECT_EQ(to_text(state.mapping(), problem.platform), "[1]:P1|P4 [2]:P2|P3");
    EXPECT_NEAR(state.failure_probability(), 1 - 0.96 * 0.94, 1e-15);
  }
}

TEST(Bbr10Snake, OrderDecidesWhoGetsTheMostReliable)
{
  // w = (2, 3): by workload {S2} goes first and takes P1; by output data (delta_1 = 1 < delta_2 = 5) {S2} too.
  // With delta_2 = 0.5 the output order puts {S1} first.
  std::vector<Processor> procs{{"P1", 4, 0.1}, {"P2", 4, 0.2}};
  for (auto [delta2, order, expected] : {std::tuple{5.0, SubsetOrder::workload, "[1]:P2 [2]:P1"},
                                         std::tuple{5.0, SubsetOrder::output_data, "[1]:P2 [2]:P1"},
                                         std::tuple{0.5, SubsetOrder::output_data, "[1]:P1 [2]:P2"}}) {
    Problem problem =
        fixtures::reliability_problem(Pipeline{{2, 3}, {1, 1, delta2}}, Platform(procs, "in", "out", 1000), 1);
    SubsetState state(problem, 1);
    state.set_partition({-1, 0, 1}, 2);
    bbr10_snake(state, order, false);
    EXPECT_EQ(to_text(state.mapping(), problem.platform), expected);
  }
}

} // namespace
} // namespace pipesim

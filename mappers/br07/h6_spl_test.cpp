// Tests of br07.h6-spl (br07 §4.2): splitting the interval of the processor with the largest period.
#include "mappers/br07/h6_spl.hpp"

#include "mappers/br07/heuristic_fixtures.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

using namespace heuristic_fixtures;

/// n = 3, speeds P0 = 1, P1 = 4, P2 = 2, b = 1; w = (4, 4, 8), delta = (1, 1, 1, 1). Order: P1, P2, P0.
/// Start: [1-3] on P1: 1 + 16/4 + 1 = 6. Step 1, j = P1, j' = P2:
///   k = 1, P1 keeps [1]: [1] 1 + 1 + 1 = 3, [2-3] on P2 1 + 6 + 1 = 8 -> 8; P2 takes [1]: 1 + 2 + 1 = 4, [2-3] on
///   P1 1 + 3 + 1 = 5 -> 5; k = 2, P1 keeps [1-2]: 4 and [3] on P2 6 -> 6; P2 takes [1-2]: 6 and [3] on P1 4 -> 6.
///   Best 5 < 6: [1] on P2, [2-3] on P1, period 5.
/// Step 2, j = P1 ([2-3], 5), j' = P0: [2] on P1 3 and [3] on P0 1 + 8 + 1 = 10 -> 10; [2] on P0 6 and [3] on P1
///   4 -> 6. Best 6 is not below 5: stop. Period 5, one split.
TEST(Br07H6Spl, HandCheckedTwoSteps)
{
  Problem problem     = make_problem({4, 4, 8}, {1, 1, 1, 1}, make_platform({1, 4, 2}, 1));
  MapperResult result = run_mapper("br07.h6-spl", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::feasible);
  EXPECT_EQ(result.objective, 5.0);
  EXPECT_EQ(intervals_of(result.mapping), (std::vector<std::pair<int, int>>{{1, 1}, {2, 3}}));
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{2, 1}));
  EXPECT_EQ(result.statistics.at("splits"), 1.0);
}

/// Fully Heterogeneous, real links: n = 2, speeds P0 = 2, P1 = 1; w = (2, 8), delta = (0, 1, 0); b(P0 -> P1) =
/// 0.25, b(P1 -> P0) = 2, every other link 1. Start: [1-2] on P0: 10/2 = 5. Split k = 1 with j' = P1:
/// P0 keeps [1]: 2/2 + 1/0.25 = 5 and [2] on P1: 4 + 8 = 12 -> 12; P1 takes [1]: 2 + 1/2 = 2.5 and [2] on P0:
/// 0.5 + 4 = 4.5 -> 4.5 < 5: [1] on P1, [2] on P0, period 4.5; every processor used: stop.
TEST(Br07H6Spl, HandCheckedFullyHeterogeneous)
{
  Platform platform = make_platform({2, 1}, 1);
  platform.set_link(0, 1, 0.25, 0);
  platform.set_link(1, 0, 2, 0);
  Problem problem     = make_problem({2, 8}, {0, 1, 0}, platform);
  MapperResult result = run_mapper("br07.h6-spl", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 4.5);
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{1, 0}));
}

TEST(Br07H6Spl, SingleStageCannotBeSplit)
{
  // n = 1: the fastest processor (P1, s = 3) keeps S1: 2/1 + 9/3 + 1/1 = 6.
  Problem problem     = make_problem({9}, {2, 1}, make_platform({1, 3, 2}, 1));
  MapperResult result = run_mapper("br07.h6-spl", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 6.0);
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{1}));
  EXPECT_EQ(result.statistics.at("splits"), 0.0);
}

} // namespace
} // namespace pipesim

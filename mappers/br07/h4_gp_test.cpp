// Tests of br07.h4-gp (br07 §4.1): the fastest processor takes the interval with the biggest period on it.
#include "mappers/br07/h4_gp.hpp"

#include "mappers/br07/heuristic_fixtures.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

using namespace heuristic_fixtures;

/// n = 2, p = 2, speeds P0 = 1, P1 = 2, b = 1; w = (10, 8), delta = (0, 1, 20). L = 1.
/// P1 (fastest) first: on P1, S1 costs 0 + 10/2 + 1 = 6 and S2 costs 1 + 8/2 + 20 = 25: it takes S2. P0 takes S1:
/// 0 + 10 + 1 = 11. Period 25 (H2-GSW gives 29 here).
TEST(Br07H4Gp, HandCheckedCommunicationHeavyStage)
{
  Problem problem     = make_problem({10, 8}, {0, 1, 20}, make_platform({1, 2}, 1));
  MapperResult result = run_mapper("br07.h4-gp", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::feasible);
  EXPECT_EQ(result.objective, 25.0);
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{0, 1}));
}

/// n = 5, p = 2, speeds P0 = 1, P1 = 2, b = 1; w = (2, 4, 6, 3, 1), delta = (1, 2, 3, 4, 5, 6); L = 3.
/// On P1: I_1 = [1-3] costs 1 + 12/2 + 4 = 11, I_2 = [4-5] costs 4 + 4/2 + 6 = 12: P1 takes I_2; P0 takes I_1:
/// 1 + 12 + 4 = 17. Period 17 (H2-GSW and H5-BS121 get 14 with the other assignment).
TEST(Br07H4Gp, HandCheckedBiggestPeriodIsNotAlwaysBest)
{
  Problem problem     = make_problem({2, 4, 6, 3, 1}, {1, 2, 3, 4, 5, 6}, make_platform({1, 2}, 1));
  MapperResult result = run_mapper("br07.h4-gp", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 17.0);
  EXPECT_EQ(intervals_of(result.mapping), (std::vector<std::pair<int, int>>{{1, 3}, {4, 5}}));
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{0, 1}));
}

/// Fully Heterogeneous: n = 2, p = 3, speeds P0 = 1, P1 = 4, P2 = 2; w = (4, 4), delta = (0, 6, 0); every link
/// b = 1 except b(P0 -> P1) = b(P1 -> P0) = 6 and b(P2 -> P1) = b(P1 -> P2) = 2. L = 1, m = 2: the two fastest,
/// P1 then P2, are used and the unknown neighbour of each is the other one (the mean over one processor):
/// on P1, S1 costs 0 + 4/4 + 6/2 = 4 and S2 costs 6/2 + 1 + 0 = 4: tie, the earlier interval S1 goes to P1.
/// P2 takes S2: real cost 6/b(P1 -> P2) + 4/2 = 3 + 2 = 5; S1 on P1: 1 + 3 = 4. Period 5.
TEST(Br07H4Gp, HandCheckedFullyHeterogeneous)
{
  Platform platform = make_platform({1, 4, 2}, 1);
  platform.set_link(0, 1, 6, 0);
  platform.set_link(1, 0, 6, 0);
  platform.set_link(2, 1, 2, 0);
  platform.set_link(1, 2, 2, 0);
  Problem problem = make_problem({4, 4}, {0, 6, 0}, platform);
  ASSERT_EQ(problem.platform.classify(), PlatformClass::fully_heterogeneous);
  MapperResult result = run_mapper("br07.h4-gp", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 5.0);
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{1, 2}));
}

} // namespace
} // namespace pipesim

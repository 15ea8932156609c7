// Tests of br07.h7b-bsc (br07 §4.2): binary search over the period, fitting interval of closest period first.
#include "mappers/br07/h7b_bsc.hpp"

#include "mappers/br07/heuristic_fixtures.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

using namespace heuristic_fixtures;

/// n = 3, p = 2, speeds P0 = 1, P1 = 2, b = 1; w = (6, 4, 8), delta = (0, 1, 0, 0).
///   P0: (1,1) 7, (1,2) 10, (1,3) 18, (2,2) 5, (2,3) 13, (3,3) 8;  P1: (1,1) 4, (1,2) 5, (1,3) 9, (2,2) 3, (2,3) 7,
///   (3,3) 4. Candidates {3, 4, 5, 7, 8, 9, 10, 13, 18}.
/// T = 8: fits from S1: (1,1) on P0 (7), (1,1) and (1,2) on P1 (4, 5); closest to 8 is (1,1) on P0. The last
///   processor P1 takes (2,3): 7 <= 8. Success, period 7.
/// T = 5: closest is (1,2) on P1 (5), then (3,3) on P0 costs 8: failure.
/// T = 7: (1,1) on P0 (7), then (2,3) on P1 (7): success. Result [1] on P0, [2-3] on P1, period 7 (optimal),
/// 3 tests. H7a-BSL gets 8 here (see h7a_bsl_test.cpp).
TEST(Br07H7bBsc, HandCheckedClosestWins)
{
  Problem problem     = make_problem({6, 4, 8}, {0, 1, 0, 0}, make_platform({1, 2}, 1));
  MapperResult result = run_mapper("br07.h7b-bsc", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::feasible);
  EXPECT_EQ(result.objective, 7.0);
  EXPECT_EQ(intervals_of(result.mapping), (std::vector<std::pair<int, int>>{{1, 1}, {2, 3}}));
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{0, 1}));
  EXPECT_EQ(result.statistics.at("candidates"), 9.0);
  EXPECT_EQ(result.statistics.at("feasibility_tests"), 3.0);
  EXPECT_EQ(result.statistics.at("period_bound"), 7.0);
}

/// n = 3, p = 2, speeds P0 = 1, P1 = 2, b = 1; w = (2, 4, 2), delta = (0, 3, 1, 2).
///   P0: (1,1) 5, (1,2) 7, (1,3) 10, (2,2) 8, (2,3) 11, (3,3) 5;  P1: (1,1) 4, (1,2) 4, (1,3) 6, (2,2) 6, (2,3) 8,
///   (3,3) 4. Candidates {4, 5, 6, 7, 8, 10, 11}.
/// T = 7: closest is (1,2) on P0 (7); P1 takes (3,3) (4): success, period 7.
/// T = 5: closest is (1,1) on P0 (5); P1 must take (2,3): 8 > 5: failure, although period 5 exists ([1-2] on P1,
///   [3] on P0, H7a-BSL's mapping): the greedy is not monotone in T.
/// T = 6: closest is (1,3) on P1 (6): success, period 6. Best of the mappings built: 6, 3 tests.
TEST(Br07H7bBsc, HandCheckedNotMonotone)
{
  Problem problem     = make_problem({2, 4, 2}, {0, 3, 1, 2}, make_platform({1, 2}, 1));
  MapperResult result = run_mapper("br07.h7b-bsc", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 6.0);
  EXPECT_EQ(intervals_of(result.mapping), (std::vector<std::pair<int, int>>{{1, 3}}));
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{1}));
  EXPECT_EQ(result.statistics.at("candidates"), 7.0);
  EXPECT_EQ(result.statistics.at("feasibility_tests"), 3.0);
  EXPECT_EQ(result.statistics.at("period_bound"), 6.0);
}

} // namespace
} // namespace pipesim

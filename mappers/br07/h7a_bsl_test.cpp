// Tests of br07.h7a-bsl (br07 §4.2): binary search over the period, longest fitting interval first.
#include "mappers/br07/h7a_bsl.hpp"

#include "mappers/br07/heuristic_fixtures.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

using namespace heuristic_fixtures;

/// n = 3, p = 2, speeds P0 = 1, P1 = 2, b = 1; w = (2, 4, 2), delta = (0, 3, 1, 2).
/// period(s, s', u) = delta_{s-1} + sum w / s_u + delta_{s'}:
///   P0: (1,1) 5, (1,2) 7, (1,3) 10, (2,2) 8, (2,3) 11, (3,3) 5;  P1: (1,1) 4, (1,2) 4, (1,3) 6, (2,2) 6, (2,3) 8,
///   (3,3) 4. Candidates {4, 5, 6, 7, 8, 10, 11}.
/// T = 7: the longest fit from S1 is (1,3) on P1 (6): success, period 6.
/// T = 5: (1,3) no longer fits; the longest is (1,2) on P1 (4), then the last processor P0 must take (3,3): 5 <= 5,
///   and [1-2] on P1 still costs 4 with P0 next: success, period 5.
/// T = 4: (1,2) on P1, then (3,3) on P0 costs 5 > 4: failure. Result [1-2] on P1, [3] on P0, period 5 (optimal:
/// every interval on P0 costs at least 5), 3 tests. H7b-BSC gets 6 here (see h7b_bsc_test.cpp).
TEST(Br07H7aBsl, HandCheckedLongestWins)
{
  Problem problem     = make_problem({2, 4, 2}, {0, 3, 1, 2}, make_platform({1, 2}, 1));
  MapperResult result = run_mapper("br07.h7a-bsl", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::feasible);
  EXPECT_EQ(result.objective, 5.0);
  EXPECT_EQ(intervals_of(result.mapping), (std::vector<std::pair<int, int>>{{1, 2}, {3, 3}}));
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{1, 0}));
  EXPECT_EQ(result.statistics.at("candidates"), 7.0);
  EXPECT_EQ(result.statistics.at("feasibility_tests"), 3.0);
  EXPECT_EQ(result.statistics.at("period_bound"), 5.0);
  EXPECT_EQ(result.statistics.at("fallback"), 0.0);
}

/// n = 3, p = 2, speeds P0 = 1, P1 = 2, b = 1; w = (6, 4, 8), delta = (0, 1, 0, 0).
///   P0: (1,1) 7, (1,2) 10, (1,3) 18, (2,2) 5, (2,3) 13, (3,3) 8;  P1: (1,1) 4, (1,2) 5, (1,3) 9, (2,2) 3, (2,3) 7,
///   (3,3) 4. Candidates {3, 4, 5, 7, 8, 9, 10, 13, 18}.
/// T = 8: longest fit from S1 is (1,2) on P1 (5); P0 takes (3,3): 8 <= 8. Success, period 8.
/// T = 5 and T = 7: (1,2) on P1 again, then (3,3) on P0 costs 8: failure. Result period 8, 3 tests; the optimum is
/// 7 ([1] on P0, [2-3] on P1), which H7b-BSC finds (see h7b_bsc_test.cpp).
TEST(Br07H7aBsl, HandCheckedLongestLoses)
{
  Problem problem     = make_problem({6, 4, 8}, {0, 1, 0, 0}, make_platform({1, 2}, 1));
  MapperResult result = run_mapper("br07.h7a-bsl", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 8.0);
  EXPECT_EQ(intervals_of(result.mapping), (std::vector<std::pair<int, int>>{{1, 2}, {3, 3}}));
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{1, 0}));
  EXPECT_EQ(result.statistics.at("candidates"), 9.0);
  EXPECT_EQ(result.statistics.at("feasibility_tests"), 3.0);
}

TEST(Br07H7aBsl, SingleProcessorTakesEverything)
{
  // p = 1: only (1, n) has a next processor (P_out): [1-2] on P0, 1 + 6/2 + 2 = 6; a single candidate, one test.
  Problem problem     = make_problem({2, 4}, {1, 5, 2}, make_platform({2}, 1));
  MapperResult result = run_mapper("br07.h7a-bsl", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 6.0);
  EXPECT_EQ(result.statistics.at("candidates"), 1.0);
  EXPECT_EQ(result.statistics.at("feasibility_tests"), 1.0);
}

} // namespace
} // namespace pipesim

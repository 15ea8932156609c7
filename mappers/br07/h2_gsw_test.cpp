// Tests of br07.h2-gsw (br07 §4.1): intervals by decreasing sum w on processors by decreasing speed.
#include "mappers/br07/h2_gsw.hpp"

#include "mappers/br07/heuristic_fixtures.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

using namespace heuristic_fixtures;

/// n = 5, p = 2, speeds P0 = 1, P1 = 2, b = 1; w = (2, 4, 6, 3, 1), delta = (1, 2, 3, 4, 5, 6).
/// L = 3: I_1 = [1-3] (sum w 12, delta_0 + delta_3 = 5), I_2 = [4-5] (sum w 4, delta_3 + delta_5 = 10).
/// H2: I_1 (12) on the fastest P1: 1 + 12/2 + 4 = 11; I_2 on P0: 4 + 4/1 + 6 = 14. Period 14.
TEST(Br07H2Gsw, HandCheckedFiveStagesTwoProcessors)
{
  Problem problem     = make_problem({2, 4, 6, 3, 1}, {1, 2, 3, 4, 5, 6}, make_platform({1, 2}, 1));
  MapperResult result = run_mapper("br07.h2-gsw", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::feasible);
  EXPECT_EQ(result.objective, 14.0);
  EXPECT_EQ(intervals_of(result.mapping), (std::vector<std::pair<int, int>>{{1, 3}, {4, 5}}));
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{1, 0}));
}

/// n = 2, p = 2, speeds P0 = 1, P1 = 2, b = 1; w = (10, 8), delta = (0, 1, 20). L = 1.
/// H2 ignores communication: S1 (w 10) on P1: 0 + 10/2 + 1 = 6; S2 on P0: 1 + 8 + 20 = 29. Period 29, while
/// S2 on P1 (1 + 4 + 20 = 25) and S1 on P0 (0 + 10 + 1 = 11) gives 25 (H4-GP's choice).
TEST(Br07H2Gsw, HandCheckedIgnoresCommunication)
{
  Problem problem     = make_problem({10, 8}, {0, 1, 20}, make_platform({1, 2}, 1));
  MapperResult result = run_mapper("br07.h2-gsw", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 29.0);
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{1, 0}));
}

TEST(Br07H2Gsw, TiesKeepStageOrderAndProcessorIndex)
{
  // Equal sums w: S1 goes first, on the fastest; equal speeds: P0 before P1 (P2, fastest, takes S1).
  Problem problem      = make_problem({3, 3, 3}, {1, 1, 1, 1}, make_platform({1, 1, 2}, 1));
  IntervalAssignment a = br07_h2_gsw(problem);
  EXPECT_EQ(a.alloc, (std::vector<int>{2, 0, 1}));
}

} // namespace
} // namespace pipesim

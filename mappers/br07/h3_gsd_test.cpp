// Tests of br07.h3-gsd (br07 §4.1): intervals by decreasing delta_in + delta_out on the fastest processors.
#include "mappers/br07/h3_gsd.hpp"

#include "mappers/br07/heuristic_fixtures.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

using namespace heuristic_fixtures;

/// n = 5, p = 2, speeds P0 = 1, P1 = 2, b = 1; w = (2, 4, 6, 3, 1), delta = (1, 2, 3, 4, 5, 6).
/// L = 3: I_1 = [1-3] (delta_0 + delta_3 = 1 + 4 = 5), I_2 = [4-5] (delta_3 + delta_5 = 4 + 6 = 10).
/// H3: I_2 on the fastest P1: 4 + 4/2 + 6 = 12; I_1 on P0: 1 + 12/1 + 4 = 17. Period 17.
TEST(Br07H3Gsd, HandCheckedFiveStagesTwoProcessors)
{
  Problem problem     = make_problem({2, 4, 6, 3, 1}, {1, 2, 3, 4, 5, 6}, make_platform({1, 2}, 1));
  MapperResult result = run_mapper("br07.h3-gsd", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::feasible);
  EXPECT_EQ(result.objective, 17.0);
  EXPECT_EQ(intervals_of(result.mapping), (std::vector<std::pair<int, int>>{{1, 3}, {4, 5}}));
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{0, 1}));
}

/// Every delta equal (br07 Experiment 1): delta_in + delta_out ties, stage order decides, not w.
/// n = 2, p = 2, speeds P0 = 1, P1 = 2, b = 1, w = (1, 9), delta = (1, 1, 1): S1 on P1: 1 + 1/2 + 1 = 2.5;
/// S2 on P0: 1 + 9 + 1 = 11. Period 11 (H2-GSW: S2 on P1, 6.5, and S1 on P0, 3: period 6.5).
TEST(Br07H3Gsd, HandCheckedTiesKeepStageOrder)
{
  Problem problem     = make_problem({1, 9}, {1, 1, 1}, make_platform({1, 2}, 1));
  MapperResult result = run_mapper("br07.h3-gsd", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 11.0);
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{1, 0}));
  EXPECT_EQ(run_mapper("br07.h2-gsw", problem, MapperOptions{}).objective, 6.5);
}

} // namespace
} // namespace pipesim

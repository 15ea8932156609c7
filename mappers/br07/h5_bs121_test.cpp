// Tests of br07.h5-bs121 (br07 §4.2): Theorem 1 on the L-cut intervals, equal to br07.one-to-one when n <= p.
#include "mappers/br07/h5_bs121.hpp"

#include "mappers/br07/heuristic_fixtures.hpp"
#include "mappers/br07/one_to_one.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

using namespace heuristic_fixtures;

/// n = 5, p = 2, speeds P0 = 1, P1 = 2, b = 1; w = (2, 4, 6, 3, 1), delta = (1, 2, 3, 4, 5, 6); L = 3.
/// Super-stages: I_1 = [1-3] costs 1 + 12/s + 4 (17 on P0, 11 on P1), I_2 = [4-5] costs 4 + 4/s + 6 (14 on P0,
/// 12 on P1). Candidates {11, 12, 14, 17}. Binary search: T = 12 fails (the slowest, P0, fits nothing), T = 14
/// succeeds (P0 takes I_2, 14; P1 takes I_1, 11): 2 greedy runs, period 14 (H3-GSD and H4-GP: 17).
TEST(Br07H5Bs121, HandCheckedCutIntoTwoIntervals)
{
  Problem problem     = make_problem({2, 4, 6, 3, 1}, {1, 2, 3, 4, 5, 6}, make_platform({1, 2}, 1));
  MapperResult result = run_mapper("br07.h5-bs121", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::feasible);
  EXPECT_EQ(result.objective, 14.0);
  EXPECT_EQ(intervals_of(result.mapping), (std::vector<std::pair<int, int>>{{1, 3}, {4, 5}}));
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{1, 0}));
  EXPECT_EQ(result.statistics.at("candidates"), 4.0);
  EXPECT_EQ(result.statistics.at("feasibility_tests"), 2.0);
}

/// n = 3 <= p = 4: L = 1, H5 is Theorem 1. The instance of one_to_one_test.cpp: w = (4, 12, 8), delta = (2, 1, 0, 3),
/// b = 1, speeds 4, 1, 8, 2; optimum 5 with S1 -> P3, S2 -> P2, S3 -> P0.
TEST(Br07H5Bs121, HandCheckedEqualsTheorem1WhenNAtMostP)
{
  Problem problem     = make_problem({4, 12, 8}, {2, 1, 0, 3}, make_platform({4, 1, 8, 2}, 1));
  MapperResult result = run_mapper("br07.h5-bs121", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 5.0);
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{3, 2, 0}));
  MapperResult theorem1 = run_mapper("br07.one-to-one", problem, MapperOptions{});
  EXPECT_EQ(to_text(result.mapping, problem.platform), to_text(theorem1.mapping, problem.platform));
  EXPECT_EQ(result.statistics.at("feasibility_tests"), theorem1.statistics.at("feasibility_tests"));
}

/// Fully Heterogeneous (br07.one-to-one refuses it): n = 2, p = 2, speeds P0 = 1, P1 = 2, w = (2, 2),
/// delta = (0, 4, 0); b(P0 -> P1) = 4, b(P1 -> P0) = 1, every other link 1. With two retained processors the
/// unknown neighbour is the other one, so the estimates are exact: S1 on P0: 0 + 2 + 4/4 = 3, on P1: 0 + 1 + 4/1 = 5;
/// S2 on P0: 4/1 + 2 = 6, on P1: 4/4 + 1 = 2. Candidates {2, 3, 5, 6}: T = 3 succeeds (P0 takes S1, P1 takes S2),
/// T = 2 fails (P0 fits nothing). Period 3.
TEST(Br07H5Bs121, HandCheckedFullyHeterogeneous)
{
  Platform platform = make_platform({1, 2}, 1);
  platform.set_link(0, 1, 4, 0);
  Problem problem = make_problem({2, 2}, {0, 4, 0}, platform);
  ASSERT_EQ(problem.platform.classify(), PlatformClass::fully_heterogeneous);
  EXPECT_TRUE(Br07OneToOne{}.refuses(problem).has_value());
  MapperResult result = run_mapper("br07.h5-bs121", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 3.0);
  EXPECT_EQ(processors_of(result.mapping), (std::vector<int>{0, 1}));
  EXPECT_EQ(result.statistics.at("candidates"), 4.0);
  EXPECT_EQ(result.statistics.at("feasibility_tests"), 2.0);
}

} // namespace
} // namespace pipesim

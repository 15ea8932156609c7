// Tests of br07.h1a-gr (br07 §4.1): the L-cut, distinct random processors, uniform draws, determinism.
#include "mappers/br07/h1a_gr.hpp"

#include "mappers/br07/heuristic_fixtures.hpp"

#include <gtest/gtest.h>
#include <map>

namespace pipesim {
namespace {

using namespace heuristic_fixtures;

/// n = 5, p = 2: L = ceil(5/2) = 3, intervals [1-3] and [4-5]. w = (2, 4, 6, 3, 1), delta = (1, 2, 3, 4, 5, 6) on a
/// Fully Homogeneous platform (s = 1, b = 1): whichever processors the draws give, I_1 costs
/// delta_0 + (2+4+6) + delta_3 = 1 + 12 + 4 = 17 and I_2 costs delta_3 + (3+1) + delta_5 = 4 + 4 + 6 = 14: period 17.
TEST(Br07H1aGr, HandCheckedPeriodOnFullyHomogeneous)
{
  Problem problem = make_problem({2, 4, 6, 3, 1}, {1, 2, 3, 4, 5, 6}, make_platform({1, 1}, 1));
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    MapperResult result = run_mapper("br07.h1a-gr", problem, MapperOptions{seed});
    EXPECT_EQ(result.status, SolveStatus::feasible);
    EXPECT_EQ(result.objective, 17.0);
    EXPECT_EQ(intervals_of(result.mapping), (std::vector<std::pair<int, int>>{{1, 3}, {4, 5}}));
    std::vector<int> used = processors_of(result.mapping);
    EXPECT_NE(used[0], used[1]) << "seed " << seed;
  }
}

TEST(Br07H1aGr, DrawsEveryFreeProcessorUniformly)
{
  // n = 1, p = 4: one interval, one draw among 4 processors; over 400 seeds each is drawn about 100 times.
  Problem problem = make_problem({1}, {1, 1}, make_platform({1, 2, 3, 4}, 1));
  std::map<int, int> drawn;
  for (std::uint64_t seed = 1; seed <= 400; ++seed)
    ++drawn[br07_h1a_gr(problem, seed).alloc.at(0)];
  ASSERT_EQ(drawn.size(), 4u);
  for (auto [u, count] : drawn)
    EXPECT_TRUE(count >= 60 && count <= 140) << "P" << u << " drawn " << count << " times";
}

TEST(Br07H1aGr, SameSeedSameMappingOtherSeedsDiffer)
{
  // n = p = 6: one-to-one (L = 1), 6! orders; 20 seeds give more than one.
  Problem problem = make_problem({1, 2, 3, 4, 5, 6}, {1, 1, 1, 1, 1, 1, 1}, make_platform({1, 2, 3, 4, 5, 6}, 1));
  std::map<std::vector<int>, int> orders;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    IntervalAssignment first = br07_h1a_gr(problem, seed);
    EXPECT_EQ(first.alloc, br07_h1a_gr(problem, seed).alloc);
    ++orders[first.alloc];
  }
  EXPECT_GT(orders.size(), 10u);
}

} // namespace
} // namespace pipesim

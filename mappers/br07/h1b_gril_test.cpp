// Tests of br07.h1b-gril (br07 §4.1): interval lengths uniform in [1, 2L-1], the last processor takes the rest.
#include "mappers/br07/h1b_gril.hpp"

#include "mappers/br07/h1a_gr.hpp"
#include "mappers/br07/heuristic_fixtures.hpp"

#include <gtest/gtest.h>
#include <set>

namespace pipesim {
namespace {

using namespace heuristic_fixtures;

/// n = 2, p = 1: L = 2, lengths in [1, 3], but the only processor takes every stage: [1-2] on P0, whatever the
/// draws. w = (3, 5), delta = (2, 7, 1), s = 2, b = 1: period 2 + 8/2 + 1 = 7.
TEST(Br07H1bGril, HandCheckedSingleProcessor)
{
  Problem problem     = make_problem({3, 5}, {2, 7, 1}, make_platform({2}, 1));
  MapperResult result = run_mapper("br07.h1b-gril", problem, MapperOptions{42});
  EXPECT_EQ(result.status, SolveStatus::feasible);
  EXPECT_EQ(result.objective, 7.0);
  EXPECT_EQ(intervals_of(result.mapping), (std::vector<std::pair<int, int>>{{1, 2}}));
}

TEST(Br07H1bGril, LengthsUniformWithMeanL)
{
  // n = 5, p = 2: L = 3, the first length is uniform in [1, 5] (never cut: 5 = n); when shorter than 5, the last
  // free processor takes the rest, [l+1, 5]. Over 1000 seeds: every length appears and the mean is about L = 3.
  Problem problem = make_problem({1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1}, make_platform({1, 2}, 1));
  std::set<int> lengths;
  double sum = 0;
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    IntervalAssignment a = br07_h1b_gril(problem, seed);
    int first_length     = a.intervals[0].second;
    lengths.insert(first_length);
    sum += first_length;
    ASSERT_EQ(a.intervals.size(), first_length == 5 ? 1u : 2u) << "seed " << seed;
    if (first_length < 5) {
      EXPECT_EQ(a.intervals[1], std::make_pair(first_length + 1, 5));
    }
  }
  EXPECT_EQ(lengths, (std::set<int>{1, 2, 3, 4, 5}));
  EXPECT_NEAR(sum / 1000, 3.0, 0.15);
}

TEST(Br07H1bGril, LastFreeProcessorTakesTheRest)
{
  // n = 6, p = 3: L = 2, lengths in [1, 3]. Never more than p intervals; when the third processor is reached it
  // takes every remaining stage, which can make the last interval longer than 2L-1 = 3 (two draws of 1 leave 4).
  Problem problem = make_problem({1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1}, make_platform({1, 2, 3}, 1));
  bool longer     = false;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    IntervalAssignment a = br07_h1b_gril(problem, seed);
    ASSERT_LE(a.intervals.size(), 3u);
    EXPECT_EQ(a.intervals.back().second, 6);
    for (std::size_t j = 0; j + 1 < a.intervals.size(); ++j)
      EXPECT_LE(a.intervals[j].second - a.intervals[j].first + 1, 3) << "seed " << seed;
    longer = longer || a.intervals.back().second - a.intervals.back().first + 1 > 3;
  }
  EXPECT_TRUE(longer);
}

TEST(Br07H1bGril, IdenticalToH1aWhenLIsOne)
{
  // n <= p: L = 1, no length is drawn, so the processors drawn are H1a-GR's (br07: "identical to H1a").
  Problem problem = make_problem({1, 2, 3, 4}, {1, 1, 1, 1, 1}, make_platform({1, 2, 3, 4, 5}, 1));
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    IntervalAssignment a = br07_h1a_gr(problem, seed);
    IntervalAssignment b = br07_h1b_gril(problem, seed);
    EXPECT_EQ(a.intervals, b.intervals);
    EXPECT_EQ(a.alloc, b.alloc);
  }
}

} // namespace
} // namespace pipesim

#include "mappers/bbr10/small.hpp"

#include "mappers/bbr10/reliability_fixtures.hpp"

#include <gtest/gtest.h>
#include <set>

namespace pipesim {
namespace {

TEST(Bbr10Small, RandomFirstProcessorsThenTheReliableOnesToTheWeakSubsets)
{
  // two_stage_problem(1.5): each subset first gets a random processor (all four hold one stage); the two left go,
  // most reliable first, to the least reliable subset: a singleton is always less reliable than a pair, so each
  // subset ends with two processors. The fusion never helps (only P4 holds both stages).
  Problem problem = fixtures::two_stage_problem(1.5);
  std::set<std::string> seen;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    SubsetState state(problem, 1.5);
    state.set_partition({-1, 0, 1}, 2);
    Rng rng(seed);
    bbr10_small(state, rng, false);
    ASSERT_TRUE(state.complete());
    EXPECT_EQ(state.processors(0).size(), 2U) << seed;
    EXPECT_EQ(state.processors(1).size(), 2U) << seed;
    seen.insert(to_text(state.mapping(), problem.platform));
  }
  EXPECT_GE(seen.size(), 2U); // the first draws differ between seeds
  // first draws P2 for {S1} and P4 for {S2}: P1 -> {S2} (0.4), P3 -> {S1} (0.2 > 0.04)
  EXPECT_TRUE(seen.count("[1]:P2|P3 [2]:P1|P4") == 1 || seen.size() < 6);
}

TEST(Bbr10Small, SameSeedSameMapping)
{
  Problem problem = fixtures::section2_problem(1.0);
  auto run        = [&](std::uint64_t seed) {
    SubsetState state(problem, 1.0);
    state.set_partition({-1, 0, 1, 0}, 2);
    Rng rng(seed);
    bbr10_small(state, rng, false);
    return to_text(state.mapping(), problem.platform);
  };
  EXPECT_EQ(run(5), run(5));
}

} // namespace
} // namespace pipesim

#include "mappers/bbr10/partition_stages.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

namespace pipesim {
namespace {

// w = (4, 1, 3, 2, 6), delta_0..delta_5 = (1, 5, 2, 8, 1, 1).
const Pipeline pipeline{{4, 1, 3, 2, 6}, {1, 5, 2, 8, 1, 1}};

std::vector<int> part(StagePartition how, int l, bool intervals, std::uint64_t seed = 1)
{
  Rng rng(seed);
  return bbr10_partition_stages(how, pipeline, l, intervals, rng);
}

TEST(PartitionStages, PartStwBalancesTheWork)
{
  // general, l = 2, stages by decreasing w: S5 (6) -> A, S1 (4) -> B, S3 (3) -> B (7), S4 (2) -> A (8), S2 (1) -> B
  // (8); subsets renumbered by first stage: {1, 2, 3} = 0, {4, 5} = 1.
  EXPECT_EQ(part(StagePartition::computation, 2, false), (std::vector<int>{-1, 0, 0, 0, 1, 1}));
  // intervals, l = 2: prefix sums 4, 5, 8, 10, 16, target 8: cut after S3.
  EXPECT_EQ(part(StagePartition::computation, 2, true), (std::vector<int>{-1, 0, 0, 0, 1, 1}));
  // l = 3: targets 16/3 and 32/3: cuts after S2 (5) and S4 (10).
  EXPECT_EQ(part(StagePartition::computation, 3, true), (std::vector<int>{-1, 0, 0, 1, 1, 2}));
  EXPECT_EQ(part(StagePartition::computation, 1, false), (std::vector<int>{-1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(part(StagePartition::computation, 5, true), (std::vector<int>{-1, 0, 1, 2, 3, 4}));
}

TEST(PartitionStages, PartStcKeepsTheLargeTransfersLocal)
{
  // general, l = 2, stages by increasing delta_i: S4 (1), S5 (1), S2 (2), S1 (5), S3 (8); each into the subset with
  // the smallest max(work, output data) after adding it:
  //   S4 -> A (tie 2/2, first); S5: A gives max(8, 1), B max(6, 1) -> B; S2: A max(3, 2 + 1) = 3, B 7 -> A;
  //   S1: A {1, 2, 4} max(7, 3) = 7, B 10 -> A; S3: A max(10, 1) = 10, B {3, 5} max(9, 9) = 9 -> B.
  EXPECT_EQ(part(StagePartition::communication, 2, false), (std::vector<int>{-1, 0, 0, 1, 0, 1}));
  // intervals, l = 3: cut after the two smallest delta_i, i < 5: delta_4 = 1 and delta_2 = 2.
  EXPECT_EQ(part(StagePartition::communication, 3, true), (std::vector<int>{-1, 0, 0, 1, 1, 2}));
}

TEST(PartitionStages, PartStrIsSeededRoundRobin)
{
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    auto general = part(StagePartition::random, 2, false, seed);
    EXPECT_EQ(general, part(StagePartition::random, 2, false, seed));
    EXPECT_EQ(bbr10_subset_count(general), 2);
    int first = static_cast<int>(std::count(general.begin() + 1, general.end(), 0));
    EXPECT_TRUE(first == 2 || first == 3) << seed; // round robin: 3 and 2 stages
    auto intervals = part(StagePartition::random, 3, true, seed);
    EXPECT_EQ(bbr10_subset_count(intervals), 3);
    EXPECT_TRUE(std::is_sorted(intervals.begin() + 1, intervals.end())) << seed; // consecutive
  }
  std::set<std::vector<int>> seen;
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    seen.insert(part(StagePartition::random, 2, false, seed));
  EXPECT_GT(seen.size(), 3U);
}

TEST(PartitionStages, LIsClampedToTheStages)
{
  EXPECT_EQ(bbr10_subset_count(part(StagePartition::computation, 9, true)), 5);
  EXPECT_EQ(bbr10_subset_count(part(StagePartition::random, 0, false)), 1);
  EXPECT_STREQ(to_string(StagePartition::communication), "partstc");
}

} // namespace
} // namespace pipesim

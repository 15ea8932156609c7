// The measured period (DESIGN.md §3.9): warm-up, cool-down and, with deal replication, whole rounds of L data sets.
// A pure function: no SimGrid is started.
#include "simulator/simulation.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

namespace {
/// Output times of a dealt execution with L = 3 that repeats every round: data sets 3r, 3r+1, 3r+2 out at
/// 18 r + (14, 14, 18) (the one-dealt-stage example of model/event_graph_deal_test.cpp). Period 18 / 3 = 6.
std::vector<double> rounds_of_three(int n)
{
  std::vector<double> t;
  for (int k = 0; k < n; ++k)
    t.push_back(18.0 * (k / 3) + (k % 3 == 2 ? 18 : 14));
  return t;
}
} // namespace

TEST(MeasuredPeriod, WholeRoundsOfLDataSets)
{
  auto t = rounds_of_three(20);
  // plain: (t_20 - t_10) / 10 = (122 - 68) / 10 = 5.4, off because t_20 and t_10 sit at different places of a round
  EXPECT_DOUBLE_EQ(measured_period(t, 10), 5.4);
  // window 3: K = 10 rounded up to 12, N = 20 down to 18: (t_18 - t_12) / 6 = (108 - 72) / 6 = 6
  EXPECT_DOUBLE_EQ(measured_period(t, 10, 0, 3), 6.0);
  // with a cool-down of 5: N - C = 15, a multiple of 3 already: (t_15 - t_12) / 3 = (90 - 72) / 3 = 6
  EXPECT_DOUBLE_EQ(measured_period(t, 10, 5, 3), 6.0);
  // a warm-up leaving less than a round: the last whole round, (t_18 - t_15) / 3 = 6
  EXPECT_DOUBLE_EQ(measured_period(t, 17, 0, 3), 6.0);
}

TEST(MeasuredPeriod, TooShortForAWholeRoundFallsBackToThePlainFormula)
{
  auto t = rounds_of_three(5); // 14, 14, 18, 32, 32: no two whole rounds
  EXPECT_DOUBLE_EQ(measured_period(t, 2, 0, 3), measured_period(t, 2));
  EXPECT_DOUBLE_EQ(measured_period(t, 2, 0, 1), (32.0 - 14) / 3);
  EXPECT_FALSE(measured_over_whole_rounds(5, 0, 3));
  EXPECT_TRUE(measured_over_whole_rounds(6, 0, 3));  // (t_6 - t_3) / 3
  EXPECT_FALSE(measured_over_whole_rounds(7, 2, 3)); // cool-down 2 leaves 5
  EXPECT_TRUE(measured_over_whole_rounds(2, 0, 1));
  // hedpm Figs. 2-3, run 1550 of seeds 1-10: L = 2,040 on 2,000 data sets
  EXPECT_FALSE(measured_over_whole_rounds(2000, 0, 2040));
  EXPECT_TRUE(measured_over_whole_rounds(4080, 0, 2040));
}

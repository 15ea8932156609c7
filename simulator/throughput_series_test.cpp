// Windows of the throughput series over hand-made output times.
#include "simulator/throughput_series.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

TEST(ThroughputSeries, WindowsOfWDataSets)
{
  // outputs at 1, 2, 3, 5, 7, 9, 12: windows of 2 from t_1, t_3, t_5 (t_7 closes the last one)
  auto w = throughput_series({1, 2, 3, 5, 7, 9, 12}, 2);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].from, 1);
  EXPECT_EQ(w[0].to, 3);
  EXPECT_EQ(w[0].period, 1);
  EXPECT_EQ(w[1].start, 3);
  EXPECT_EQ(w[1].end, 7);
  EXPECT_EQ(w[1].period, 2);
  EXPECT_EQ(w[2].period, 2.5);
  EXPECT_TRUE(throughput_series({1, 2}, 2).empty());
  EXPECT_EQ(throughput_series({1, 2, 4}, 1).size(), 2u);
}

TEST(ThroughputSeries, DefaultWindowIsAboutATwentiethInWholeRounds)
{
  EXPECT_EQ(default_throughput_window(200, 1), 10);
  EXPECT_EQ(default_throughput_window(200, 3), 12); // 10 rounded up to whole rounds of 3
  EXPECT_EQ(default_throughput_window(10, 1), 1);
  EXPECT_EQ(default_throughput_window(10, 4), 4);
}

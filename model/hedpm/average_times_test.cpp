// Tests of hedpm eqs. (3)-(6) on the §4.1 case study's platform, with the hand computations.
#include "model/hedpm/average_times.hpp"

#include <gtest/gtest.h>
#include <numeric>
#include <vector>

namespace pipesim {
namespace {

/// hedpm §4.1: s = (27.41, 1.02, 20.03, 23.34, 1.05, 19.76, 15.57, 14.18), B = 10 and c = 0.1 except the links of
/// P1 (B = 5, c = 0.2), P_in and P_out included; w = (6.01, 1.32, 2.53, 4.04, 20.35, 28.16, 19.17, 12.88), d = 10.
struct CaseStudy {
  Pipeline pipeline{{6.01, 1.32, 2.53, 4.04, 20.35, 28.16, 19.17, 12.88}, std::vector<double>(9, 10.0)};
  Platform platform;
  CaseStudy()
  {
    std::vector<Processor> processors;
    for (double s : {27.41, 1.02, 20.03, 23.34, 1.05, 19.76, 15.57, 14.18})
      processors.push_back(Processor{"P" + std::to_string(processors.size() + 1), s});
    platform = Platform(processors, "in", "out", 10.0, 0.1);
    for (int v = 1; v < platform.nodes(); ++v) {
      platform.set_link(0, v, 5.0, 0.2);
      platform.set_link(v, 0, 5.0, 0.2);
    }
  }
};

std::vector<int> range(int first, int count)
{
  std::vector<int> list(static_cast<std::size_t>(count));
  std::iota(list.begin(), list.end(), first);
  return list;
}

TEST(HedpmAverageTimes, MeanLinksOfTheCaseStudy)
{
  CaseStudy cs;
  // 56 ordered pairs of distinct processors, 14 of them with P1: c̄ = (42 * 0.1 + 14 * 0.2) / 56 = 0.125,
  // B̄ = (42 * 10 + 14 * 5) / 56 = 8.75.
  HedpmMeanLink all = hedpm_mean_link(cs.platform, range(0, 8));
  EXPECT_NEAR(all.c, 0.125, 1e-15);
  EXPECT_DOUBLE_EQ(all.b, 8.75);
  // P4's links to the seven others, P1 among them: c̄ = (6 * 0.1 + 0.2) / 7, B̄ = (6 * 10 + 5) / 7.
  HedpmMeanLink p4 = hedpm_mean_link_of(cs.platform, 3, range(0, 8), true);
  EXPECT_NEAR(p4.c, 0.8 / 7, 1e-15);
  EXPECT_DOUBLE_EQ(p4.b, 65.0 / 7);
  // No other processor: the link from P_in (to P_out).
  HedpmMeanLink alone = hedpm_mean_link_of(cs.platform, 0, std::vector<int>{}, false);
  EXPECT_EQ(alone.c, 0.2);
  EXPECT_EQ(alone.b, 5.0);
}

TEST(HedpmAverageTimes, Equations3To6)
{
  CaseStudy cs;
  HedpmMeanLink all = hedpm_mean_link(cs.platform, range(0, 8));
  double s_mean     = hedpm_mean_speed(cs.platform, range(0, 8));
  EXPECT_DOUBLE_EQ(s_mean, 122.36 / 8); // 15.295
  // eq. (3) for S6: (0.125 + 10/8.75) + 28.16/15.295 + (0.125 + 10/8.75)
  EXPECT_DOUBLE_EQ(hedpm_eq3_stage_time(cs.pipeline, 6, s_mean, all), 2 * (0.125 + 10 / 8.75) + 28.16 / 15.295);
  // eq. (4) for P1: every link of P1 is (0.2, 5): 2 * (0.2 + d̄/5) + w̄/27.41, w̄ = 94.46 / 8, d̄ = 10.
  HedpmMeanLink in  = hedpm_mean_link_of(cs.platform, 0, range(0, 8), true);
  HedpmMeanLink out = hedpm_mean_link_of(cs.platform, 0, range(0, 8), false);
  EXPECT_DOUBLE_EQ(hedpm_eq4_processor_time(27.41, 94.46 / 8, 10, in, out), 4.4 + 94.46 / 8 / 27.41);
  // eq. (5) with P = N: sa = s̄; eq. (6) for the whole instance: 2 (0.125 + 10/8.75) + 11.8075/15.295 = 3.30770.
  EXPECT_DOUBLE_EQ(hedpm_eq5_sa(8, 8, s_mean), s_mean);
  EXPECT_DOUBLE_EQ(hedpm_eq5_sa(3, 1, 2.0), 6.0);
  double tideal = hedpm_eq6_ideal_time(cs.pipeline, cs.platform, range(1, 8), range(0, 8));
  EXPECT_DOUBLE_EQ(tideal, 2 * (0.125 + 10 / 8.75) + 11.8075 / 15.295);
  EXPECT_NEAR(tideal, 3.307699, 1e-6);
  // Stages {1, 4} on processors {P1, P5, P2} (P = 3, N = 2): sa = 3/2 * 29.48/3, w̄ = 5.025; 6 ordered pairs, 4 with
  // P1: c̄ = 1/6, B̄ = 40/6.
  double last = hedpm_eq6_ideal_time(cs.pipeline, cs.platform, std::vector<int>{1, 4}, std::vector<int>{0, 4, 1});
  EXPECT_DOUBLE_EQ(last, 2 * (1.0 / 6 + 10 / (40.0 / 6)) + 5.025 / (1.5 * 29.48 / 3));
}

} // namespace
} // namespace pipesim

// Wilson score intervals against values computed by hand.
#include "validation/evaluation/statistics.hpp"

#include "base/input_error.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

TEST(Wilson, NoSuccessOutOfTen)
{
  // z^2/n = 3.8416/10 = 0.38416, denominator 1.38416. p = 0: center = 0.19208/1.38416 = 0.13877010,
  // half-width = (1.96/1.38416) sqrt(0.38416/40) = 1.41602127 * 0.098 = 0.13877010 -> [0, 0.38416/1.38416].
  auto ci = wilson_interval(0, 10);
  EXPECT_EQ(ci.low, 0.0);
  EXPECT_NEAR(ci.high, 0.27754017, 1e-8);
  // 99 %: z^2/n = 6.635776/10, high = 0.6635776/1.6635776 = 0.39888587.
  EXPECT_NEAR(wilson_interval(0, 10, z_99).high, 0.39888587, 1e-8);
}

TEST(Wilson, TenSuccessesOutOfTen)
{
  // Mirror image of 0/10: [1 - 0.27754017, 1].
  auto ci = wilson_interval(10, 10);
  EXPECT_NEAR(ci.low, 0.72245983, 1e-8);
  EXPECT_EQ(ci.high, 1.0);
}

TEST(Wilson, FiveOutOfTen)
{
  // p = 0.5: center (0.5 + 0.19208)/1.38416 = 0.5; half-width 1.41602127 * sqrt(0.025 + 0.009604)
  // = 1.41602127 * 0.18602150 = 0.26341041 -> [0.23658959, 0.76341041].
  auto ci = wilson_interval(5, 10);
  EXPECT_NEAR(ci.low, 0.23658959, 1e-8);
  EXPECT_NEAR(ci.high, 0.76341041, 1e-8);
  EXPECT_NEAR(ci.low + ci.high, 1.0, 1e-15);
}

TEST(Wilson, NineteenFiftyOutOfTwoThousand)
{
  // p = 0.975, z^2/n = 0.0019208, denominator 1.0019208: center (0.975 + 0.0009604)/1.0019208 = 0.97408937;
  // half-width (1.96/1.0019208) sqrt(0.975 * 0.025/2000 + 3.8416/16e6) = 1.95624244 * sqrt(1.21875e-5 + 2.401e-7)
  // = 1.95624244 * 0.00352528 = 0.00689630 -> [0.96719307, 0.98098567].
  auto ci = wilson_interval(1950, 2000);
  EXPECT_NEAR(ci.low, 0.96719307, 1e-8);
  EXPECT_NEAR(ci.high, 0.98098567, 1e-8);
  // A wider z widens the interval around the same point estimate.
  auto ci99 = wilson_interval(1950, 2000, z_99);
  EXPECT_LT(ci99.low, ci.low);
  EXPECT_GT(ci99.high, ci.high);
}

TEST(Wilson, ZeroTrialsAndBadInput)
{
  auto ci = wilson_interval(0, 0);
  EXPECT_EQ(ci.low, 0.0);
  EXPECT_EQ(ci.high, 1.0);
  EXPECT_THROW(wilson_interval(11, 10), InputError);
  EXPECT_THROW(wilson_interval(-1, 10), InputError);
  EXPECT_THROW(wilson_interval(1, 10, 0.0), InputError);
  try {
    wilson_interval(11, 10);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "key 'simulation.runs': value '10': Wilson interval: 11 successes out of this many trials"),
              std::string::npos);
  }
}

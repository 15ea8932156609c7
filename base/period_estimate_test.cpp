// Period estimates from output times: the periodic rule of deterministic runs, the MSER-5 warm-up, batch means and
// their coverage, windows of L data sets, and the cases without an interval.
#include "base/period_estimate.hpp"

#include "base/random.hpp"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <vector>

namespace pipesim {
namespace {

using ::testing::HasSubstr;

/// Output times from gaps: t_0 = gaps[0], t_k = t_{k-1} + gaps[k].
std::vector<double> times_of(const std::vector<double>& gaps)
{
  std::vector<double> t;
  double now = 0;
  for (double g : gaps)
    t.push_back(now += g);
  return t;
}

/// `transient` gaps of mean `slow`, then gaps of mean `mean`, exponential.
std::vector<double> exponential_gaps(std::uint64_t seed, int count, double mean, int transient = 0, double slow = 0)
{
  Rng rng(seed);
  std::vector<double> gaps;
  for (int k = 0; k < count; ++k)
    gaps.push_back(-(k < transient ? slow : mean) * std::log(1 - rng.uniform01()));
  return gaps;
}

TEST(PeriodEstimate, DeterministicRunThatBecomesPeriodicHasWidthZero)
{
  // 40 gaps of 10, then the cycle (1, 2, 3) forever: t_{k+3} - t_k = 6 from the end of the transient, period 2.
  std::vector<double> gaps(40, 10.0);
  for (int k = 0; k < 300; ++k)
    gaps.push_back(1.0 + k % 3);
  PeriodEstimateOptions o;
  o.deterministic = true;
  auto e          = estimate_period(times_of(gaps), o);
  ASSERT_TRUE(e.ok) << e.reason;
  EXPECT_TRUE(e.periodic);
  EXPECT_EQ(e.cyclicity, 3);
  EXPECT_EQ(e.period, 2.0);
  EXPECT_EQ(e.ci_lo, e.ci_hi);
  EXPECT_EQ(e.relative_half_width(), 0);
  EXPECT_EQ(e.warmup, 39); // t_39 -> t_42 is the first difference of 6 (the gaps 1, 2, 3 after t_39)
  EXPECT_THAT(e.reason, HasSubstr("periodic: t(k+3) - t(k) = 6 for every k >= 39"));
  EXPECT_EQ(e.to_string(), "2 (periodic from data set 39, cyclicity 3)");
}

TEST(PeriodEstimate, DeterministicRunNotYetPeriodicHasNoInterval)
{
  // quasi-periodic gaps (an irrational frequency): stationary-looking, never periodic; a deterministic run gets no
  // interval from batch means
  std::vector<double> gaps;
  for (int k = 0; k < 2000; ++k)
    gaps.push_back(1 + 0.5 * std::sin(k * std::sqrt(2.0)));
  PeriodEstimateOptions o;
  o.deterministic = true;
  auto e          = estimate_period(times_of(gaps), o);
  EXPECT_FALSE(e.ok);
  EXPECT_FALSE(e.periodic);
  EXPECT_THAT(e.reason, HasSubstr("not periodic yet"));
}

TEST(PeriodEstimate, MserFindsTheWarmUpAndTheIntervalHoldsTheMean)
{
  // 300 gaps of mean 6, then 30,000 of mean 2 (exponential): the warm-up found covers the slow start without eating
  // much of the rest (seeds 1 to 12 all find 299 or 319), and the 95 % interval contains 2 (it does for 11 of these
  // 12 seeds; the coverage test below counts).
  auto e = estimate_period(times_of(exponential_gaps(1, 30'300, 2, 300, 6)));
  ASSERT_TRUE(e.ok) << e.reason;
  EXPECT_GE(e.warmup, 295);
  EXPECT_LE(e.warmup, 400);
  EXPECT_LE(e.ci_lo, 2);
  EXPECT_GE(e.ci_hi, 2);
  EXPECT_LT(e.relative_half_width(), 0.02);
  EXPECT_EQ(e.batches, 20);
  EXPECT_EQ(e.confidence, 0.95);
  EXPECT_EQ(e.warmup + e.batches * e.batch_datasets, e.datasets - 1); // batches end at the last output
}

TEST(PeriodEstimate, CoverageOfTheNinetyFivePercentInterval)
{
  // 400 runs of 4,000 i.i.d. exponential gaps of mean 2: about 95 % of the intervals hold 2 (binomial sd 1.1 %).
  int hits = 0, runs = 400;
  for (int seed = 1; seed <= runs; ++seed) {
    auto e = estimate_period(times_of(exponential_gaps(static_cast<std::uint64_t>(seed), 4000, 2)));
    ASSERT_TRUE(e.ok) << "seed " << seed << ": " << e.reason;
    hits += e.ci_lo <= 2 && 2 <= e.ci_hi ? 1 : 0;
  }
  EXPECT_GE(hits, runs * 91 / 100);
  EXPECT_LE(hits, runs * 99 / 100);
}

TEST(PeriodEstimate, WindowsOfLDataSets)
{
  // Deal over 3 replicas: inside a window the gaps are (5, 0, 1) plus noise; per data set the mean gap is 2.
  Rng rng(8);
  std::vector<double> gaps;
  for (int k = 0; k < 30'000; ++k)
    gaps.push_back((k % 3 == 0 ? 5.0 : k % 3 == 1 ? 0.0 : 1.0) + rng.uniform(-0.5, 0.5) * (k % 3 != 1));
  PeriodEstimateOptions o;
  o.window = 3;
  auto e   = estimate_period(times_of(gaps), o);
  ASSERT_TRUE(e.ok) << e.reason;
  EXPECT_EQ(e.warmup % 3, 0);
  EXPECT_EQ(e.batch_datasets % 3, 0);
  EXPECT_NEAR(e.period, 2, 3 * e.half_width());
}

TEST(PeriodEstimate, TooShortOrBadOptionsGiveAReason)
{
  auto few = estimate_period(times_of({1, 1, 1, 1, 1}));
  EXPECT_FALSE(few.ok);
  EXPECT_THAT(few.reason, HasSubstr("4 windows of 1 data set(s): at least 20 are needed"));
  EXPECT_EQ(few.period, 1);
  PeriodEstimateOptions bad;
  bad.confidence = 1;
  EXPECT_THAT(estimate_period(times_of(std::vector<double>(100, 1.0)), bad).reason, HasSubstr("confidence 1"));
  bad         = {};
  bad.batches = 1;
  EXPECT_THAT(estimate_period(times_of(std::vector<double>(100, 1.0)), bad).reason, HasSubstr("at least 2"));
  EXPECT_FALSE(estimate_period({}).ok);
}

} // namespace
} // namespace pipesim

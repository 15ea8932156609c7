// Tests of Range draws: uniform forms unchanged, normal ranges clipped positive with the expected moments.
#include "base/random.hpp"

#include "base/input_error.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace pipesim {
namespace {

struct Moments {
  double mean;
  double sd;
  double min;
};

Moments moments_of(const Range& range, std::uint64_t seed, int count)
{
  Rng rng(seed);
  std::vector<double> xs;
  for (int i = 0; i < count; ++i)
    xs.push_back(range.draw(rng));
  double sum = 0, min = xs[0];
  for (double x : xs) {
    sum += x;
    min = std::min(min, x);
  }
  double mean = sum / count, sq = 0;
  for (double x : xs)
    sq += (x - mean) * (x - mean);
  return {mean, std::sqrt(sq / (count - 1)), min};
}

TEST(Range, UniformFormsAreUnchanged)
{
  Range real{1, 20};
  Range whole{1, 20, true};
  EXPECT_EQ(real, Range::uniform(1, 20));
  EXPECT_EQ(whole, Range::uniform(1, 20, true));
  EXPECT_EQ(Range::fixed(10), (Range{10, 10}));
  EXPECT_TRUE(Range::fixed(10).constant());
  Rng a(5), b(5);
  for (int i = 0; i < 100; ++i) {
    double x = whole.draw(a);
    EXPECT_EQ(x, static_cast<double>(b.integer(1, 20))); // integer ranges use Rng::integer as before
    EXPECT_EQ(x, std::floor(x));
  }
  EXPECT_EQ(real.to_string(), "[1, 20]");
  EXPECT_EQ(whole.to_string(), "[1, 20] integers");
}

TEST(Range, NormalWithSmallSdHasItsMeanAndSd)
{
  // N(10, 1): P(x <= 0) ~ 1e-23, so clipping changes nothing; 200000 draws give a standard error of 0.0022.
  Moments m = moments_of(Range::normal(10, 1), 42, 200000);
  EXPECT_NEAR(m.mean, 10.0, 0.01);
  EXPECT_NEAR(m.sd, 1.0, 0.01);
}

TEST(Range, NormalClippedByRedrawIsTheTruncatedNormal)
{
  // N(10, 5) redrawn until > 0 is N(10, 5) truncated at 0 (alpha = -2, P(x <= 0) = 2.3%):
  //   mean = mu + sigma * lambda, lambda = phi(alpha) / (1 - Phi(alpha)) = 0.05399 / 0.97725 = 0.05525 -> 10.2762
  //   sd = sigma * sqrt(1 + alpha * lambda - lambda^2) = 5 * sqrt(0.88645) = 4.7076
  // Clamping to a minimum instead would give mean ~10.03 with a spike at the minimum.
  Moments m = moments_of(Range::normal(10, 5), 7, 200000); // standard error of the mean 0.0105
  EXPECT_NEAR(m.mean, 10.2762, 0.05);
  EXPECT_NEAR(m.sd, 4.7076, 0.05);
  EXPECT_GT(m.min, 0.0);
}

TEST(Range, NormalNeverDrawsZeroOrLess)
{
  // Mean 1, sd 2: half the raw draws are negative and get redrawn.
  Moments m = moments_of(Range::normal(1, 2), 3, 50000);
  EXPECT_GT(m.min, 0.0);
  Moments hedpm_delta = moments_of(Range::normal(1, 0.5), 9, 200000); // truncated: 1.02762, 0.47076
  EXPECT_NEAR(hedpm_delta.mean, 1.02762, 0.005);
  EXPECT_NEAR(hedpm_delta.sd, 0.47076, 0.005);
  EXPECT_GT(hedpm_delta.min, 0.0);
}

TEST(Range, IntegerNormalIsRoundedAndAtLeastOne)
{
  // round(N(10, 5)) redrawn until >= 1: sum over k >= 1 of k * P(k - 0.5 <= x < k + 0.5) / P(x >= 0.5) = 10.3389,
  // sd 4.6624 (worked out from the normal CDF).
  Range r = Range::normal(10, 5, true);
  Rng rng(11);
  for (int i = 0; i < 10000; ++i) {
    double x = r.draw(rng);
    ASSERT_EQ(x, std::round(x));
    ASSERT_GE(x, 1.0);
  }
  Moments m = moments_of(r, 12, 200000);
  EXPECT_NEAR(m.mean, 10.3389, 0.05);
  EXPECT_NEAR(m.sd, 4.6624, 0.05);
}

TEST(Range, NormalWithZeroSdIsAConstantAndConsumesNothing)
{
  Range r = Range::normal(3.5, 0);
  EXPECT_TRUE(r.constant());
  Rng a(1), b(1);
  EXPECT_EQ(r.draw(a), 3.5);
  EXPECT_EQ(a.next(), b.next());
  EXPECT_EQ(Range::normal(3.5, 0, true).draw(a), 4.0);
}

TEST(Range, SameSeedSameNormalDraws)
{
  Range r = Range::normal(10, 5);
  Rng a(99), b(99);
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(r.draw(a), r.draw(b));
}

TEST(Range, WellFormedAndBounds)
{
  EXPECT_TRUE(Range::normal(10, 5).well_formed());
  EXPECT_TRUE(Range::normal(1, 0.5).positive());
  EXPECT_FALSE(Range::normal(0, 1).well_formed());
  EXPECT_FALSE(Range::normal(-1, 1).well_formed());
  EXPECT_FALSE(Range::normal(1, -1).well_formed());
  EXPECT_FALSE(Range::normal(0.5, 1, true).well_formed()); // integer draws need mean >= 1
  EXPECT_FALSE(Range::normal(1, INFINITY).well_formed());
  EXPECT_EQ(Range::normal(10, 5).lowest(), 0.0);
  EXPECT_EQ(Range::normal(10, 5).highest(), INFINITY);
  EXPECT_TRUE(Range::uniform(0, 1).well_formed());
  EXPECT_FALSE(Range::uniform(0, 1).positive());
  EXPECT_FALSE(Range::uniform(2, 1).well_formed());
  EXPECT_FALSE(Range::uniform(1.2, 1.8, true).well_formed()); // no integer inside
  EXPECT_EQ(Range::normal(10, 5).to_string(), "normal(mean 10, sd 5) > 0");
  EXPECT_EQ(Range::normal(10, 5, true).to_string(), "normal(mean 10, sd 5) > 0 integers");
}

TEST(Range, RedrawCapIsAnInputError)
{
  // Not reachable through parse_range (it requires mean > 0); built directly to check the cap.
  Range r = Range::normal(-100, 1);
  Rng rng(1);
  EXPECT_THROW(r.draw(rng), InputError);
}

} // namespace
} // namespace pipesim

// Unit-mean laws: moments of the draws, the limits on cv and on sample lists, the N.B.U.E. classification, and keyed
// streams that do not depend on the order in which keys are drawn.
#include "base/random_law.hpp"

#include <algorithm>
#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

namespace pipesim {
namespace {

using ::testing::HasSubstr;

std::vector<double> draws(const UnitLaw& law, int count, std::uint64_t seed = 11)
{
  std::vector<double> xs;
  for (int k = 0; k < count; ++k) {
    KeyedStream stream(seed, 0, 3, static_cast<std::uint64_t>(k));
    xs.push_back(law.draw(stream));
  }
  return xs;
}

double mean_of(const std::vector<double>& xs)
{
  double s = 0;
  for (double x : xs)
    s += x;
  return s / static_cast<double>(xs.size());
}

double cv_of(const std::vector<double>& xs)
{
  double m = mean_of(xs), sq = 0;
  for (double x : xs)
    sq += (x - m) * (x - m);
  return std::sqrt(sq / static_cast<double>(xs.size() - 1)) / m;
}

TEST(UnitLaw, DrawsHaveMeanOneAndTheirCv)
{
  // 200,000 draws: the sample mean is within 5 standard errors (cv / sqrt(N)) of 1; the sample cv within 3 %.
  const int n = 200'000;
  for (const UnitLaw& law :
       {UnitLaw::exponential(), UnitLaw::uniform(0.5), UnitLaw::uniform(1 / std::sqrt(3.0)), UnitLaw::lognormal(0.5),
        UnitLaw::lognormal(1), UnitLaw::gamma(0.25), UnitLaw::gamma(1), UnitLaw::gamma(2), UnitLaw::gamma(4)}) {
    auto xs = draws(law, n);
    EXPECT_NEAR(mean_of(xs), 1, 5 * law.cv() / std::sqrt(n)) << law.to_string();
    if (law.cv() <= 2) {
      EXPECT_NEAR(cv_of(xs), law.cv(), 0.03 * law.cv()) << law.to_string();
    }
    EXPECT_GE(*std::min_element(xs.begin(), xs.end()), 0) << law.to_string();
  }
  // heavier tails: check the logarithm (lognormal: normal with sd sqrt(ln(1 + cv^2)))
  auto xs = draws(UnitLaw::lognormal(5), n);
  std::vector<double> logs;
  for (double x : xs)
    logs.push_back(std::log(x));
  const double sigma = std::sqrt(std::log1p(25.0));
  EXPECT_NEAR(mean_of(logs), -sigma * sigma / 2, 5 * sigma / std::sqrt(n));
  EXPECT_NEAR(cv_of(logs) * mean_of(logs), sigma, 0.01 * sigma); // the standard deviation
  // exponential: P(X > 1) = 1/e
  auto ex    = draws(UnitLaw::exponential(), n);
  auto above = std::count_if(ex.begin(), ex.end(), [](double x) { return x > 1; });
  EXPECT_NEAR(static_cast<double>(above) / n, std::exp(-1.0), 0.005);
}

TEST(UnitLaw, UniformStaysInItsSpanAndConstantsDrawNothing)
{
  auto xs = draws(UnitLaw::uniform(0.4), 10'000);
  EXPECT_GE(*std::min_element(xs.begin(), xs.end()), 1 - std::sqrt(3.0) * 0.4);
  EXPECT_LE(*std::max_element(xs.begin(), xs.end()), 1 + std::sqrt(3.0) * 0.4);
  for (const UnitLaw& law : {UnitLaw(), UnitLaw::uniform(0), UnitLaw::lognormal(0), UnitLaw::gamma(0)}) {
    EXPECT_TRUE(law.constant()) << law.to_string();
    KeyedStream stream(1, 0, 1, 0), fresh(1, 0, 1, 0);
    EXPECT_EQ(law.draw(stream), 1.0);
    EXPECT_EQ(stream.next(), fresh.next()) << "a constant law consumed a number";
  }
}

TEST(UnitLaw, EmpiricalDrawsTheSamplesScaledToMeanOne)
{
  auto law = UnitLaw::empirical({2, 4, 6, 8}, "times.txt"); // mean 5
  EXPECT_EQ(law.law(), Law::empirical);
  EXPECT_NEAR(law.cv(), std::sqrt(5.0) / 5, 1e-12); // population sd of 2, 4, 6, 8 is sqrt(5)
  auto xs = draws(law, 40'000);
  for (double value : {0.4, 0.8, 1.2, 1.6}) {
    auto hits = std::count_if(xs.begin(), xs.end(), [&](double x) { return std::abs(x - value) < 1e-12; });
    EXPECT_NEAR(static_cast<double>(hits) / 40'000, 0.25, 0.01) << value;
  }
  EXPECT_EQ(law.to_string(), "empirical(times.txt: 4 samples, cv 0.447)");
}

TEST(UnitLaw, CvLimitsSayWhy)
{
  EXPECT_THAT(*UnitLaw::cv_error(Law::exponential, 1), HasSubstr("takes no cv (its cv is 1)"));
  EXPECT_THAT(*UnitLaw::cv_error(Law::deterministic, 0.1), HasSubstr("takes no cv"));
  EXPECT_THAT(*UnitLaw::cv_error(Law::empirical, 0.1), HasSubstr("that of its samples"));
  EXPECT_THAT(*UnitLaw::cv_error(Law::uniform, 0.6), HasSubstr("must not go below 0"));
  EXPECT_FALSE(UnitLaw::cv_error(Law::uniform, 1 / std::sqrt(3.0)));
  EXPECT_THAT(*UnitLaw::cv_error(Law::lognormal, 10.5), HasSubstr("expected a cv in [0, 10]"));
  EXPECT_THAT(*UnitLaw::cv_error(Law::gamma, 11), HasSubstr("underflow"));
  for (double bad : {-0.1, std::nan(""), std::numeric_limits<double>::infinity()})
    for (Law law : {Law::uniform, Law::lognormal, Law::gamma})
      EXPECT_TRUE(UnitLaw::cv_error(law, bad)) << law << " " << bad;
  EXPECT_FALSE(UnitLaw::cv_error(Law::gamma, 10));
  EXPECT_THROW(UnitLaw::gamma(12), InputError);
}

TEST(UnitLaw, GammaAtTheCvLimitStillHasMeanOne)
{
  // cv = 10: shape 0.01, the U^(1/shape) branch; the mean of 10^6 draws has a standard error of 1 %
  auto xs = draws(UnitLaw::gamma(10), 1'000'000, 5);
  EXPECT_NEAR(mean_of(xs), 1, 0.05);
  auto tiny = std::count_if(xs.begin(), xs.end(), [](double x) { return x < 1e-300; });
  EXPECT_NEAR(static_cast<double>(tiny) / 1e6, 9.6e-4,
              3e-4); // P(X < 1e-300) = (1e-300 shape)^shape / Gamma(1 + shape) = 9.6e-4
}

TEST(UnitLaw, SampleListsThatCannotMakeALaw)
{
  EXPECT_THAT(*UnitLaw::samples_error({}), HasSubstr("no samples"));
  EXPECT_THAT(*UnitLaw::samples_error({1, -2, 3}), HasSubstr("sample 2 is -2"));
  EXPECT_THAT(*UnitLaw::samples_error({1, std::nan("")}), HasSubstr("sample 2 is nan"));
  EXPECT_THAT(*UnitLaw::samples_error({0, 0}), HasSubstr("every sample is 0"));
  EXPECT_FALSE(UnitLaw::samples_error({0, 3}));
  EXPECT_THROW(UnitLaw::empirical({}, "x"), InputError);
}

TEST(UnitLaw, NbueClassification)
{
  EXPECT_TRUE(UnitLaw().nbue());
  EXPECT_TRUE(UnitLaw::exponential().nbue());
  EXPECT_TRUE(UnitLaw::uniform(0.5).nbue());
  EXPECT_TRUE(UnitLaw::gamma(1).nbue());
  EXPECT_TRUE(UnitLaw::gamma(0.3).nbue());
  EXPECT_FALSE(UnitLaw::gamma(1.01).nbue());
  EXPECT_FALSE(UnitLaw::lognormal(0.1).nbue());
  EXPECT_TRUE(UnitLaw::lognormal(0).nbue());
  // {1, 2, 3}: mean residual life at t = 1 is (1 + 2) / 2 = 1.5, at 2 it is 1: below the mean 2 everywhere
  EXPECT_TRUE(nbue_holds_for({3, 1, 2}));
  // {1, 1, 1, 10}: at t = 1 the residual life is 9 > mean 3.25
  EXPECT_FALSE(nbue_holds_for({1, 1, 1, 10}));
  EXPECT_TRUE(nbue_holds_for({5, 5}));
  EXPECT_FALSE(UnitLaw::empirical({1, 1, 1, 10}, "f").nbue());
  // a grid 1..100 (discrete uniform) is; the quantiles of Exp(1) are not: at the second largest, q_999 - q_998 =
  // ln 3 > 1 remains (an exponential's boundary case is lost at its discretised tail)
  std::vector<double> grid, quantiles;
  for (int i = 0; i < 1000; ++i) {
    grid.push_back(1 + i % 100);
    quantiles.push_back(-std::log(1 - (i + 0.5) / 1000));
  }
  EXPECT_TRUE(nbue_holds_for(grid));
  EXPECT_FALSE(nbue_holds_for(quantiles));
}

/// Kolmogorov-Smirnov distance between the empirical law of `xs` and `cdf`.
template <class Cdf>
double ks_distance(std::vector<double> xs, Cdf cdf)
{
  std::sort(xs.begin(), xs.end());
  const auto n = static_cast<double>(xs.size());
  double d     = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double f = cdf(xs[i]);
    d              = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

TEST(KeyedStream, ZigguratDrawsFollowTheirLaws)
{
  // 200,000 draws (keys k = 0..N-1, one draw each, and 2,000 keys of 100 draws): Kolmogorov-Smirnov distance below
  // 1.95 / sqrt(N) (the 0.1 % critical value), tails included (the exponential's beyond r = 7.7 occur once in 2,200).
  const int n = 200'000;
  std::vector<double> ex, no, ex_many, no_many;
  for (int k = 0; k < n; ++k) {
    KeyedStream a(1, 0, 0, static_cast<std::uint64_t>(k)), b(2, 0, 0, static_cast<std::uint64_t>(k));
    ex.push_back(a.exponential());
    no.push_back(b.normal());
  }
  for (int k = 0; k < n / 100; ++k) {
    KeyedStream a(3, 0, 0, static_cast<std::uint64_t>(k));
    for (int j = 0; j < 100; ++j) {
      ex_many.push_back(a.exponential());
      no_many.push_back(a.normal());
    }
  }
  auto exp_cdf          = [](double x) { return x <= 0 ? 0.0 : -std::expm1(-x); };
  auto normal_cdf       = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  const double critical = 1.95 / std::sqrt(n);
  EXPECT_LT(ks_distance(ex, exp_cdf), critical);
  EXPECT_LT(ks_distance(no, normal_cdf), critical);
  EXPECT_LT(ks_distance(ex_many, exp_cdf), critical);
  EXPECT_LT(ks_distance(no_many, normal_cdf), critical);
  auto tail = std::count_if(ex.begin(), ex.end(), [](double x) { return x > 7.7; });
  EXPECT_NEAR(static_cast<double>(tail), n * std::exp(-7.7), 5 * std::sqrt(n * std::exp(-7.7)));
  EXPECT_NEAR(mean_of(no), 0, 5 / std::sqrt(n));
}

TEST(KeyedStream, DependsOnTheKeyOnlyNotOnTheOrderOfRequests)
{
  auto first = [](std::uint64_t seed, std::uint64_t what, std::uint64_t i, std::uint64_t k) {
    KeyedStream s(seed, what, i, k);
    return s.next();
  };
  std::vector<std::uint64_t> forward, backward;
  for (std::uint64_t k = 0; k < 100; ++k)
    forward.push_back(first(7, 1, 2, k));
  for (std::uint64_t k = 100; k-- > 0;)
    backward.push_back(first(7, 1, 2, k));
  std::reverse(backward.begin(), backward.end());
  EXPECT_EQ(forward, backward);
  // every component of the key matters
  EXPECT_NE(first(7, 1, 2, 5), first(8, 1, 2, 5));
  EXPECT_NE(first(7, 1, 2, 5), first(7, 0, 2, 5));
  EXPECT_NE(first(7, 1, 2, 5), first(7, 1, 3, 5));
  EXPECT_NE(first(7, 1, 2, 5), first(7, 1, 2, 6));
}

TEST(KeyedStream, NeighbouringKeysAreUncorrelated)
{
  // Pearson correlation of uniforms of keys (i, k) and (i + 1, k), and (i, k) and (i, k + 1), over 100,000 k:
  // |r| < 4 / sqrt(N) = 0.0126.
  const int n      = 100'000;
  double sxy_stage = 0, sxy_next = 0, sx = 0, sxx = 0;
  auto u = [](std::uint64_t i, std::uint64_t k) {
    KeyedStream s(3, 0, i, k);
    return s.uniform01() - 0.5;
  };
  for (int k = 0; k < n; ++k) {
    double x = u(1, static_cast<std::uint64_t>(k));
    sx += x;
    sxx += x * x;
    sxy_stage += x * u(2, static_cast<std::uint64_t>(k));
    sxy_next += x * u(1, static_cast<std::uint64_t>(k) + 1);
  }
  const double var = sxx / n - (sx / n) * (sx / n); // 1/12
  EXPECT_NEAR(var, 1.0 / 12, 0.002);
  EXPECT_LT(std::abs(sxy_stage / n / var), 4 / std::sqrt(n));
  EXPECT_LT(std::abs(sxy_next / n / var), 4 / std::sqrt(n));
}

} // namespace
} // namespace pipesim

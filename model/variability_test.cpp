// Per-data-set values: the means when deterministic, bit-identical reruns whatever the order of requests, common
// random numbers across pipelines, per-stage laws, and the N.B.U.E. summary.
#include "model/variability.hpp"

#include "base/input_error.hpp"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <vector>

using namespace pipesim;
using ::testing::HasSubstr;

namespace {

const Pipeline pipeline{{2, 3, 5}, {7, 11, 13, 17}};

VariabilitySpec exponential_everywhere()
{
  VariabilitySpec spec;
  spec.work = UnitLaw::exponential();
  spec.size = UnitLaw::exponential();
  return spec;
}

/// Every value of data sets 0..count-1, asked stage by stage or data set by data set (backwards).
std::vector<double> values(const Variability& v, int count, bool backwards)
{
  std::vector<double> out(static_cast<std::size_t>(count * 7));
  for (int step = 0; step < count * 7; ++step) {
    int at = backwards ? count * 7 - 1 - step : step;
    int k = at / 7, q = at % 7;
    out[static_cast<std::size_t>(at)] = q < 3 ? v.work(q + 1, k) : v.size(q - 3, k);
  }
  return out;
}

} // namespace

TEST(Variability, DeterministicGivesTheMeans)
{
  Variability v(pipeline);
  EXPECT_TRUE(v.deterministic());
  for (long long k : {0LL, 5LL, 1'000'000'000'000LL}) {
    EXPECT_EQ(v.work(2, k), 3);
    EXPECT_EQ(v.work(1, 3, k), 10);
    EXPECT_EQ(v.size(0, k), 7);
    EXPECT_EQ(v.size(3, k), 17);
  }
  EXPECT_EQ(v.to_string(), "deterministic");
  EXPECT_FALSE(v.first_not_nbue());
}

TEST(Variability, RerunsAreBitIdenticalWhateverTheOrderOfRequests)
{
  Variability a(pipeline, exponential_everywhere(), 42), b(pipeline, exponential_everywhere(), 42);
  auto forward = values(a, 50, false);
  EXPECT_EQ(forward, values(b, 50, true));
  EXPECT_EQ(forward, values(a, 50, false)); // asking again changes nothing
  Variability other(pipeline, exponential_everywhere(), 43);
  EXPECT_NE(forward, values(other, 50, false));
  EXPECT_FALSE(a.deterministic());
  EXPECT_EQ(a.work(1, 3, 9), a.work(1, 9) + a.work(2, 9) + a.work(3, 9));
}

TEST(Variability, CommonRandomNumbersAcrossMeans)
{
  // The draw of (seed, stage, k) does not depend on the mean: doubling every w doubles every value.
  Pipeline doubled = pipeline;
  for (double& w : doubled.w)
    w *= 2;
  Variability a(pipeline, exponential_everywhere(), 7), b(doubled, exponential_everywhere(), 7);
  for (long long k = 0; k < 20; ++k)
    for (int i = 1; i <= 3; ++i)
      EXPECT_EQ(b.work(i, k), 2 * a.work(i, k));
}

TEST(Variability, MeansAreKeptOverManyDataSets)
{
  VariabilitySpec spec;
  spec.work = UnitLaw::gamma(0.5);
  spec.size = UnitLaw::uniform(0.3);
  Variability v(pipeline, spec, 1);
  const int n = 100'000;
  double w2 = 0, d1 = 0;
  for (long long k = 0; k < n; ++k) {
    w2 += v.work(2, k);
    d1 += v.size(1, k);
  }
  EXPECT_NEAR(w2 / n, 3, 5 * 3 * 0.5 / std::sqrt(n));
  EXPECT_NEAR(d1 / n, 11, 5 * 11 * 0.3 / std::sqrt(n));
}

TEST(Variability, PerStageLawsAndTheirChecks)
{
  VariabilitySpec spec;
  spec.work_of[2] = UnitLaw::lognormal(0.5);
  spec.size_of[0] = UnitLaw::exponential();
  Variability v(pipeline, spec, 3);
  EXPECT_TRUE(v.work_law(1).constant());
  EXPECT_EQ(v.work_law(2).law(), Law::lognormal);
  EXPECT_EQ(v.size_law(0).law(), Law::exponential);
  EXPECT_TRUE(v.size_law(1).constant());
  EXPECT_EQ(v.work(1, 4), 2);
  EXPECT_NE(v.work(2, 4), 3);
  EXPECT_EQ(*v.first_not_nbue(), "w_2: lognormal(cv 0.5)");
  EXPECT_EQ(v.to_string(), "w: deterministic; w_2: lognormal(cv 0.5), delta: deterministic; delta_0: exponential "
                           "(seed 3)");
  spec.work_of[4] = UnitLaw::exponential();
  EXPECT_THAT([&] { Variability(pipeline, spec, 3); },
              testing::ThrowsMessage<InputError>(
                  HasSubstr("key 'pipeline.variability.stages.4': value '4': no stage of this number")));
  spec.work_of.erase(4);
  spec.size_of[-1] = UnitLaw::exponential();
  EXPECT_THROW(Variability(pipeline, spec, 3), InputError);
  EXPECT_FALSE(spec.deterministic());
  EXPECT_TRUE(VariabilitySpec{}.deterministic());
}

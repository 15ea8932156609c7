// The one-call summary of random operation times on a two-stage line: the means' period, the max-plus estimate, the
// exact exponential period and the bracket, and what it leaves out for laws where the chain says nothing.
#include "model/random_times.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace pipesim;
using ::testing::HasSubstr;

namespace {

struct TwoStages {
  Pipeline pipeline{{1, 1}, {0, 0, 0}};
  Platform platform{{{"P1"}, {"P2"}}, "in", "out", 1.0, 0.0};
  EventGraph graph = build_oneport_event_graph(pipeline, platform, make_interval_mapping({{1, 1}, {2, 2}}, {0, 1}));
};

} // namespace

TEST(RandomTimes, ExponentialTwoStageLine)
{
  // Means 1 and 1: deterministic period 1; exponential throughput 2/3 (exponential_period_test.cpp): period 1.5.
  TwoStages line;
  VariabilitySpec spec;
  spec.work = UnitLaw::exponential();
  Variability v(line.pipeline, spec, 4);
  RandomTimesOptions o;
  o.maxplus.datasets = 100'000;
  auto s             = analyze_random_times(line.graph, v, o);
  EXPECT_NEAR(*s.deterministic_period, 1, 1e-12);
  ASSERT_TRUE(s.exponential.period) << s.exponential.reason;
  EXPECT_NEAR(*s.exponential.period, 1.5, 1e-10);
  EXPECT_FALSE(s.exponential_mismatch);
  ASSERT_TRUE(s.maxplus.estimate.ok) << s.maxplus.estimate.reason;
  EXPECT_NEAR(s.maxplus.estimate.period, 1.5, 3 * s.maxplus.estimate.half_width());
  EXPECT_TRUE(s.maxplus.output_times.empty());
  EXPECT_TRUE(s.bracket.applies);
  EXPECT_EQ(s.bracket.lower, *s.deterministic_period);
  EXPECT_EQ(*s.bracket.upper, *s.exponential.period);
  EXPECT_TRUE(s.bracket.independent);
  const std::string text = s.to_string();
  EXPECT_THAT(text, HasSubstr("deterministic period  1\n"));
  EXPECT_THAT(text, HasSubstr("exponential period    1.5 (3 states"));
  EXPECT_THAT(text, HasSubstr("(exact for these laws)"));
  EXPECT_THAT(text, HasSubstr("N.B.U.E. bracket      1 <= period <= 1.5"));
}

TEST(RandomTimes, LognormalLawsGetNoChain)
{
  TwoStages line;
  VariabilitySpec spec;
  spec.work = UnitLaw::lognormal(1);
  Variability v(line.pipeline, spec, 4);
  RandomTimesOptions o;
  o.maxplus.datasets  = 20'000;
  o.keep_output_times = true;
  auto s              = analyze_random_times(line.graph, v, o);
  EXPECT_FALSE(s.exponential.period);
  EXPECT_THAT(s.exponential.reason, HasSubstr("w_1: lognormal(cv 1) is not N.B.U.E."));
  EXPECT_FALSE(s.bracket.applies);
  EXPECT_EQ(s.maxplus.output_times.size(), 20'000u);
  EXPECT_GT(s.maxplus.estimate.period, *s.deterministic_period); // Jensen: random times never make it faster
}

TEST(RandomTimes, DeterministicLawsAreExactEverywhere)
{
  TwoStages line;
  line.pipeline.w = {1, 2};
  line.graph = build_oneport_event_graph(line.pipeline, line.platform, make_interval_mapping({{1, 1}, {2, 2}}, {0, 1}));
  auto s     = analyze_random_times(line.graph, Variability(line.pipeline));
  EXPECT_TRUE(s.maxplus.estimate.periodic);
  EXPECT_NEAR(s.maxplus.estimate.period, 2, 1e-12);
  EXPECT_NEAR(*s.deterministic_period, 2, 1e-12);
  EXPECT_TRUE(s.bracket.applies);
  EXPECT_FALSE(s.bracket.upper);
  EXPECT_FALSE(s.exponential.period);
  EXPECT_THAT(s.exponential.reason, HasSubstr("every law is deterministic"));
  EXPECT_THAT(*s.exponential_mismatch, HasSubstr("w_1 is deterministic"));
}

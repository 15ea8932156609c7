// Algorithmica 2014 §5 on pipesim's graphs: with N.B.U.E. laws the max-plus period (with its interval) lies between the
// deterministic and the exponential periods, on random mappings; where the chain is exact (exponential laws, no
// latency, no shared draw) the max-plus estimate finds the exponential period.
#include "model/exponential_period.hpp"

#include "model/maxplus.hpp"
#include "model/multiport_event_graph.hpp"
#include "model/test_fixtures.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <iostream>

using namespace pipesim;
using ::testing::HasSubstr;

namespace {

/// N.B.U.E. laws, a different mix per seed.
VariabilitySpec nbue_laws(std::uint64_t seed)
{
  VariabilitySpec spec;
  switch (seed % 4) {
  case 0:
    spec.work = UnitLaw::exponential();
    spec.size = UnitLaw::exponential();
    break;
  case 1:
    spec.work = UnitLaw::uniform(0.5);
    spec.size = UnitLaw::gamma(0.7);
    break;
  case 2:
    spec.work = UnitLaw::gamma(1);
    break;
  default:
    spec.work = UnitLaw::empirical({1, 2, 3, 4}, "grid");
    spec.size = UnitLaw::exponential();
  }
  return spec;
}

/// A one-to-one line of n stages on processors of speed 1, exponential work and sizes, no latency; one-port or
/// multi-port with `buffer` slots.
EventGraph exponential_line(const std::vector<double>& w, double bytes, int buffer)
{
  std::vector<Processor> procs;
  std::vector<std::pair<int, int>> intervals;
  std::vector<int> alloc;
  for (std::size_t i = 0; i < w.size(); ++i) {
    procs.push_back(Processor{"P" + std::to_string(i + 1)});
    intervals.push_back({static_cast<int>(i) + 1, static_cast<int>(i) + 1});
    alloc.push_back(static_cast<int>(i));
  }
  Pipeline pipeline{w, std::vector<double>(w.size() + 1, bytes)};
  Platform platform(procs, "in", "out", 2.0, 0.0);
  Mapping mapping = make_interval_mapping(intervals, alloc);
  return buffer == 0 ? build_oneport_event_graph(pipeline, platform, mapping)
                     : build_multiport_event_graph(pipeline, platform, mapping, buffer);
}

} // namespace

TEST(NbueBracket, MaxPlusPeriodLiesBetweenTheDeterministicAndExponentialPeriods)
{
  // 100 random mappings of every kind (1..3 stages, 2..5 processors) under N.B.U.E. laws: the max-plus estimate
  // over 40,000 data sets lies in [lower, upper] up to 3 half-widths of its 95 % interval. Cases whose chain has more
  // than 200,000 states are skipped (counted).
  int checked = 0, shared = 0;
  ExponentialOptions options;
  options.max_states = 200'000;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    auto c = fixtures::random_graph_case(seed, 3, 5);
    Variability v(c.inst.pipeline, nbue_laws(seed), seed);
    auto bracket = nbue_bracket(c.graph, v, options);
    ASSERT_TRUE(bracket.applies) << c.text << ": " << bracket.reason;
    if (!bracket.upper) continue;
    ASSERT_LE(bracket.lower, *bracket.upper * (1 + 1e-9)) << c.text;
    MaxPlusOptions o;
    o.datasets = 40'000;
    auto e     = maxplus_period(c.graph, v, o).estimate;
    ASSERT_TRUE(e.ok) << c.text << ": " << e.reason;
    const double slack = 3 * e.half_width() + 1e-9 * bracket.lower; // a deterministic bottleneck: width 0
    EXPECT_GE(e.period, bracket.lower - slack) << c.text << "\n" << bracket.to_string() << "\n" << e.to_string();
    EXPECT_LE(e.period, *bracket.upper + slack) << c.text << "\n" << bracket.to_string() << "\n" << e.to_string();
    ++checked;
    shared += bracket.independent ? 0 : 1;
  }
  EXPECT_GE(checked, 80);
  std::cout << checked << " mappings checked, " << shared << " with shared draws (active replication)\n";
}

TEST(NbueBracket, NotNbueLawsAreNamed)
{
  auto c = fixtures::random_graph_case(6, 3, 4);
  VariabilitySpec spec;
  spec.work_of[1] = UnitLaw::lognormal(0.3);
  Variability v(c.inst.pipeline, spec, 1);
  auto b = nbue_bracket(c.graph, v);
  EXPECT_FALSE(b.applies);
  EXPECT_THAT(b.reason, HasSubstr("w_1: lognormal(cv 0.3) is not N.B.U.E."));
  EXPECT_FALSE(b.upper);
  spec.work_of[1] = UnitLaw::gamma(1.5);
  EXPECT_THAT(nbue_bracket(c.graph, Variability(c.inst.pipeline, spec, 1)).reason, HasSubstr("gamma(cv 1.5)"));
}

TEST(NbueBracket, ExactExponentialCasesAgreeWithTheMaxPlusEstimate)
{
  // Exponential work and sizes, no latency, one stage per processor: the chain is the execution itself, so the
  // max-plus estimate over 200,000 data sets holds the exponential period within 3 half-widths.
  for (int buffer : {0, 1, 2}) {
    auto g = exponential_line({1, 1.5, 0.7}, 1, buffer);
    Pipeline means{{1, 1.5, 0.7}, {1, 1, 1, 1}};
    VariabilitySpec spec;
    spec.work = UnitLaw::exponential();
    spec.size = UnitLaw::exponential();
    Variability v(means, spec, 77);
    ASSERT_FALSE(exponential_mismatch(g, v)) << *exponential_mismatch(g, v);
    auto exact = exponential_period(g);
    ASSERT_TRUE(exact.period) << exact.reason;
    MaxPlusOptions o;
    o.datasets = 200'000;
    auto e     = maxplus_period(g, v, o).estimate;
    EXPECT_NEAR(e.period, *exact.period, 3 * e.half_width()) << "buffer " << buffer << ": " << e.to_string();
    std::cout << "buffer " << buffer << ": exponential " << exact.to_string() << ", max-plus " << e.to_string() << "\n";
  }
}

TEST(NbueBracket, MismatchSaysWhyTheChainIsNotTheExecution)
{
  auto g = exponential_line({1, 2}, 1, 0);
  Pipeline means{{1, 2}, {1, 1, 1}};
  VariabilitySpec spec;
  spec.work = UnitLaw::exponential();
  EXPECT_THAT(*exponential_mismatch(g, Variability(means, spec, 1)), HasSubstr("delta_0 is deterministic"));
  spec.size       = UnitLaw::exponential();
  spec.work_of[2] = UnitLaw::gamma(1);
  EXPECT_THAT(*exponential_mismatch(g, Variability(means, spec, 1)), HasSubstr("w_2 is gamma(cv 1)"));
  // active replication: both replicas compute the same draw of w_1
  Pipeline one{{1}, {0, 0}};
  Platform two({{"A"}, {"B"}}, "in", "out", 1.0, 0.0);
  Mapping active{{fixtures::interval(1, 1, {0, 1}, Replication::active)}};
  auto shared = build_oneport_event_graph(one, two, active);
  VariabilitySpec exp;
  exp.work = UnitLaw::exponential();
  EXPECT_THAT(*exponential_mismatch(shared, Variability(one, exp, 1)),
              HasSubstr("w_1 of a data set feeds C[A] S1-1 and C[B] S1-1"));
  EXPECT_FALSE(nbue_bracket(shared, Variability(one, exp, 1)).independent);
}

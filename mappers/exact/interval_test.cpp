// Tests of exact.interval: hand-checked instances, both searches and both directions against the exhaustive
// reference on thousands of seeded tiny instances, Theorem 1, refusals and the time limit.
#include "mappers/exact/interval.hpp"

#include "base/random.hpp"
#include "mappers/exact/comm_hom_search.hpp"
#include "mappers/exact/hetero_search.hpp"
#include "mappers/exact/interval_fixtures.hpp"
#include "mappers/exact/max_addend.hpp"
#include "model/analytic.hpp"

#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <limits>

namespace pipesim {
namespace {

using fixtures::LinkKind;

/// n = 3, w = (6, 2, 5), delta = (1, 4, 1, 1), b = 1, s = (3, 1, 2). Cycle-time of [d, e] on s:
/// delta_{d-1} + W/s + delta_e. [1]: 5 + 6/s >= 7; [2-3]: 5 + 7/s >= 7.33; [1-3]: 2 + 13/3 = 6.33;
/// [1-2]: 2 + 8/s = 4.67 (s = 3), 6, 10; [3]: 2 + 5/s = 3.67, 4.5 (s = 2), 7.
/// Best: [1-2] on P1 (4.67) and [3] on P3 (4.5): period 1 + 8/3 + 1 = 4.67. Every one-to-one mapping puts S1
/// somewhere (>= 7): the interval optimum beats Theorem 1's 7 although n = p.
Problem interval_hand_instance(double c = 0)
{
  Problem problem;
  problem.pipeline = Pipeline{{6, 2, 5}, {1, 4, 1, 1}};
  problem.platform = fixtures::uniform_platform({3, 1, 2}, 1.0, c);
  return problem;
}

TEST(ExactInterval, HandCheckedCommunicationHomogeneousInstance)
{
  Problem problem = interval_hand_instance();
  ASSERT_EQ(problem.platform.classify(), PlatformClass::communication_homogeneous);
  MapperResult result = run_mapper("exact.interval", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::optimal);
  EXPECT_EQ(result.objective, 1.0 + 8.0 / 3.0 + 1.0);
  EXPECT_EQ(to_text(result.mapping, problem.platform),
            to_text(make_interval_mapping({{1, 2}, {3, 3}}, {0, 2}), problem.platform));
  EXPECT_EQ(result.statistics.at("directions"), 1.0);
  EXPECT_EQ(run_mapper("br07.one-to-one", problem, MapperOptions{}).objective, 7.0);

  // An equal latency c = 0.5 on every link adds 2c to every cycle-time: same mapping, period + 1.
  Problem latencies    = interval_hand_instance(0.5);
  MapperResult shifted = run_mapper("exact.interval", latencies, MapperOptions{});
  EXPECT_EQ(shifted.objective, 0.5 + 1.0 + 8.0 / 3.0 + (0.5 + 1.0));
  EXPECT_EQ(to_text(shifted.mapping, problem.platform), to_text(result.mapping, problem.platform));
}

TEST(ExactInterval, HandCheckedFullyHeterogeneousInstance)
{
  // br07 §2.3.3's second example with delta_3 = 8 (see exhaustive/interval_test.cpp for the six mappings):
  // P_in = P_out = P0, s = (1, 10), b_{0,1} = 10 both ways, other links 1; w = (1, 10, 1), delta = (10, 1, 1, 8).
  // The optimum is [1]:P1 [2-3]:P2 with period max(1 + 1 + 1, 1 + 11/10 + 8) = 10.1.
  Problem problem;
  problem.pipeline = Pipeline{{1, 10, 1}, {10, 1, 1, 8}};
  problem.platform = fixtures::uniform_platform({1, 10}, 1.0);
  problem.platform = Platform(problem.platform.processors(), "P0", "P0", 1.0);
  problem.platform.set_link(problem.platform.in(), 0, 10.0, 0.0);
  problem.platform.set_link(0, problem.platform.out(), 10.0, 0.0);
  MapperResult result = run_mapper("exact.interval", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::optimal);
  EXPECT_EQ(result.objective, 1.0 / 1.0 + 11.0 / 10.0 + 8.0 / 1.0);
  EXPECT_EQ(to_text(result.mapping, problem.platform),
            to_text(make_interval_mapping({{1, 1}, {2, 3}}, {0, 1}), problem.platform));
  EXPECT_EQ(result.statistics.at("directions"), 2.0);
}

TEST(ExactInterval, MaxAddendIsTheLargestAddendThatFits)
{
  for (double a : {0.0, 0.1, 1.0 / 3.0, 7.25, 1e-300, 12345.678, -2.5})
    for (double bound : {0.0, 0.3, 1.0, 19.3124677, 1e6}) {
      double y = exact::max_addend(a, bound);
      EXPECT_LE(a + y, bound) << a << " " << bound;
      EXPECT_GT(a + std::nextafter(y, std::numeric_limits<double>::infinity()), bound) << a << " " << bound;
    }
  EXPECT_EQ(exact::max_addend(3.0, std::numeric_limits<double>::infinity()), std::numeric_limits<double>::infinity());
}

/// Solves with one search alone, without the probes (a single branch and bound from +inf).
double alone(exact::PeriodSearch& search)
{
  Deadline deadline(60);
  exact::SearchOutcome outcome = search.minimize(std::numeric_limits<double>::infinity(), {&deadline});
  EXPECT_TRUE(outcome.complete);
  return outcome.period;
}

TEST(ExactInterval, RandomizedStressTestAgainstExhaustive)
{
  // 4 kinds x 2 latency settings x 500 seeds = 4000 instances, n <= 6, p <= 5.
  for (LinkKind kind : {LinkKind::fully_homogeneous, LinkKind::communication_homogeneous, LinkKind::mixed_latencies,
                        LinkKind::fully_heterogeneous})
    for (bool latencies : {false, true})
      for (std::uint64_t seed = 1; seed <= 500 && not HasFailure(); ++seed) {
        Problem problem    = fixtures::tiny_instance(seed, kind, latencies, 6, 5);
        MapperResult exact = run_mapper("exact.interval", problem, MapperOptions{});
        MapperResult brute = run_mapper("exhaustive.interval", problem, MapperOptions{});
        std::string text   = fmt::format("{} (latencies: {})\n{}\n  exact.interval: {} period {}\n  exhaustive: {} "
                                           "period {}",
                                         fixtures::to_string(kind), latencies, fixtures::describe(seed, problem),
                                         to_text(exact.mapping, problem.platform), exact.objective,
                                         to_text(brute.mapping, problem.platform), brute.objective);
        ASSERT_EQ(exact.status, SolveStatus::optimal) << text;
        ASSERT_NE(classify(exact.mapping), MappingRule::general) << text;
        EXPECT_EQ(exact.objective, br07_eq2_period(problem.pipeline, problem.platform, exact.mapping)) << text;
        EXPECT_LE(std::abs(exact.objective - brute.objective), 1e-12 * brute.objective) << text;
      }
}

TEST(ExactInterval, EverySearchAndDirectionAloneFindsTheOptimum)
{
  // Each search, without the probes of exact::solve: the forward and the mirrored HeteroSearch on every kind, and
  // CommHomSearch where links are uniform.
  for (LinkKind kind : {LinkKind::communication_homogeneous, LinkKind::fully_heterogeneous})
    for (std::uint64_t seed = 1; seed <= 150 && not HasFailure(); ++seed) {
      Problem problem = fixtures::tiny_instance(seed, kind, seed % 3 == 0, 7, 5);
      double brute    = run_mapper("exhaustive.interval", problem, MapperOptions{}).objective;
      std::string text =
          fmt::format("{}\n{}\n  exhaustive: {}", fixtures::to_string(kind), fixtures::describe(seed, problem), brute);
      EXPECT_EQ(alone(*exact::make_hetero_search(problem, false)), brute) << text;
      EXPECT_EQ(alone(*exact::make_hetero_search(problem, true)), brute) << text;
      if (uniform_links(problem.platform)) {
        EXPECT_EQ(alone(*exact::make_comm_hom_search(problem)), brute) << text;
      }
    }
}

TEST(ExactInterval, NeverWorseThanTheoremOneAndEqualWhenTheOptimumIsOneToOne)
{
  for (LinkKind kind : {LinkKind::fully_homogeneous, LinkKind::communication_homogeneous})
    for (std::uint64_t seed = 1; seed <= 300 && not HasFailure(); ++seed) {
      Problem problem = fixtures::tiny_instance(seed, kind, seed % 2 == 0, 6, 6);
      if (problem.pipeline.n() > problem.platform.p()) continue;
      MapperResult exact  = run_mapper("exact.interval", problem, MapperOptions{});
      MapperResult greedy = run_mapper("br07.one-to-one", problem, MapperOptions{});
      std::string text    = fmt::format("{}\n  exact.interval: {} period {}\n  br07.one-to-one: {} period {}",
                                        fixtures::describe(seed, problem), to_text(exact.mapping, problem.platform),
                                        exact.objective, to_text(greedy.mapping, problem.platform), greedy.objective);
      // One-to-one mappings are interval mappings; when the optimum found is one-to-one, Theorem 1 reaches it.
      EXPECT_LE(exact.objective, greedy.objective) << text;
      if (classify(exact.mapping) == MappingRule::one_to_one) {
        EXPECT_LE(std::abs(exact.objective - greedy.objective), 1e-12 * greedy.objective) << text;
      }
    }
}

TEST(ExactInterval, Refusals)
{
  ExactInterval mapper;
  Problem problem = interval_hand_instance();
  EXPECT_FALSE(mapper.refuses(problem));

  Problem reliability        = interval_hand_instance();
  reliability.objective.kind = Objective::Kind::min_failure_probability;
  EXPECT_EQ(mapper.refuses(reliability).value_or(""),
            "it minimises the period (objective minimize: period), not failure_probability");

  Problem multiport = interval_hand_instance();
  multiport.model   = CommModel::multi_port;
  EXPECT_EQ(mapper.refuses(multiport).value_or(""),
            "it accepts the one-port model (it minimises br07 eq. (2), the one-port period), not multi-port");

  Problem wide;
  wide.pipeline = Pipeline{{1, 1}, {1, 1, 1}};
  wide.platform = fixtures::uniform_platform(std::vector<double>(65, 1.0), 1.0);
  EXPECT_FALSE(mapper.refuses(wide)); // equal links: only the n = 2 fastest matter
  wide.platform.set_link(0, 1, 2.0, 0.0);
  EXPECT_FALSE(mapper.refuses(wide)); // links differ: sets of 65 processors take two words

  Problem widest;
  widest.pipeline = Pipeline{{1, 1}, {1, 1, 1}};
  widest.platform = fixtures::uniform_platform(std::vector<double>(2049, 1.0), 1.0);
  EXPECT_FALSE(mapper.refuses(widest));
  widest.platform.set_link(0, 1, 2.0, 0.0);
  EXPECT_EQ(mapper.refuses(widest).value_or(""), "p = 2049 > 2048 on a platform whose links differ: the search keeps "
                                                 "the set of used processors in at most 2048 bits");
}

TEST(ExactInterval, UniformLinksIgnoresPairsThatNoMappingUses)
{
  Platform platform = fixtures::uniform_platform({1, 2}, 1.0, 0.5);
  EXPECT_TRUE(uniform_links(platform));
  platform.set_link(platform.out(), 0, 7.0, 0.0); // out of P_out
  platform.set_link(0, platform.in(), 7.0, 0.0);  // into P_in
  platform.set_link(platform.in(), platform.out(), 7.0, 0.0);
  EXPECT_TRUE(uniform_links(platform));
  platform.set_link(0, 1, 1.0, 0.25); // same bandwidth, another latency
  EXPECT_FALSE(uniform_links(platform));
}

/// A large instance no search finishes in a millisecond: n stages, p processors, speeds in [1, 20], b = 10 (or per
/// pair in [1, 10]), w in [1, 20], delta in [1, 100].
Problem large_instance(int n, int p, bool heterogeneous)
{
  Problem problem;
  Rng rng(7);
  for (int i = 0; i < n; ++i)
    problem.pipeline.w.push_back(static_cast<double>(rng.integer(1, 20)));
  for (int i = 0; i <= n; ++i)
    problem.pipeline.delta.push_back(static_cast<double>(rng.integer(1, 100)));
  std::vector<double> speeds;
  for (int u = 0; u < p; ++u)
    speeds.push_back(rng.uniform(1, 20));
  problem.platform = fixtures::uniform_platform(speeds, 10.0);
  if (heterogeneous)
    for (int u = 0; u < problem.platform.nodes(); ++u)
      for (int v = 0; v < problem.platform.nodes(); ++v)
        if (u != v) problem.platform.set_link(u, v, rng.uniform(1, 10), 0.0);
  return problem;
}

TEST(ExactInterval, TimeLimitReturnsTheBestMappingSoFar)
{
  for (bool heterogeneous : {false, true}) {
    Problem problem = large_instance(heterogeneous ? 150 : 600, 64, heterogeneous);
    MapperOptions options;
    options.time_limit  = 1e-3;
    MapperResult result = run_mapper("exact.interval", problem, options);
    EXPECT_EQ(result.status, SolveStatus::time_limit) << heterogeneous;
    ASSERT_EQ(result.mapping.intervals.empty(), false) << heterogeneous;
    EXPECT_NE(classify(result.mapping), MappingRule::general);
    EXPECT_EQ(result.objective, br07_eq2_period(problem.pipeline, problem.platform, result.mapping));
  }
}

} // namespace
} // namespace pipesim

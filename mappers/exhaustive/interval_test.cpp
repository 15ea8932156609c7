// Tests of exhaustive.interval and exhaustive_one_to_one: hand-checked instances, a naive reference, refusals, the
// time limit.
#include "mappers/exhaustive/interval.hpp"

#include "base/input_error.hpp"
#include "base/random.hpp"
#include "model/analytic.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <limits>

namespace pipesim {
namespace {

Platform exhaustive_platform(const std::vector<double>& speeds, const std::string& in, const std::string& out, double b)
{
  std::vector<Processor> processors(speeds.size());
  for (std::size_t u = 0; u < speeds.size(); ++u) {
    processors[u].name  = "P" + std::to_string(u + 1);
    processors[u].speed = speeds[u];
  }
  return Platform(processors, in, out, b);
}

/// br07 §2.3.3's second example with delta_3 = 8 instead of 10 (to break a tie): P_in = P_out = P0,
/// s_1 = 1, s_2 = 10, b_{0,1} = 10 (both ways), every other link 1; w = (1, 10, 1), delta = (10, 1, 1, 8).
/// The six interval mappings (one processor per interval, p = 2 so m <= 2), br07 eq. (2):
///   [1-3] on P1: 10/10 + 12/1 + 8/10 = 13.8          [1-3] on P2: 10/1 + 12/10 + 8/1 = 19.2
///   [1]P1 [2-3]P2: max(1 + 1 + 1, 1/1 + 11/10 + 8) = 10.1    [1]P2 [2-3]P1: max(10 + 0.1 + 1, 1 + 11 + 0.8) = 12.8
///   [1-2]P1 [3]P2: max(1 + 11 + 1, 1 + 0.1 + 8) = 13          [1-2]P2 [3]P1: max(10 + 1.1 + 1, 1 + 1 + 0.8) = 12.1
/// The optimum is [1]:P1 [2-3]:P2 with period 10.1 (the general mapping of eq. (6) would do better).
Problem fully_heterogeneous_instance()
{
  Problem problem;
  problem.pipeline = Pipeline{{1, 10, 1}, {10, 1, 1, 8}};
  problem.platform = exhaustive_platform({1, 10}, "P0", "P0", 1.0);
  problem.platform.set_link(problem.platform.in(), 0, 10.0, 0.0);
  problem.platform.set_link(0, problem.platform.out(), 10.0, 0.0);
  return problem;
}

TEST(ExhaustiveInterval, HandCheckedFullyHeterogeneousInstance)
{
  Problem problem = fully_heterogeneous_instance();
  ASSERT_EQ(problem.platform.classify(), PlatformClass::fully_heterogeneous);
  MapperResult result = run_mapper("exhaustive.interval", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::optimal);
  EXPECT_NEAR(result.objective, 10.1, 1e-12);
  EXPECT_EQ(to_text(result.mapping, problem.platform),
            to_text(make_interval_mapping({{1, 1}, {2, 3}}, {0, 1}), problem.platform));
  EXPECT_EQ(result.statistics.at("mappings"), 6.0);
  // One-to-one needs 3 processors.
  EXPECT_EQ(exhaustive_one_to_one(problem).status, SolveStatus::infeasible);
}

TEST(ExhaustiveInterval, TiesGoToTheFirstMappingInTheDocumentedOrder)
{
  // s = 1, b = 1, no data: [1-2] on one processor costs 2, [1][2] on two costs 1 (either order). Order:
  // m = 1 first ([1-2]:P1, [1-2]:P2), then [1][2] with (P1, P2) before (P2, P1): the first period-1 mapping wins.
  Problem problem;
  problem.pipeline    = Pipeline{{1, 1}, {0, 0, 0}};
  problem.platform    = exhaustive_platform({1, 1}, "in", "out", 1.0);
  MapperResult result = run_mapper("exhaustive.interval", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 1.0);
  EXPECT_EQ(to_text(result.mapping, problem.platform),
            to_text(make_interval_mapping({{1, 1}, {2, 2}}, {0, 1}), problem.platform));
}

TEST(ExhaustiveInterval, OneToOneOnAFullyHeterogeneousPlatform)
{
  // n = 2, p = 2, s = 1, w = (1, 1), delta = (1, 1, 1); b = 1 except b_{P1,P2} = b_{P2,P1} = 1/4, b_{in,P2} = 2.
  //   S1 P1, S2 P2: max(1 + 1 + 4, 4 + 1 + 1) = 6;  S1 P2, S2 P1: max(0.5 + 1 + 4, 4 + 1 + 1) = 6 -> tie: first.
  // The one-to-one optimum is 6, with S1 on P1; the interval optimum is [1-2] on P2: 0.5 + 2 + 1 = 3.5.
  Problem problem;
  problem.pipeline = Pipeline{{1, 1}, {1, 1, 1}};
  problem.platform = exhaustive_platform({1, 1}, "in", "out", 1.0);
  problem.platform.set_link(0, 1, 0.25, 0.0);
  problem.platform.set_link(1, 0, 0.25, 0.0);
  problem.platform.set_link(problem.platform.in(), 1, 2.0, 0.0);
  MapperResult one_to_one = exhaustive_one_to_one(problem);
  EXPECT_EQ(one_to_one.status, SolveStatus::optimal);
  EXPECT_EQ(one_to_one.objective, 6.0);
  EXPECT_EQ(one_to_one.mapping.interval(0).replicas, std::vector<ProcessorGroup>{{0}});
  MapperResult interval = run_mapper("exhaustive.interval", problem, MapperOptions{});
  EXPECT_EQ(interval.objective, 3.5);
  EXPECT_EQ(to_text(interval.mapping, problem.platform),
            to_text(make_interval_mapping({{1, 2}}, {1}), problem.platform));
}

TEST(ExhaustiveInterval, CountsTheMappings)
{
  EXPECT_EQ(count_interval_mappings(3, 2, 1, 3), 6.0);   // 1 * 2 + 2 * 2
  EXPECT_EQ(count_interval_mappings(3, 3, 1, 3), 21.0);  // 1 * 3 + 2 * 6 + 1 * 6
  EXPECT_EQ(count_interval_mappings(4, 5, 4, 4), 120.0); // one-to-one: 5!/1!
  EXPECT_EQ(count_interval_mappings(4, 3, 4, 4), 0.0);
}

TEST(ExhaustiveInterval, RefusesLargeInstancesAndOtherObjectives)
{
  ExhaustiveInterval mapper;
  Problem problem;
  problem.pipeline = Pipeline{std::vector<double>(10, 1.0), std::vector<double>(11, 1.0)};
  problem.platform = exhaustive_platform(std::vector<double>(10, 1.0), "in", "out", 1.0);
  double count     = count_interval_mappings(10, 10, 1, 10);
  ASSERT_GT(count, exhaustive_interval_limit);
  EXPECT_EQ(
      mapper.refuses(problem).value_or(""),
      fmt::format("{:.0f} interval mappings to enumerate (n = 10, p = 10), more than the limit of 50000000", count));

  Problem small = fully_heterogeneous_instance();
  EXPECT_FALSE(mapper.refuses(small));
  small.objective.kind = Objective::Kind::min_failure_probability;
  EXPECT_EQ(mapper.refuses(small).value_or(""),
            "it minimises the period (objective minimize: period), not failure_probability");
  small.objective.kind = Objective::Kind::min_period;
  small.model          = CommModel::multi_port;
  EXPECT_EQ(mapper.refuses(small).value_or(""),
            "it accepts the one-port model (it evaluates br07 eq. (2), the one-port period), not multi-port");
}

TEST(ExhaustiveInterval, TimeLimitReturnsTheBestSoFar)
{
  // n = p = 8, s = 1, b = 1, w = 1, delta = 1 except delta_8 = 1e6: every mapping costs 1e6 + something in its
  // last interval, and no prefix (at most 1 + 8 + 1) ever reaches the best period, so nothing is cut and the
  // search would visit all 1 047 376 mappings; the clock is read every 4096 search nodes, after the first
  // complete mapping.
  Problem problem;
  problem.pipeline = Pipeline{std::vector<double>(8, 1.0), {1, 1, 1, 1, 1, 1, 1, 1, 1e6}};
  problem.platform = exhaustive_platform(std::vector<double>(8, 1.0), "in", "out", 1.0);
  MapperOptions options;
  options.time_limit  = 0;
  MapperResult result = run_mapper("exhaustive.interval", problem, options);
  EXPECT_EQ(result.status, SolveStatus::time_limit);
  ASSERT_FALSE(result.mapping.intervals.empty());
  EXPECT_EQ(result.objective, br07_eq2_period(problem.pipeline, problem.platform, result.mapping));
  EXPECT_EQ(result.statistics.at("mappings"), 1047376.0);
  EXPECT_LT(result.statistics.at("evaluated"), 4096.0);
}

/// Naive reference: every composition (bit mask of interval ends) and every injective processor tuple,
/// evaluated with br07_eq2_period on a Mapping, no cut.
double naive_best_interval_period(const Problem& problem)
{
  int n       = problem.pipeline.n();
  int p       = problem.platform.p();
  double best = std::numeric_limits<double>::infinity();
  for (unsigned mask = 0; mask < (1u << (n - 1)); ++mask) {
    std::vector<std::pair<int, int>> intervals;
    int first = 1;
    for (int i = 1; i <= n; ++i)
      if (i == n || (mask >> (i - 1)) & 1u) {
        intervals.emplace_back(first, i);
        first = i + 1;
      }
    auto m = intervals.size();
    if (m > static_cast<std::size_t>(p)) continue;
    // Every m-tuple of processors in [0, p)^m, kept when injective.
    std::vector<int> alloc(m, 0);
    while (true) {
      std::vector<int> sorted = alloc;
      std::sort(sorted.begin(), sorted.end());
      if (std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end())
        best = std::min(best,
                        br07_eq2_period(problem.pipeline, problem.platform, make_interval_mapping(intervals, alloc)));
      std::size_t k = 0;
      while (k < m && ++alloc[k] == p)
        alloc[k++] = 0;
      if (k == m) break;
    }
  }
  return best;
}

TEST(ExhaustiveInterval, RandomizedStressTestAgainstNaiveEnumeration)
{
  // Fully Heterogeneous: n in 1..5, p in 1..5, s in [1, 20], b_{u,v} in [1, 10] per ordered pair, c in [0, 0.1]
  // on every other seed, w in [1, 20], delta in [1, 100].
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    Rng rng(seed);
    auto n = static_cast<int>(rng.integer(1, 5));
    auto p = static_cast<int>(rng.integer(1, 5));
    Problem problem;
    for (int i = 0; i < n; ++i)
      problem.pipeline.w.push_back(rng.uniform(1, 20));
    for (int i = 0; i <= n; ++i)
      problem.pipeline.delta.push_back(rng.uniform(1, 100));
    std::vector<double> speeds;
    for (int u = 0; u < p; ++u)
      speeds.push_back(rng.uniform(1, 20));
    problem.platform = exhaustive_platform(speeds, "in", "out", 1.0);
    std::string links;
    for (int u = 0; u < problem.platform.nodes(); ++u)
      for (int v = 0; v < problem.platform.nodes(); ++v)
        if (u != v) {
          double b = rng.uniform(1, 10);
          double c = seed % 2 == 0 ? rng.uniform(0, 0.1) : 0.0;
          problem.platform.set_link(u, v, b, c);
          links += fmt::format(" b{},{}={} c{},{}={}", u, v, b, u, v, c);
        }
    MapperResult result = run_mapper("exhaustive.interval", problem, MapperOptions{});
    double naive        = naive_best_interval_period(problem);
    EXPECT_EQ(result.status, SolveStatus::optimal);
    EXPECT_EQ(result.objective, naive) << fmt::format("seed {}: n = {}, p = {}, s = [{}], w = [{}], delta = [{}],",
                                                      seed, n, p, fmt::join(speeds, ", "),
                                                      fmt::join(problem.pipeline.w, ", "),
                                                      fmt::join(problem.pipeline.delta, ", "))
                                       << links << "\n  found " << to_text(result.mapping, problem.platform);
    if (HasFailure()) break;
  }
}

} // namespace
} // namespace pipesim

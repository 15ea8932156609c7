// Tests of exact.interval beyond 64 processors (sets of several words) and of the lower bound it proves when a limit
// stops it: wide sets forced on tiny instances against the exhaustive reference, p in 65..80 against a dynamic
// program over counts of interchangeable processors (no set of processors at all), and lower bound <= optimum.
#include "base/random.hpp"
#include "mappers/exact/class_count_fixtures.hpp"
#include "mappers/exact/comm_hom_search.hpp"
#include "mappers/exact/hetero_search.hpp"
#include "mappers/exact/interval.hpp"
#include "mappers/exact/interval_fixtures.hpp"
#include "mappers/exact/processor_set.hpp"
#include "mappers/exact/twins.hpp"
#include "model/analytic.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <limits>
#include <memory>

namespace pipesim {
namespace {

using fixtures::LinkKind;

/// Solves with one search alone, without the probes (a single branch and bound from +inf).
double wide_alone(exact::PeriodSearch& search)
{
  Deadline deadline(60);
  exact::SearchOutcome outcome = search.minimize(std::numeric_limits<double>::infinity(), {&deadline});
  EXPECT_TRUE(outcome.complete);
  return outcome.period;
}

TEST(ProcessorSet, TwoWordsBehaveAsOneSet)
{
  using Set = exact::ProcessorSet<2>;
  Set set   = Set::first_n(70).without(3).without(64).without(69);
  EXPECT_EQ(set.size(), 67);
  EXPECT_TRUE(set.contains(63));
  EXPECT_FALSE(set.contains(64));
  EXPECT_TRUE(set.contains(65));
  EXPECT_EQ(set.first_from(64), 65);
  EXPECT_EQ(set.first_from(69), -1);
  EXPECT_EQ(set.count_from(60), 8); // 60..63, 65..68
  Set top = set.highest(6);         // 68, 67, 66, 65, 63, 62
  EXPECT_EQ(top.size(), 6);
  EXPECT_TRUE(top.contains(62));
  EXPECT_FALSE(top.contains(61));
  EXPECT_EQ(Set::first_n(70).minus(set), Set{}.with(3).with(64).with(69));
  int sum = 0;
  set.for_each([&](int v) { sum += v; });
  EXPECT_EQ(sum, 69 * 70 / 2 - 3 - 64 - 69);
  EXPECT_EQ(exact::set_words_for(64), 1u);
  EXPECT_EQ(exact::set_words_for(65), 2u);
  EXPECT_EQ(exact::set_words_for(256), 4u);
  EXPECT_EQ(exact::set_words_for(257), 8u);
}

TEST(Twins, SameSpeedAndSameLinksOnly)
{
  // P1, P2, P4 of speed 2 with equal links, P3 of speed 2 with another link from P_in: twins are {P1, P2, P4}.
  Platform platform = fixtures::uniform_platform({2, 2, 2, 2, 3}, 10.0);
  platform.set_link(platform.in(), 2, 5.0, 0.0);
  EXPECT_EQ(exact::previous_twins(platform), (std::vector<int>{-1, 0, -1, 1, -1}));
}

TEST(ExactIntervalWide, SetsOfSeveralWordsFindTheSameOptimum)
{
  // The searches with their sets forced to 2 and 4 words (processors spread over the first word only) against the
  // exhaustive reference: the multi-word operations are exercised on instances small enough to enumerate.
  for (LinkKind kind : {LinkKind::communication_homogeneous, LinkKind::fully_heterogeneous})
    for (std::uint64_t seed = 1; seed <= 60 && not HasFailure(); ++seed) {
      Problem problem = fixtures::tiny_instance(seed, kind, seed % 3 == 0, 6, 5);
      double brute    = run_mapper("exhaustive.interval", problem, MapperOptions{}).objective;
      std::string text =
          fmt::format("{}\n{}\n  exhaustive: {}", fixtures::to_string(kind), fixtures::describe(seed, problem), brute);
      for (std::size_t words : {2u, 4u}) {
        EXPECT_EQ(wide_alone(*exact::make_hetero_search(problem, false, words)), brute) << words << " words\n" << text;
        EXPECT_EQ(wide_alone(*exact::make_hetero_search(problem, true, words)), brute) << words << " words\n" << text;
        if (uniform_links(problem.platform)) {
          EXPECT_EQ(wide_alone(*exact::make_comm_hom_search(problem, words)), brute) << words << " words\n" << text;
        }
      }
    }
}

std::string describe_wide(std::uint64_t seed, const fixtures::ClassedProblem& instance)
{
  return fmt::format("{}\n  classes: [{}]", fixtures::describe(seed, instance.problem),
                     fmt::join(instance.class_of, ", "));
}

TEST(ExactIntervalWide, FullyHeterogeneousP65To80AgainstCountsPerClass)
{
  // p in 65..80 processors in 3 or 4 classes of twins scattered over the indices (so over both words of the sets),
  // per-pair-of-classes bandwidths and latencies; the reference keeps only how many of each class are used.
  for (std::uint64_t seed = 1; seed <= 16 && not HasFailure(); ++seed) {
    int p               = 65 + static_cast<int>(seed - 1);
    int n               = 4 + static_cast<int>(seed % 4);
    auto instance       = fixtures::classed_instance(seed, n, p, 3 + static_cast<int>(seed % 2), false);
    double optimum      = fixtures::class_count_optimum(instance);
    std::string text    = describe_wide(seed, instance);
    MapperResult result = run_mapper("exact.interval", instance.problem, MapperOptions{});
    ASSERT_EQ(result.status, SolveStatus::optimal) << text;
    EXPECT_EQ(result.objective, optimum) << text;
    EXPECT_EQ(result.objective, br07_eq2_period(instance.problem.pipeline, instance.problem.platform, result.mapping));
    EXPECT_EQ(wide_alone(*exact::make_hetero_search(instance.problem, false)), optimum) << text;
    EXPECT_EQ(wide_alone(*exact::make_hetero_search(instance.problem, true)), optimum) << text;
  }
}

TEST(ExactIntervalWide, CommunicationHomogeneousP65To80AgainstCountsPerClass)
{
  // Equal links, n = p in 65..80 (so that the q = min(n, p) ranks of the search take two words), two speeds.
#ifdef PIPESIM_SANITIZE
  constexpr std::uint64_t seeds = 1; // the reference takes about 0.3 s per instance at -O2
#else
  constexpr std::uint64_t seeds = 4;
#endif
  for (std::uint64_t seed = 1; seed <= seeds && not HasFailure(); ++seed) {
    int p               = 65 + static_cast<int>(5 * (seed - 1));
    auto instance       = fixtures::classed_instance(seed, p, p, 2, true);
    double optimum      = fixtures::class_count_optimum(instance);
    std::string text    = describe_wide(seed, instance);
    MapperResult result = run_mapper("exact.interval", instance.problem, MapperOptions{});
    ASSERT_EQ(result.status, SolveStatus::optimal) << text;
    EXPECT_EQ(result.objective, optimum) << text;
    EXPECT_EQ(wide_alone(*exact::make_comm_hom_search(instance.problem)), optimum) << text;
  }
}

/// exact::solve with every search of the mapper and a deterministic node limit.
exact::SearchOutcome solve_within(const Problem& problem, std::uint64_t node_limit)
{
  std::vector<std::unique_ptr<exact::PeriodSearch>> searches;
  if (uniform_links(problem.platform)) searches.push_back(exact::make_comm_hom_search(problem));
  searches.push_back(exact::make_hetero_search(problem, false));
  searches.push_back(exact::make_hetero_search(problem, true));
  std::vector<exact::PeriodSearch*> list;
  for (const auto& search : searches)
    list.push_back(search.get());
  Deadline deadline(60);
  return exact::solve(list, deadline, exact::SearchOutcome{}, node_limit);
}

TEST(ExactIntervalBounds, TheLowerBoundNeverExceedsTheOptimum)
{
  // Stopped after 1 to 400 nodes: the bound proved is at most the optimum (exhaustive, or counts per class for
  // p = 65..72), the mapping at least it; exhausted runs have bound = period = optimum.
  int stopped = 0;
  for (LinkKind kind : {LinkKind::communication_homogeneous, LinkKind::fully_heterogeneous})
    for (std::uint64_t seed = 1; seed <= 60 && not HasFailure(); ++seed) {
      Problem problem = fixtures::tiny_instance(seed, kind, seed % 2 == 0, 7, 6);
      double optimum  = run_mapper("exhaustive.interval", problem, MapperOptions{}).objective;
      for (std::uint64_t limit : {1u, 3u, 10u, 30u, 100u, 400u}) {
        exact::SearchOutcome outcome = solve_within(problem, limit);
        std::string text =
            fmt::format("{}, {} nodes\n{}", fixtures::to_string(kind), limit, fixtures::describe(seed, problem));
        EXPECT_LE(outcome.lower_bound, optimum) << text;
        EXPECT_GE(outcome.period, optimum) << text;
        if (outcome.complete) {
          EXPECT_EQ(outcome.lower_bound, optimum) << text;
        } else {
          ++stopped;
        }
      }
    }
  for (std::uint64_t seed = 1; seed <= 8 && not HasFailure(); ++seed) {
    auto instance  = fixtures::classed_instance(seed, 6, 64 + static_cast<int>(seed), 3, false);
    double optimum = fixtures::class_count_optimum(instance);
    for (std::uint64_t limit : {5u, 50u, 500u}) {
      exact::SearchOutcome outcome = solve_within(instance.problem, limit);
      EXPECT_LE(outcome.lower_bound, optimum) << limit << " nodes\n" << describe_wide(seed, instance);
      EXPECT_GE(outcome.period, optimum) << limit << " nodes\n" << describe_wide(seed, instance);
    }
  }
  EXPECT_GT(stopped, 50); // the limits did stop many runs
}

TEST(ExactIntervalBounds, AStoppedMapperReportsItsBoundAndGap)
{
  // A large Fully Heterogeneous instance stopped after 1 ms: a mapping, a positive lower bound below its period
  // (the probes prove one quickly), and the gap (period - bound) / period.
  Rng rng(11);
  Problem problem;
  for (int i = 0; i < 150; ++i)
    problem.pipeline.w.push_back(static_cast<double>(rng.integer(1, 20)));
  for (int i = 0; i <= 150; ++i)
    problem.pipeline.delta.push_back(static_cast<double>(rng.integer(1, 100)));
  std::vector<double> speeds;
  for (int u = 0; u < 70; ++u)
    speeds.push_back(rng.uniform(1, 20));
  problem.platform = fixtures::uniform_platform(speeds, 10.0);
  for (int u = 0; u < problem.platform.nodes(); ++u)
    for (int v = 0; v < problem.platform.nodes(); ++v)
      if (u != v) problem.platform.set_link(u, v, rng.uniform(1, 10), 0.0);
  MapperOptions options;
  options.time_limit  = 1e-3;
  MapperResult result = run_mapper("exact.interval", problem, options);
  ASSERT_EQ(result.status, SolveStatus::time_limit);
  ASSERT_TRUE(result.lower_bound.has_value());
  EXPECT_GE(*result.lower_bound, 0.0);
  EXPECT_LE(*result.lower_bound, result.objective);
  ASSERT_TRUE(relative_gap(result).has_value());
  EXPECT_EQ(*relative_gap(result), (result.objective - *result.lower_bound) / result.objective);

  MapperResult optimal = run_mapper(
      "exact.interval", fixtures::tiny_instance(3, LinkKind::fully_heterogeneous, false, 4, 3), MapperOptions{});
  ASSERT_EQ(optimal.status, SolveStatus::optimal);
  EXPECT_EQ(optimal.lower_bound, optimal.objective);
  EXPECT_EQ(relative_gap(optimal), 0.0);
  EXPECT_FALSE(relative_gap(run_mapper("random.interval", problem, MapperOptions{})).has_value()); // proves nothing
}

} // namespace
} // namespace pipesim

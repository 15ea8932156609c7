// Tests of br07.fh-dp (br07 Prop. 1): hand-checked instances, refusals, the time limit, and a randomised
// cross-check against exact.interval and exhaustive.interval on Fully Homogeneous platforms.
#include "mappers/br07/fh_dp.hpp"

#include "mappers/exact/interval_fixtures.hpp"
#include "model/analytic.hpp"

#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

TEST(Br07FullyHomogeneousDp, SeedExampleWithTwoAndThreeProcessors)
{
  // br07 §2.3.3: w = (1, 2, 1), no communication, s = b = 1. With p = 2 an interval mapping puts two stages
  // together: c(1, 2, 1) = c(2, 3, 1) = 3, so the optimum is 3 (the general mapping of the paper would reach 2).
  // With p = 3, one stage each: max(1, 2, 1) = 2.
  Problem problem;
  problem.pipeline = Pipeline{{1, 2, 1}, {0, 0, 0, 0}};
  problem.platform = fixtures::uniform_platform({1, 1}, 1.0);
  MapperResult two = run_mapper("br07.fh-dp", problem, MapperOptions{});
  EXPECT_EQ(two.status, SolveStatus::optimal);
  EXPECT_EQ(two.objective, 3.0);
  EXPECT_EQ(two.mapping.m(), 2);
  problem.platform   = fixtures::uniform_platform({1, 1, 1}, 1.0);
  MapperResult three = run_mapper("br07.fh-dp", problem, MapperOptions{});
  EXPECT_EQ(three.objective, 2.0);
  EXPECT_EQ(to_text(three.mapping, problem.platform),
            to_text(make_interval_mapping({{1, 1}, {2, 2}, {3, 3}}, {0, 1, 2}), problem.platform));
}

TEST(Br07FullyHomogeneousDp, CommunicationKeepsStagesTogether)
{
  // w = (4, 4), delta = (1, 6, 1), s = 2, b = 1, p = 2: c(1, 2, 1) = 1 + 8/2 + 1 = 6 beats
  // c(1, 2, 2) = max(1 + 2 + 6, 6 + 2 + 1) = 9. With latency c = 0.5 on every link: 1.5 + 4 + 1.5 = 7.
  Problem problem;
  problem.pipeline    = Pipeline{{4, 4}, {1, 6, 1}};
  problem.platform    = fixtures::uniform_platform({2, 2}, 1.0);
  MapperResult result = run_mapper("br07.fh-dp", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 6.0);
  EXPECT_EQ(result.mapping.m(), 1);
  EXPECT_EQ(result.statistics.at("processors"), 1.0);
  problem.platform = fixtures::uniform_platform({2, 2}, 1.0, 0.5);
  EXPECT_EQ(run_mapper("br07.fh-dp", problem, MapperOptions{}).objective, 7.0);
}

TEST(Br07FullyHomogeneousDp, Refusals)
{
  Br07FullyHomogeneousDp mapper;
  Problem problem;
  problem.pipeline = Pipeline{{1, 2}, {1, 1, 1}};
  problem.platform = fixtures::uniform_platform({1, 1}, 1.0);
  EXPECT_FALSE(mapper.refuses(problem));

  Problem speeds  = problem;
  speeds.platform = fixtures::uniform_platform({1, 2}, 1.0);
  EXPECT_EQ(mapper.refuses(speeds).value_or(""),
            "the platform is communication-homogeneous; it accepts fully-homogeneous platforms (the recurrence is "
            "exact when every processor and link is the same, on the one-port period of br07 eq. (2))");

  Problem latencies = problem;
  latencies.platform.set_link(0, 1, 1.0, 0.5);
  EXPECT_EQ(mapper.refuses(latencies).value_or(""),
            "link latencies c_{u,v} differ between pairs; the dynamic program needs every transfer to cost the same");

  Problem large;
  large.pipeline = Pipeline{std::vector<double>(300, 1.0), std::vector<double>(301, 1.0)};
  large.platform = fixtures::uniform_platform(std::vector<double>(300, 1.0), 1.0);
  EXPECT_EQ(mapper.refuses(large).value_or(""),
            "the table c(i, j, k) would have 27000000 entries (n = 300, p = 300), more than 20000000");

  Problem multiport = problem;
  multiport.model   = CommModel::multi_port;
  EXPECT_EQ(mapper.refuses(multiport).value_or(""),
            "it accepts the one-port model (the recurrence is exact when every processor and link is the same, on the "
            "one-port period of br07 eq. (2)), not multi-port");
}

TEST(Br07FullyHomogeneousDp, TimeLimitGivesTheWholePipelineOnOneProcessor)
{
  Problem problem;
  problem.pipeline = Pipeline{{1, 2, 3}, {1, 1, 1, 1}};
  problem.platform = fixtures::uniform_platform({1, 1, 1}, 1.0);
  MapperOptions options;
  options.time_limit  = 0;
  MapperResult result = run_mapper("br07.fh-dp", problem, options);
  EXPECT_EQ(result.status, SolveStatus::time_limit);
  EXPECT_EQ(to_text(result.mapping, problem.platform), to_text(make_interval_mapping({{1, 3}}, {0}), problem.platform));
  EXPECT_EQ(result.objective, 1.0 + 6.0 + 1.0);
}

TEST(Br07FullyHomogeneousDp, RandomizedStressTestAgainstExactAndExhaustive)
{
  for (bool latencies : {false, true})
    for (std::uint64_t seed = 1; seed <= 400 && not HasFailure(); ++seed) {
      Problem problem    = fixtures::tiny_instance(seed, fixtures::LinkKind::fully_homogeneous, latencies, 8, 5);
      MapperResult dp    = run_mapper("br07.fh-dp", problem, MapperOptions{});
      MapperResult exact = run_mapper("exact.interval", problem, MapperOptions{});
      std::string text   = fmt::format("{}\n  br07.fh-dp: {} period {}\n  exact.interval: {} period {}",
                                       fixtures::describe(seed, problem), to_text(dp.mapping, problem.platform),
                                       dp.objective, to_text(exact.mapping, problem.platform), exact.objective);
      ASSERT_EQ(dp.status, SolveStatus::optimal) << text;
      EXPECT_EQ(dp.objective, br07_eq2_period(problem.pipeline, problem.platform, dp.mapping)) << text;
      EXPECT_LE(std::abs(dp.objective - exact.objective), 1e-12 * exact.objective) << text;
      if (problem.pipeline.n() <= 6) {
        double brute = run_mapper("exhaustive.interval", problem, MapperOptions{}).objective;
        EXPECT_LE(std::abs(dp.objective - brute), 1e-12 * brute) << text;
      }
    }
}

} // namespace
} // namespace pipesim

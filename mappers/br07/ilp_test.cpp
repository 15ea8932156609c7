// Tests of br07.ilp (br07 §6.1 solved with CBC): hand-checked instances, the size of the program, refusals,
// the time limit, and a cross-check against exact.interval on seeded tiny instances of every platform kind.
#include "mappers/br07/ilp.hpp"

#include "mappers/exact/interval_fixtures.hpp"
#include "model/analytic.hpp"

#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <limits>

namespace pipesim {
namespace {

TEST(Br07Ilp, HandCheckedCommunicationHomogeneousInstance)
{
  // The instance of exact/interval_test.cpp: n = 3, w = (6, 2, 5), delta = (1, 4, 1, 1), b = 1, s = (3, 1, 2);
  // optimum [1-2] on P1 and [3] on P3, period 1 + 8/3 + 1.
  Problem problem;
  problem.pipeline    = Pipeline{{6, 2, 5}, {1, 4, 1, 1}};
  problem.platform    = fixtures::uniform_platform({3, 1, 2}, 1.0);
  MapperResult result = run_mapper("br07.ilp", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::optimal);
  EXPECT_EQ(result.objective, 1.0 + 8.0 / 3.0 + 1.0);
  EXPECT_EQ(to_text(result.mapping, problem.platform),
            to_text(make_interval_mapping({{1, 2}, {3, 3}}, {0, 2}), problem.platform));
  EXPECT_NEAR(result.statistics.at("cbc_period"), result.objective, 1e-6);
  // (n + 2) (p + 2) x + (n + 1) (p + 2) (p + 1) z + (n + 1) (p + 2) y + 2p (first, last) + T = 25 + 80 + 20 + 7.
  EXPECT_EQ(result.statistics.at("variables"), 132.0);
}

TEST(Br07Ilp, HandCheckedFullyHeterogeneousInstance)
{
  // br07 §2.3.3's second example with delta_3 = 8: optimum [1]:P1 [2-3]:P2, period 1 + 11/10 + 8 = 10.1.
  Problem problem;
  problem.pipeline = Pipeline{{1, 10, 1}, {10, 1, 1, 8}};
  problem.platform = Platform(fixtures::uniform_platform({1, 10}, 1.0).processors(), "P0", "P0", 1.0);
  problem.platform.set_link(problem.platform.in(), 0, 10.0, 0.0);
  problem.platform.set_link(0, problem.platform.out(), 10.0, 0.0);
  MapperResult result = run_mapper("br07.ilp", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::optimal);
  EXPECT_EQ(result.objective, 1.0 / 1.0 + 11.0 / 10.0 + 8.0 / 1.0);
  EXPECT_EQ(to_text(result.mapping, problem.platform),
            to_text(make_interval_mapping({{1, 1}, {2, 3}}, {0, 1}), problem.platform));
}

TEST(Br07Ilp, Refusals)
{
  Br07Ilp mapper;
  Problem problem;
  problem.pipeline = Pipeline{{1, 2}, {1, 1, 1}};
  problem.platform = fixtures::uniform_platform({1, 2}, 1.0);
  EXPECT_FALSE(mapper.refuses(problem));

  Problem multiport = problem;
  multiport.model   = CommModel::multi_port;
  EXPECT_EQ(mapper.refuses(multiport).value_or(""),
            "it accepts the one-port model (the program's constraint (g) is the one-port period of br07 eq. (2)), not "
            "multi-port");

  Problem reliability        = problem;
  reliability.objective.kind = Objective::Kind::min_failure_probability;
  EXPECT_EQ(mapper.refuses(reliability).value_or(""),
            "it minimises the period (objective minimize: period), not failure_probability");

  Problem large;
  large.pipeline = Pipeline{std::vector<double>(100, 1.0), std::vector<double>(101, 1.0)};
  large.platform = fixtures::uniform_platform(std::vector<double>(200, 1.0), 1.0);
  EXPECT_EQ(mapper.refuses(large).value_or(""), "4142209 variables (n = 100, p = 200), more than the limit of 2000000");
}

TEST(Br07Ilp, TinyTimeLimitReturnsTimeLimit)
{
  // n = 4, p = 8 takes CBC seconds; after a millisecond it reports the time limit, with its best mapping or none.
  Problem problem;
  problem.pipeline = Pipeline{{7, 3, 12, 5}, {40, 10, 80, 20, 60}};
  problem.platform = fixtures::uniform_platform({1, 2, 3, 4, 5, 6, 7, 8}, 10.0);
  MapperOptions options;
  options.time_limit  = 1e-3;
  MapperResult result = run_mapper("br07.ilp", problem, options);
  EXPECT_EQ(result.status, SolveStatus::time_limit);
  if (result.mapping.intervals.empty())
    EXPECT_EQ(result.objective, std::numeric_limits<double>::infinity());
  else
    EXPECT_EQ(result.objective, br07_eq2_period(problem.pipeline, problem.platform, result.mapping));
}

TEST(Br07Ilp, RandomizedCrossCheckAgainstExact)
{
  // CBC takes tens of milliseconds even on tiny programs: 4 kinds x 5 seeds, n <= 4, p <= 3, latencies on odd seeds.
  for (fixtures::LinkKind kind : {fixtures::LinkKind::fully_homogeneous, fixtures::LinkKind::communication_homogeneous,
                                  fixtures::LinkKind::mixed_latencies, fixtures::LinkKind::fully_heterogeneous})
    for (std::uint64_t seed = 1; seed <= 5 && not HasFailure(); ++seed) {
      Problem problem    = fixtures::tiny_instance(seed, kind, seed % 2 == 1, 4, 3);
      MapperResult ilp   = run_mapper("br07.ilp", problem, MapperOptions{});
      MapperResult exact = run_mapper("exact.interval", problem, MapperOptions{});
      std::string text =
          fmt::format("{}\n{}\n  br07.ilp: {} period {}\n  exact.interval: {} period {}", fixtures::to_string(kind),
                      fixtures::describe(seed, problem), to_text(ilp.mapping, problem.platform), ilp.objective,
                      to_text(exact.mapping, problem.platform), exact.objective);
      ASSERT_EQ(ilp.status, SolveStatus::optimal) << text;
      EXPECT_LE(std::abs(ilp.objective - exact.objective), 1e-12 * exact.objective) << text;
    }
}

} // namespace
} // namespace pipesim

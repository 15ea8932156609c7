// Tests of br07.one-to-one (br07 Theorem 1): a hand-checked instance, refusals, and a randomised cross-check
// against the exhaustive one-to-one and interval references.
#include "mappers/br07/one_to_one.hpp"

#include "base/input_error.hpp"
#include "base/random.hpp"
#include "mappers/exhaustive/interval.hpp"
#include "model/analytic.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <limits>

namespace pipesim {
namespace {

Platform make_platform(const std::vector<double>& speeds, double b, double c = 0)
{
  std::vector<Processor> processors(speeds.size());
  for (std::size_t u = 0; u < speeds.size(); ++u) {
    processors[u].name  = "P" + std::to_string(u);
    processors[u].speed = speeds[u];
  }
  return Platform(processors, "in", "out", b, c);
}

/// n = 3, w = (4, 12, 8), delta = (2, 1, 0, 3), b = 1, speeds (P0..P3) = 4, 1, 8, 2.
/// Communication of stage k: delta_{k-1} + delta_k = 3, 1, 3. The n = 3 fastest are P3 (2), P0 (4), P2 (8);
/// cycle-times on them (s = 2, 4, 8):  S1: 3 + 4/s = 5, 4, 3.5;  S2: 1 + 12/s = 7, 4, 2.5;  S3: 3 + 8/s = 7, 5, 4.
/// S2 or S3 on the slowest costs 7, so the slowest takes S1 (5) and the optimum is 5 (S2 on s=4 or s=8,
/// S3 on the other). Candidates: {2.5, 3.5, 4, 5, 7}. Binary search: T = 4 fails (the slowest fits nothing),
/// T = 5 succeeds: 2 greedy runs. Greedy at T = 5: P3 takes S1 (5, the only fit); P0 takes S3 (5, the largest
/// fit, before S2's 4); P2 takes S2 (2.5).
Problem hand_instance(double c = 0)
{
  Problem problem;
  problem.pipeline = Pipeline{{4, 12, 8}, {2, 1, 0, 3}};
  problem.platform = make_platform({4, 1, 8, 2}, 1.0, c);
  return problem;
}

TEST(Br07OneToOne, HandCheckedInstance)
{
  MapperResult result = run_mapper("br07.one-to-one", hand_instance(), MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::optimal);
  EXPECT_EQ(result.objective, 5.0);
  ASSERT_EQ(result.mapping.m(), 3);
  EXPECT_EQ(classify(result.mapping), MappingRule::one_to_one);
  const std::vector<int> expected = {3, 2, 0}; // S1 -> P3, S2 -> P2, S3 -> P0
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(result.mapping.interval(j).first, j + 1);
    EXPECT_EQ(result.mapping.interval(j).replicas,
              std::vector<ProcessorGroup>{{expected[static_cast<std::size_t>(j)]}});
  }
  EXPECT_EQ(result.statistics.at("candidates"), 5.0);
  EXPECT_EQ(result.statistics.at("feasibility_tests"), 2.0);
}

TEST(Br07OneToOne, EqualLatenciesShiftEveryCycleTime)
{
  // c = 0.5 on every link: each stage pays two transfers, so every cycle-time grows by 1; same assignment.
  MapperResult result = run_mapper("br07.one-to-one", hand_instance(0.5), MapperOptions{});
  EXPECT_EQ(result.objective, 6.0);
  EXPECT_EQ(result.mapping.interval(0).replicas, std::vector<ProcessorGroup>{{3}});
}

TEST(Br07OneToOne, FullyHomogeneous)
{
  // s = 2, b = 4: S1: 8/4 + 2/2 + 4/4 = 4, S2: 4/4 + 6/2 + 0/4 = 4 -> period 4 whatever the assignment. The
  // retained processors are P0, P1 (speed ties: smallest index); at T = 4 both stages fit P0 with the same
  // cycle-time, the tie goes to the smallest stage: S1 on P0, S2 on P1.
  Problem problem;
  problem.pipeline = Pipeline{{2, 6}, {8, 4, 0}};
  problem.platform = make_platform({2, 2, 2}, 4.0);
  ASSERT_EQ(problem.platform.classify(), PlatformClass::fully_homogeneous);
  MapperResult result = run_mapper("br07.one-to-one", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 4.0);
  EXPECT_EQ(result.mapping.interval(0).replicas, std::vector<ProcessorGroup>{{0}});
  EXPECT_EQ(result.mapping.interval(1).replicas, std::vector<ProcessorGroup>{{1}});
}

TEST(Br07OneToOne, MoreStagesThanProcessorsIsInfeasible)
{
  Problem problem;
  problem.pipeline    = Pipeline{{1, 1, 1}, {1, 1, 1, 1}};
  problem.platform    = make_platform({1, 2}, 1.0);
  MapperResult result = run_mapper("br07.one-to-one", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::infeasible);
  EXPECT_TRUE(result.mapping.intervals.empty());
  EXPECT_EQ(result.objective, std::numeric_limits<double>::infinity());
  EXPECT_EQ(exhaustive_one_to_one(problem).status, SolveStatus::infeasible);
}

TEST(Br07OneToOne, Refusals)
{
  Br07OneToOne mapper;
  Problem problem = hand_instance();
  EXPECT_FALSE(mapper.refuses(problem));

  Problem hetero = hand_instance();
  hetero.platform.set_link(0, 2, 3.0, 0.0);
  try {
    run_mapper("br07.one-to-one", hetero, MapperOptions{});
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "key 'mapper': value 'br07.one-to-one': mapper 'br07.one-to-one' cannot handle this "
                           "problem: the platform is fully-heterogeneous; "
                           "it accepts fully-homogeneous or communication-homogeneous platforms (Theorem 1 needs the "
                           "one-port model and equal link bandwidths; with different bandwidths the problem is "
                           "NP-hard, br07 §3.3 Theorem 5)");
  }

  Problem latencies = hand_instance();
  latencies.platform.set_link(latencies.platform.in(), 1, 1.0, 0.25);
  EXPECT_EQ(mapper.refuses(latencies).value_or(""),
            "link latencies c_{u,v} differ between pairs; the greedy of seed 000 Algorithm 1 assumes that every "
            "transfer costs the same");

  Problem reliability        = hand_instance();
  reliability.objective.kind = Objective::Kind::min_failure_probability;
  EXPECT_EQ(mapper.refuses(reliability).value_or(""),
            "it minimises the period (objective minimize: period), not failure_probability");

  Problem multiport = hand_instance();
  multiport.model   = CommModel::multi_port;
  EXPECT_EQ(mapper.refuses(multiport).value_or(""),
            "it accepts the one-port model (Theorem 1 needs the one-port model and equal link bandwidths; with "
            "different bandwidths the problem is NP-hard, br07 §3.3 Theorem 5), not multi-port");
}

/// Tiny Communication Homogeneous instance: n in 1..5, p in n..6, integer s in [1, 20], b = 10, integer w in
/// [1, 20] and delta in [1, 100]; every fourth seed also sets the same latency c = 0.25 on every link.
Problem random_instance(std::uint64_t seed)
{
  Rng rng(seed);
  auto n = static_cast<int>(rng.integer(1, 5));
  auto p = static_cast<int>(rng.integer(n, 6));
  std::vector<double> speeds;
  for (int u = 0; u < p; ++u)
    speeds.push_back(static_cast<double>(rng.integer(1, 20)));
  Problem problem;
  for (int i = 0; i < n; ++i)
    problem.pipeline.w.push_back(static_cast<double>(rng.integer(1, 20)));
  for (int i = 0; i <= n; ++i)
    problem.pipeline.delta.push_back(static_cast<double>(rng.integer(1, 100)));
  problem.platform = make_platform(speeds, 10.0, seed % 4 == 3 ? 0.25 : 0.0);
  return problem;
}

std::string describe(std::uint64_t seed, const Problem& problem)
{
  std::vector<double> speeds;
  for (const Processor& proc : problem.platform.processors())
    speeds.push_back(proc.speed);
  return fmt::format("seed {}: n = {}, p = {}, s = [{}], b = 10, c = {}, w = [{}], delta = [{}]", seed,
                     problem.pipeline.n(), problem.platform.p(), fmt::join(speeds, ", "),
                     problem.platform.latency(0, problem.platform.out()), fmt::join(problem.pipeline.w, ", "),
                     fmt::join(problem.pipeline.delta, ", "));
}

TEST(Br07OneToOne, RandomizedStressTestAgainstExhaustive)
{
  const std::uint64_t instances = 300;
  for (std::uint64_t seed = 1; seed <= instances; ++seed) {
    Problem problem = random_instance(seed);
    ASSERT_NE(problem.platform.classify(), PlatformClass::fully_heterogeneous);
    MapperResult greedy = run_mapper("br07.one-to-one", problem, MapperOptions{});
    MapperResult exact  = exhaustive_one_to_one(problem);
    MapperResult best   = run_mapper("exhaustive.interval", problem, MapperOptions{});
    std::string text = describe(seed, problem) + "\n  br07.one-to-one: " + to_text(greedy.mapping, problem.platform) +
                       fmt::format(" period {}", greedy.objective) +
                       "\n  exhaustive one-to-one: " + to_text(exact.mapping, problem.platform) +
                       fmt::format(" period {}", exact.objective) +
                       "\n  exhaustive.interval: " + to_text(best.mapping, problem.platform) +
                       fmt::format(" period {}", best.objective);
    ASSERT_EQ(greedy.status, SolveStatus::optimal) << text;
    ASSERT_EQ(exact.status, SolveStatus::optimal) << text;
    ASSERT_EQ(best.status, SolveStatus::optimal) << text;
    ASSERT_EQ(classify(greedy.mapping), MappingRule::one_to_one) << text;
    EXPECT_EQ(greedy.objective, br07_eq2_period(problem.pipeline, problem.platform, greedy.mapping)) << text;
    // Theorem 1: the greedy's period is the one-to-one optimum.
    EXPECT_LE(std::abs(greedy.objective - exact.objective), 1e-12 * exact.objective) << text;
    // Interval mappings include the one-to-one ones.
    EXPECT_LE(best.objective, greedy.objective * (1 + 1e-12)) << text;
    if (HasFailure()) break; // one printed instance is enough
  }
}

} // namespace
} // namespace pipesim

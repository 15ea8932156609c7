// Tests of bbr10.exhaustive(.interval) and the period check: hand-checked optima, refusals, and a seeded brute force.
#include "mappers/bbr10/exhaustive_reliability.hpp"

#include "base/input_error.hpp"
#include "mappers/bbr10/period_check.hpp"
#include "model/analytic.hpp"
#include "model/bbr10/election_table.hpp"
#include "model/bbr10/worst_case_period.hpp"
#include "model/test_fixtures.hpp"

#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <limits>

namespace pipesim {
namespace {

Problem reliability_problem(Pipeline pipeline, const std::vector<double>& f, double period_bound)
{
  std::vector<Processor> processors(f.size());
  for (std::size_t u = 0; u < f.size(); ++u) {
    processors[u].name                = "P" + std::to_string(u + 1);
    processors[u].failure_probability = f[u];
  }
  Problem problem;
  problem.pipeline  = std::move(pipeline);
  problem.platform  = Platform(processors, "in", "out", 1.0);
  problem.model     = CommModel::multi_port;
  problem.objective = {Objective::Kind::min_failure_probability, period_bound};
  return problem;
}

MapperResult solve(const std::string& name, Problem problem, double period_bound)
{
  problem.objective.period_bound = period_bound;
  return run_mapper(name, problem, MapperOptions{});
}

/// Two stages w = (1, 1), delta = (0, 0.5, 0), speeds 1, b = 1, no cards; f = (0.1, 0.2, 0.3).
/// - One subset [1-2] on A: eq. (1) gives max(0, 2/1, 0) = 2 whatever A; best F = 0.1 x 0.2 x 0.3 = 0.006.
/// - [1] on A_1, [2] on A_2: max(compute 1, transfer 0.5/1) = 1; F = 1 - (1 - prod A_1)(1 - prod A_2), best with
///   {P1} and {P2, P3}: 1 - 0.9 x 0.94 = 0.154 ({P1, P2}, {P3}: 0.314; {P1, P3}, {P2}: 0.224; singletons worse).
/// P_max = 2: 0.006 on one interval; P_max = 1.5: 0.154, [1] on P1 and [2] on {P2, P3} (the tie with the reverse
/// goes to colouring (1, 2, 2) before (2, 1, 1)); P_max = 0.9: nothing (compute 1 > 0.9).
TEST(Bbr10Exhaustive, TwoStagesThreeProcessorsByHand)
{
  Problem problem = reliability_problem(Pipeline{{1, 1}, {0, 0.5, 0}}, {0.1, 0.2, 0.3}, 2);
  for (std::string name : {"bbr10.exhaustive", "bbr10.exhaustive.interval"}) {
    MapperResult loose = solve(name, problem, 2);
    EXPECT_EQ(loose.status, SolveStatus::optimal);
    EXPECT_NEAR(loose.objective, 0.006, 1e-15);
    EXPECT_EQ(to_text(loose.mapping, problem.platform), "[1-2]:P1|P2|P3");
    EXPECT_EQ(loose.statistics.at("worst_case_period"), 2.0);
    EXPECT_EQ(loose.statistics.at("candidates"), 19.0); // 7 single sets + 12 ordered pairs of disjoint sets
    EXPECT_EQ(loose.statistics.at("visited"), 1.0);

    MapperResult tight = solve(name, problem, 1.5);
    EXPECT_EQ(tight.status, SolveStatus::optimal);
    EXPECT_NEAR(tight.objective, 0.154, 1e-15);
    EXPECT_EQ(to_text(tight.mapping, problem.platform), "[1]:P1 [2]:P2|P3");
    EXPECT_EQ(tight.statistics.at("worst_case_period"), 1.0);

    MapperResult none = solve(name, problem, 0.9);
    EXPECT_EQ(none.status, SolveStatus::infeasible);
    EXPECT_TRUE(none.mapping.intervals.empty());
    EXPECT_EQ(none.objective, std::numeric_limits<double>::infinity());
    EXPECT_EQ(none.statistics.at("visited"), 19.0);
  }
}

/// Three stages w = (1, 2, 1), no data, speeds 1, f = 0.5 each (bbr10 §2's idea: group the light stages).
/// P_max = 2: an interval mapping needs S_2 alone and S_1, S_3 apart (any interval holding S_2 and another stage
/// computes 3), so three singletons: F = 1 - 0.5^3 = 0.875; the general mapping {S_1, S_3} on two processors (compute
/// 2) and {S_2} on the third: F = 1 - 0.75 x 0.5 = 0.625. P_max = 4: everything on all three, F = 0.125, both.
TEST(Bbr10Exhaustive, GeneralMappingBeatsIntervalsByHand)
{
  Problem problem       = reliability_problem(Pipeline{{1, 2, 1}, {0, 0, 0, 0}}, {0.5, 0.5, 0.5}, 2);
  MapperResult general  = solve("bbr10.exhaustive", problem, 2);
  MapperResult interval = solve("bbr10.exhaustive.interval", problem, 2);
  EXPECT_NEAR(general.objective, 0.625, 1e-15);
  EXPECT_EQ(classify(general.mapping), MappingRule::general);
  EXPECT_EQ(subsets(general.mapping).processor_sets.size(), 2U);
  EXPECT_NEAR(interval.objective, 0.875, 1e-15);
  EXPECT_EQ(to_text(interval.mapping, problem.platform), "[1]:P1 [2]:P2 [3]:P3");
  EXPECT_NEAR(solve("bbr10.exhaustive", problem, 4).objective, 0.125, 1e-15);
  EXPECT_NEAR(solve("bbr10.exhaustive.interval", problem, 4).objective, 0.125, 1e-15);
}

TEST(Bbr10Exhaustive, TimeLimitStopsWithoutAMapping)
{
  // 225 candidates, none within P_max = 0.5 (compute 1 at least): the clock is read every 64 candidates.
  Problem problem = reliability_problem(Pipeline{{1, 2, 1}, {0, 0, 0, 0}}, {0.5, 0.5, 0.5, 0.5}, 0.5);
  MapperOptions options;
  options.time_limit  = 0;
  MapperResult result = run_mapper("bbr10.exhaustive", problem, options);
  EXPECT_EQ(result.status, SolveStatus::time_limit);
  EXPECT_TRUE(result.mapping.intervals.empty());
  EXPECT_EQ(result.statistics.at("visited"), 64.0);
  EXPECT_EQ(run_mapper("bbr10.exhaustive", problem, MapperOptions{}).statistics.at("visited"), 225.0);
}

TEST(Bbr10Exhaustive, CountsAndRefusals)
{
  EXPECT_EQ(count_bbr10_mappings(5, 6, false), 97713.0);
  EXPECT_EQ(count_bbr10_mappings(6, 6, false), 464645.0);
  EXPECT_EQ(count_bbr10_mappings(3, 2, true), 3.0 + 2 * 2.0); // [1-3] on 3 sets; 2 cuts x 2 ordered pairs
  Problem problem = reliability_problem(Pipeline{{1, 1}, {0, 0.5, 0}}, {0.1, 0.2, 0.3}, 2);
  auto mapper     = MapperRegistry::instance().create("bbr10.exhaustive");
  EXPECT_FALSE(mapper->refuses(problem));
  Problem one_port = problem;
  one_port.model   = CommModel::one_port;
  EXPECT_EQ(mapper->refuses(one_port).value_or(""),
            "it accepts the multi-port model (it bounds bbr10's multi-port period), not one-port");
  Problem period   = problem;
  period.objective = {};
  EXPECT_NE(mapper->refuses(period).value_or("").find("minimize: failure_probability"), std::string::npos);
  Problem big = reliability_problem(Pipeline{std::vector<double>(6, 1), std::vector<double>(7, 1)},
                                    std::vector<double>(6, 0.1), 2);
  EXPECT_EQ(mapper->refuses(big).value_or(""),
            "464645 candidate mappings (n = 6, p = 6), more than the limit of 200000");
  EXPECT_FALSE(MapperRegistry::instance().create("bbr10.exhaustive.interval")->refuses(big)); // 70,993 candidates
  EXPECT_EQ(count_bbr10_mappings(6, 6, true), 70993.0);
  Problem wide = reliability_problem(Pipeline{{1}, {1, 1}}, std::vector<double>(11, 0.1), 2);
  EXPECT_NE(mapper->refuses(wide).value_or("").find("p = 11"), std::string::npos);
}

/// With disjoint subsets (bbr10's mappings) every term of bbr10_worst_case_upper_bound is reached in a
/// configuration whose election is forced (docs/bbr10-periods.md), so the forced lower bound, the exact worst case
/// and the upper bound coincide. Seeded random general mappings: 2..6 stages, 2..7 processors, half with
/// latencies, two thirds with cards.
TEST(Bbr10PeriodCheck, BoundsEqualTheExactWorstCaseOnDisjointSubsets)
{
#ifdef PIPESIM_SANITIZE
  const int instances = 60;
#else
  const int instances = 200;
#endif
  Rng rng(77);
  int general = 0;
  for (int t = 0; t < instances; ++t) {
    fixtures::RandomInstance inst = fixtures::random_multiport_instance(rng, 2 + t % 5, 2 + t % 6, t % 2 == 1);
    fixtures::random_replicated_general_mapping(rng, inst, 3, t % 3 != 0);
    double exact = bbr10_exact_worst_case_period(inst.pipeline, inst.platform, inst.mapping);
    EXPECT_NEAR(bbr10_forced_lower_bound(inst.pipeline, inst.platform, inst.mapping), exact, 1e-12 * exact)
        << inst.describe();
    EXPECT_NEAR(bbr10_worst_case_upper_bound(inst.pipeline, inst.platform, inst.mapping), exact, 1e-12 * exact)
        << inst.describe();
    general += classify(inst.mapping) == MappingRule::general;
  }
  EXPECT_GT(general, instances / 3);
}

TEST(Bbr10PeriodCheck, ForcedLowerBoundRefusesOverlappingSets)
{
  // bbr10's footnote 2 allows overlapping processor sets; bbr10.exhaustive's mappings never overlap.
  fixtures::CardExample ex;
  Mapping overlap                  = ex.mapping;
  overlap.intervals[1].replicas[0] = {0};
  EXPECT_THROW(bbr10_forced_lower_bound(ex.pipeline, ex.platform, overlap), InputError);
  EXPECT_FALSE(bbr10_disjoint_subsets(overlap));
  EXPECT_TRUE(bbr10_disjoint_subsets(ex.mapping));
}

/// Brute force: every labelling of the stages and colouring of the processors (duplicates included), F by eq. (2)
/// and the definition by enumeration with the exhaustive election, for the candidates with a smaller F.
void expect_optimal(const Problem& problem, const MapperResult& result, bool interval_only, const std::string& what)
{
  int n = problem.pipeline.n(), p = problem.platform.p();
  WorstCaseOptions exact;
  exact.elect          = bbr10_election(ElectionPolicy::exhaustive);
  exact.elect_is_exact = true;
  double limit         = problem.objective.period_bound * (1 + 1e-9);
  double f_found       = result.status == SolveStatus::optimal ? result.objective : 2.0;
  if (result.status == SolveStatus::optimal) {
    EXPECT_LE(bbr10_worst_case_period(problem.pipeline, problem.platform, result.mapping, exact).period, limit) << what;
    EXPECT_TRUE(!interval_only || classify(result.mapping) != MappingRule::general) << what;
  }
  std::vector<int> block(static_cast<std::size_t>(n), 0), colour(static_cast<std::size_t>(p), 0);
  auto next = [](std::vector<int>& digits, int base) {
    for (auto& d : digits)
      if (++d < base)
        return true;
      else
        d = 0;
    return false;
  };
  do {
    bool consecutive = true;
    for (int i = 1; i < n; ++i)
      for (int k = 0; k < i - 1; ++k)
        consecutive = consecutive && (block[static_cast<std::size_t>(k)] != block[static_cast<std::size_t>(i)] ||
                                      block[static_cast<std::size_t>(i - 1)] == block[static_cast<std::size_t>(i)]);
    if (interval_only && !consecutive) continue;
    do {
      std::vector<std::vector<int>> sets(static_cast<std::size_t>(n));
      for (int u = 0; u < p; ++u)
        if (colour[static_cast<std::size_t>(u)] > 0)
          sets[static_cast<std::size_t>(colour[static_cast<std::size_t>(u)] - 1)].push_back(u);
      bool ok = true;
      for (int b : block)
        ok = ok && !sets[static_cast<std::size_t>(b)].empty();
      if (!ok) continue;
      Mapping candidate = bbr10_partition_mapping(block, sets);
      if (bbr10_eq2_failure_probability(problem.platform, candidate) >= f_found - 1e-12) continue;
      EXPECT_GT(bbr10_worst_case_period(problem.pipeline, problem.platform, candidate, exact).period, limit)
          << what << ": " << to_text(candidate, problem.platform) << " has a smaller F and meets P_max";
    } while (next(colour, n + 1));
  } while (next(block, n));
}

TEST(Bbr10Exhaustive, SeededRandomInstancesAgainstBruteForce)
{
#ifdef PIPESIM_SANITIZE
  const int instances = 8;
#else
  const int instances = 24;
#endif
  Rng rng(404);
  int infeasible = 0, general_wins = 0;
  for (int t = 0; t < instances; ++t) {
    int n                         = 2 + (t % 4 != 0);
    int p                         = 2 + t % 3;
    fixtures::RandomInstance inst = fixtures::random_multiport_instance(rng, n, p, t % 4 == 3);
    for (int u = 0; u < p; ++u)
      inst.platform.processor(u).failure_probability = rng.uniform(0.05, 0.5);
    for (auto& d : inst.pipeline.delta) // data in [0.02, 2]: splitting the work pays, as in bbr10 §2
      d *= 0.02;
    if (n == 3) inst.pipeline.w[1] += inst.pipeline.w[0] + inst.pipeline.w[2]; // §2's shape: a heavy middle stage
    // P_max around the worst case of one candidate (for n = 3, the general {S_1, S_3}, {S_2}, with a replica more
    // when p allows): some instances feasible, a few not, general optima below interval ones.
    std::vector<int> block{0, 1, 0};
    if (n == 2) block = {0, static_cast<int>(rng.integer(0, 1))};
    std::vector<std::vector<int>> sets{{0}, {1}};
    if (p > 2) sets[static_cast<std::size_t>(rng.integer(0, 1))].push_back(2);
    double reference =
        bbr10_exact_worst_case_period(inst.pipeline, inst.platform, bbr10_partition_mapping(block, sets));
    Problem problem;
    problem.pipeline      = inst.pipeline;
    problem.platform      = inst.platform;
    problem.model         = CommModel::multi_port;
    problem.objective     = {Objective::Kind::min_failure_probability,
                             reference * (t % 6 == 5 ? 0.3 : rng.uniform(0.8, 1.3))};
    std::string what      = inst.describe() + " P_max = " + std::to_string(problem.objective.period_bound);
    MapperResult general  = run_mapper("bbr10.exhaustive", problem, MapperOptions{});
    MapperResult interval = run_mapper("bbr10.exhaustive.interval", problem, MapperOptions{});
    expect_optimal(problem, general, false, what);
    expect_optimal(problem, interval, true, what);
    EXPECT_GE(interval.objective, general.objective - 1e-12) << what;
    infeasible += general.status == SolveStatus::infeasible;
    general_wins += interval.objective > general.objective + 1e-12;
  }
  // The instances exercise both outcomes of interest: nothing within P_max, a general optimum below the interval one.
  EXPECT_GT(infeasible, 0);
  EXPECT_GT(general_wins, 0);
}

} // namespace
} // namespace pipesim

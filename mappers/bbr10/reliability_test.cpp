#include "mappers/bbr10/reliability.hpp"

#include "mappers/bbr10/reliability_fixtures.hpp"
#include "model/analytic.hpp"
#include "model/bbr10/worst_case_period.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <set>

namespace pipesim {
namespace {

TEST(Bbr10Reliability, FortyFourHeuristicsAndTwoBestAreRegistered)
{
  auto heuristics = bbr10_reliability_heuristics();
  ASSERT_EQ(heuristics.size(), 44U);
  std::set<std::string> names;
  for (const auto& h : heuristics)
    names.insert(h.name());
  EXPECT_EQ(names.size(), 44U);
  for (const char* name :
       {"bbr10.partstc-small", "bbr10.partstw-snake-c", "bbr10.partstr-bal-w", "bbr10.partstw-snake-c.interval",
        "bbr10.partstc-bct-w.interval", "bbr10.partprc", "bbr10.partprw"})
    EXPECT_EQ(names.count(name), 1U) << name;
  auto registered = MapperRegistry::instance().names();
  for (const auto& name : names)
    EXPECT_NE(std::find(registered.begin(), registered.end(), name), registered.end()) << name;
  for (const char* name : {"bbr10.best", "bbr10.best.interval"})
    EXPECT_NE(std::find(registered.begin(), registered.end(), name), registered.end()) << name;
}

TEST(Bbr10Reliability, Section2GeneralBeatsInterval)
{
  // bbr10 §2 at P_max = 1: the best general mapping is Figure 3's (2 subsets x 6 replicas, F_gen = 0.000023,
  // worst case 0.95), the best interval mapping 3 intervals x 4 replicas (F_int = 1 - (1 - 0.15^4)^3 = 0.0015).
  Problem problem      = fixtures::section2_problem(1.0);
  MapperResult general = run_mapper("bbr10.best", problem, MapperOptions{});
  ASSERT_EQ(general.status, SolveStatus::feasible);
  EXPECT_NEAR(general.objective, 1 - std::pow(1 - std::pow(0.15, 6), 2), 1e-15);
  EXPECT_EQ(to_text(general.mapping, problem.platform),
            "[1]:P1|P2|P3|P4|P5|P6 [2]:P7|P8|P9|P10|P11|P12 [3]:P1|P2|P3|P4|P5|P6");
  EXPECT_NEAR(general.statistics["worst_case_bound"], 0.95, 1e-12);
  EXPECT_EQ(general.statistics["heuristics"], 44);
  MapperResult interval = run_mapper("bbr10.best.interval", problem, MapperOptions{});
  EXPECT_NEAR(interval.objective, 1 - std::pow(1 - std::pow(0.15, 4), 3), 1e-15);
  EXPECT_NEAR(interval.objective, 0.0015, 0.00003);
  EXPECT_NE(classify(interval.mapping), MappingRule::general);
  EXPECT_EQ(interval.statistics["heuristics"], 21);
  // pipesim's definition of the worst case (enumeration of the 2^12 configurations) stays within P_max
  WorstCasePeriod worst = bbr10_worst_case_period(problem.pipeline, problem.platform, general.mapping);
  EXPECT_LE(worst.period, 1.0);
}

TEST(Bbr10Reliability, EveryHeuristicReturnsAValidMappingWithinPmax)
{
  Rng rng(21);
  int feasible = 0, runs = 0;
  for (int trial = 0; trial < 25; ++trial) {
    int n = static_cast<int>(rng.integer(1, 5)), p = static_cast<int>(rng.integer(1, 6));
    Problem problem = fixtures::random_reliability_problem(rng, n, p);
    for (const ReliabilityHeuristic& h : bbr10_reliability_heuristics()) {
      MapperResult result = run_mapper(h.name(), problem, MapperOptions{});
      ++runs;
      if (result.status == SolveStatus::infeasible) {
        EXPECT_TRUE(result.mapping.intervals.empty());
        EXPECT_EQ(result.objective, std::numeric_limits<double>::infinity());
        continue;
      }
      ++feasible;
      ASSERT_NO_THROW(validate(result.mapping, problem.pipeline, problem.platform)) << h.name();
      double bound = bbr10_worst_case_upper_bound(problem.pipeline, problem.platform, result.mapping);
      EXPECT_LE(bound, problem.objective.period_bound * (1 + 1e-12)) << h.name() << " trial " << trial;
      EXPECT_NEAR(result.objective, bbr10_eq2_failure_probability(problem.platform, result.mapping), 1e-15);
      if (h.intervals) {
        EXPECT_NE(classify(result.mapping), MappingRule::general) << h.name();
      }
      // disjoint processor sets: the intervals sharing a processor share all of them
      for (const Subsets& s = subsets(result.mapping); const auto& set : s.processor_sets)
        for (const auto& other : s.processor_sets)
          if (&set != &other) {
            for (int u : set)
              EXPECT_EQ(std::count(other.begin(), other.end(), u), 0) << h.name();
          }
    }
  }
  EXPECT_GT(feasible, runs / 3);
  EXPECT_LT(feasible, runs);
}

TEST(Bbr10Reliability, SeededAndBestIsTheSmallest)
{
  Rng rng(22);
  for (int trial = 0; trial < 6; ++trial) {
    Problem problem = fixtures::random_reliability_problem(rng, 4, 6);
    MapperOptions options;
    options.seed       = 9;
    double smallest    = std::numeric_limits<double>::infinity();
    double smallest_in = smallest;
    for (const ReliabilityHeuristic& h : bbr10_reliability_heuristics()) {
      MapperResult a = run_mapper(h.name(), problem, options);
      MapperResult b = run_mapper(h.name(), problem, options);
      EXPECT_EQ(to_text(a.mapping, problem.platform), to_text(b.mapping, problem.platform)) << h.name();
      smallest = std::min(smallest, a.objective);
      if (h.intervals) smallest_in = std::min(smallest_in, a.objective);
    }
    EXPECT_EQ(run_mapper("bbr10.best", problem, options).objective, smallest);
    EXPECT_EQ(run_mapper("bbr10.best.interval", problem, options).objective, smallest_in);
  }
}

TEST(Bbr10Reliability, NeverBelowTheExhaustiveMinimum)
{
  // Seeded tiny instances: every heuristic's F >= bbr10.exhaustive's (the true minimum under pipesim's worst-case
  // definition), the interval variants' >= bbr10.exhaustive.interval's; record how often best reaches the minimum.
  Rng rng(23);
  int instances = 0, best_optimal = 0;
  for (int trial = 0; trial < 12; ++trial) {
    Problem problem       = fixtures::random_reliability_problem(rng, static_cast<int>(rng.integer(2, 4)), 5);
    MapperResult exact    = run_mapper("bbr10.exhaustive", problem, MapperOptions{});
    MapperResult exact_in = run_mapper("bbr10.exhaustive.interval", problem, MapperOptions{});
    ASSERT_NE(exact.status, SolveStatus::time_limit);
    if (exact.status == SolveStatus::infeasible) continue;
    ++instances;
    for (const ReliabilityHeuristic& h : bbr10_reliability_heuristics()) {
      MapperResult result = run_mapper(h.name(), problem, MapperOptions{});
      if (result.status == SolveStatus::infeasible) continue;
      EXPECT_GE(result.objective, exact.objective * (1 - 1e-12)) << h.name() << " trial " << trial;
      if (h.intervals) {
        EXPECT_GE(result.objective, exact_in.objective * (1 - 1e-12)) << h.name() << " trial " << trial;
      }
    }
    if (run_mapper("bbr10.best", problem, MapperOptions{}).objective <= exact.objective * (1 + 1e-12)) ++best_optimal;
  }
  EXPECT_GE(instances, 6);
  EXPECT_GE(best_optimal, instances / 2); // measured: see docs/bbr10-reliability.md
}

TEST(Bbr10Reliability, InfeasibleAndRefusals)
{
  MapperResult none = run_mapper("bbr10.partstw-snake-c", fixtures::two_stage_problem(0.4), MapperOptions{});
  EXPECT_EQ(none.status, SolveStatus::infeasible);
  EXPECT_TRUE(none.mapping.intervals.empty());

  auto mapper       = MapperRegistry::instance().create("bbr10.best");
  Problem problem   = fixtures::two_stage_problem(1.5);
  problem.objective = Objective{};
  EXPECT_NE(mapper->refuses(problem)->find("failure_probability"), std::string::npos);
  problem       = fixtures::two_stage_problem(1.5);
  problem.model = CommModel::one_port;
  EXPECT_NE(mapper->refuses(problem)->find("multi-port"), std::string::npos);
  EXPECT_FALSE(mapper->refuses(fixtures::two_stage_problem(1.5)).has_value());
}

TEST(Bbr10Reliability, ThePeriodTestDecidesWhetherGeneralBeatsInterval)
{
  // fixtures::split_senders_problem, f = 0.2 (subset_state_test.cpp has the arithmetic of the two tests). The only
  // general split is {S1, S3} | {S2}: a <= 4 replicas for {S1, S3}, and b <= 1 for {S2} under the worst-case test
  // (F = 1 - (1 - f^4)(1 - f) = 0.20128), b <= 4 under the paper's (F = 1 - (1 - f^4)^2 = 0.00319744). Interval
  // mappings need three intervals [1], [2], [3] on x, y, z processors, one output each: y / 4 <= 1 and z / 4 <= 1
  // under both tests, so the best is 3 + 3 + 2 in some order, F = 1 - (1 - f^2)(1 - f^3)^2 = 0.05529856. The
  // worst-case test makes the interval mapping win, the paper's test the general one: bbr10 Table 3's reversal
  // in miniature.
  Problem problem     = fixtures::split_senders_problem();
  double f            = 0.2;
  double general_wc   = 1 - (1 - std::pow(f, 4)) * (1 - f);
  double general_aa   = 1 - std::pow(1 - std::pow(f, 4), 2);
  double interval_any = 1 - (1 - f * f) * std::pow(1 - std::pow(f, 3), 2);
  EXPECT_NEAR(general_wc, 0.20128, 1e-12);
  EXPECT_NEAR(general_aa, 0.00319744, 1e-12);
  EXPECT_NEAR(interval_any, 0.05529856, 1e-12);
  for (PeriodTest test : enum_values<PeriodTest>()) {
    bool paper = test == PeriodTest::all_alive_best_election;
    MapperOptions options;
    options.period_test = test;
    MapperResult exact  = run_mapper("bbr10.exhaustive", problem, options);
    EXPECT_EQ(exact.status, SolveStatus::optimal) << test;
    EXPECT_NEAR(exact.objective, paper ? general_aa : interval_any, 1e-12) << test;
    EXPECT_EQ(exact.period_test, test);
    EXPECT_NEAR(run_mapper("bbr10.exhaustive.interval", problem, options).objective, interval_any, 1e-12) << test;
    MapperResult best = run_mapper("bbr10.best", problem, options);
    EXPECT_NEAR(best.objective, paper ? general_aa : interval_any, 1e-12) << test;
    EXPECT_EQ(best.period_test, test);
    EXPECT_EQ(classify(best.mapping) == MappingRule::general, paper) << test;
    EXPECT_NEAR(run_mapper("bbr10.best.interval", problem, options).objective, interval_any, 1e-12) << test;
    // a general heuristic tries l = 1..3 subsets: under the worst-case test its l = 2 mapping ({S1, S3} on 4, {S2}
    // on 1: general_wc) loses to its l = 3 one (three intervals, interval_any)
    MapperResult partstw = run_mapper("bbr10.partstw-snake-c", problem, options);
    EXPECT_NEAR(partstw.objective, paper ? general_aa : interval_any, 1e-12) << test;
    EXPECT_EQ(partstw.statistics.count("all_alive_period"), paper ? 1U : 0U) << test;
    if (paper) { // accepted only by the paper's test: its worst case is one survivor of {S1, S3} sending (4 + 3) / 4
      EXPECT_NEAR(partstw.statistics["all_alive_period"], 1.0, 1e-12);
      EXPECT_NEAR(partstw.statistics["worst_case_bound"], 7.0 / 4, 1e-12);
    }
  }
}

} // namespace
} // namespace pipesim

// Tests of hedpm.exhaustive and hedpm.exhaustive.replicated-intervals: counts, a hand-checked optimum, refusals and
// the time limit.
#include "mappers/hedpm/exhaustive.hpp"

#include "mappers/exact/interval_fixtures.hpp"
#include "mappers/hedpm/hedpm_fixtures.hpp"
#include "model/hedpm/production_time.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

/// Mappings counted one by one: intervals from stage i + 1, `free` processors left.
double count_by_hand(int i, int n, int free, HedpmSpace space)
{
  if (i == n) return 1;
  double total = 0;
  for (int e = i + 1; e <= n; ++e) {
    int most     = space == HedpmSpace::single_stage_replicas && e > i + 1 ? 1 : free;
    double lists = 1;
    for (int r = 1; r <= most; ++r) {
      lists *= free - r + 1; // ordered lists of r processors
      total += lists * count_by_hand(e, n, free - r, space);
    }
  }
  return total;
}

TEST(HedpmExhaustive, CountsMappingsWithOrderedReplicas)
{
  // n = 2, p = 2: [1-2] on P1 or P2; [1][2] on two distinct processors (2 ways); replicas of S1 leave nothing for
  // S2. With replicated intervals, [1-2] may also be on P1|P2 or P2|P1.
  EXPECT_EQ(hedpm_count_mappings(2, 2, HedpmSpace::single_stage_replicas), 4);
  EXPECT_EQ(hedpm_count_mappings(2, 2, HedpmSpace::replicated_intervals), 6);
  for (int n = 1; n <= 5; ++n)
    for (int p = 1; p <= 5; ++p)
      for (HedpmSpace space : {HedpmSpace::single_stage_replicas, HedpmSpace::replicated_intervals})
        EXPECT_EQ(hedpm_count_mappings(n, p, space), count_by_hand(0, n, p, space)) << n << " " << p;
}

TEST(HedpmExhaustive, HandCheckedReplicationAndGathering)
{
  // delta = 0: no transfer costs anything; w = (6, 1) on three processors of speed 1. One interval: 7. S1 on two
  // dealt replicas (6 / 2 = 3) and S2 alone (1): 3, the optimum of the paper's mappings (S1 on three replicas would
  // leave S2 without a processor). Replicating the gathered [1-2] on all three: 7 / 3.
  Problem problem;
  problem.pipeline        = Pipeline{{6, 1}, {0, 0, 0}};
  problem.platform        = fixtures::uniform_platform({1, 1, 1}, 1.0);
  MapperResult single     = run_mapper("hedpm.exhaustive", problem, MapperOptions{});
  MapperResult replicated = run_mapper("hedpm.exhaustive.replicated-intervals", problem, MapperOptions{});
  EXPECT_EQ(single.status, SolveStatus::optimal);
  EXPECT_EQ(single.objective, 3.0);
  EXPECT_EQ(to_text(single.mapping, problem.platform), "[1]:P1|P2/deal [2]:P3");
  EXPECT_EQ(single.statistics.at("mappings"), hedpm_count_mappings(2, 3, HedpmSpace::single_stage_replicas));
  EXPECT_EQ(replicated.objective, 7.0 / 3);
  EXPECT_EQ(to_text(replicated.mapping, problem.platform), "[1-2]:P1|P2|P3/deal");
}

TEST(HedpmExhaustive, RefusalsAndTimeLimit)
{
  Problem problem;
  problem.pipeline = Pipeline{std::vector<double>(8, 1.0), std::vector<double>(9, 1.0)};
  problem.platform = fixtures::uniform_platform(std::vector<double>(10, 1.0), 1.0);
  auto mapper      = MapperRegistry::instance().create("hedpm.exhaustive");
  EXPECT_THAT(*mapper->refuses(problem),
              testing::HasSubstr("mappings to enumerate (n = 8, p = 10), more than the limit"));
  problem.model = CommModel::multi_port;
  EXPECT_THAT(*mapper->refuses(problem), testing::HasSubstr("one-port"));
  // A time limit of 0 stops the enumeration at its first check, with the best mapping found so far.
  Problem small;
  small.pipeline = Pipeline{std::vector<double>(5, 1.0), std::vector<double>(6, 1.0)};
  small.platform = fixtures::uniform_platform(std::vector<double>(6, 1.0), 1.0);
  MapperOptions options;
  options.time_limit  = 0;
  MapperResult result = run_mapper("hedpm.exhaustive", small, options);
  EXPECT_EQ(result.status, SolveStatus::time_limit);
  EXPECT_FALSE(result.mapping.intervals.empty());
  EXPECT_EQ(result.objective, hedpm_production_time(small.pipeline, small.platform, result.mapping));
}

} // namespace
} // namespace pipesim

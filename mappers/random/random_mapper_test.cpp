// Random mappers: valid, of the promised rule, reproducible from the seed.
#include "mappers/mapper.hpp"
#include "mappers/random/random_mapper.hpp"
#include "model/analytic.hpp"

#include <algorithm>
#include <gtest/gtest.h>

using namespace pipesim;

namespace {
Problem problem(int n, int p)
{
  Problem pr;
  pr.pipeline.w.assign(static_cast<std::size_t>(n), 1.0);
  pr.pipeline.delta.assign(static_cast<std::size_t>(n + 1), 1.0);
  std::vector<Processor> procs;
  for (int u = 0; u < p; ++u)
    procs.push_back(Processor{"P" + std::to_string(u + 1), 1.0 + u});
  pr.platform = Platform(procs, "in", "out", 2.0);
  return pr;
}
} // namespace

TEST(RandomMapper, ValidReproducibleAndOfTheRightRule)
{
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    Problem pr = problem(1 + static_cast<int>(seed % 7), 1 + static_cast<int>(seed % 5) * 2);
    MapperOptions o;
    o.seed = seed;
    auto r = run_mapper("random.interval", pr, o);
    ASSERT_NO_THROW(validate(r.mapping, pr.pipeline, pr.platform)) << seed;
    EXPECT_NE(classify(r.mapping), MappingRule::general);
    EXPECT_DOUBLE_EQ(r.objective, br07_eq2_period(pr.pipeline, pr.platform, r.mapping));
    EXPECT_EQ(to_text(run_mapper("random.interval", pr, o).mapping, pr.platform), to_text(r.mapping, pr.platform));
    auto o2o = run_mapper("random.one-to-one", pr, o);
    if (pr.pipeline.n() <= pr.platform.p())
      EXPECT_EQ(classify(o2o.mapping), MappingRule::one_to_one);
    else
      EXPECT_EQ(o2o.status, SolveStatus::infeasible);
  }
}

TEST(RandomMapper, DifferentSeedsGiveDifferentMappings)
{
  Problem pr = problem(8, 8);
  MapperOptions a, b;
  a.seed = 1;
  b.seed = 2;
  EXPECT_NE(to_text(run_mapper("random.interval", pr, a).mapping, pr.platform),
            to_text(run_mapper("random.interval", pr, b).mapping, pr.platform));
}

TEST(RandomMapper, ReplicatedKeepsTheIntervalsAndAddsDistinctReplicas)
{
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    Mapping base = random_interval_mapping(8, 12, seed, false);
    Mapping rep  = random_replicated_mapping(8, 12, seed, 3);
    ASSERT_EQ(rep.m(), base.m());
    std::vector<int> all;
    for (int j = 0; j < rep.m(); ++j) {
      EXPECT_EQ(rep.interval(j).first, base.interval(j).first);
      EXPECT_EQ(rep.interval(j).replicas.front(), base.interval(j).replicas.front());
      EXPECT_GE(rep.interval(j).replicas.size(), 1u);
      EXPECT_LE(rep.interval(j).replicas.size(), 3u);
      for (const auto& g : rep.interval(j).replicas)
        all.push_back(g.front());
    }
    std::ranges::sort(all);
    EXPECT_TRUE(std::adjacent_find(all.begin(), all.end()) == all.end()) << "seed " << seed;
  }
  // with spare processors, some interval is replicated
  int replicated = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    replicated += random_replicated_mapping(4, 12, seed, 3).replicated() ? 1 : 0;
  EXPECT_GT(replicated, 15);
}

TEST(RandomMapper, StageSetsPutEachStageOnARandomSetOfOneToFiveProcessors)
{
  int general = 0, shared = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    int n = 2 + static_cast<int>(seed % 15), p = 3 + static_cast<int>(seed % 11);
    Mapping m  = random_stage_sets_mapping(n, p, seed, 5);
    Problem pr = problem(n, p);
    ASSERT_NO_THROW(validate(m, pr.pipeline, pr.platform)) << "seed " << seed;
    EXPECT_EQ(to_text(m, pr.platform), to_text(random_stage_sets_mapping(n, p, seed, 5), pr.platform));
    std::vector<int> previous;
    for (const auto& in : m.intervals) {
      EXPECT_EQ(in.replication, Replication::active);
      EXPECT_GE(in.replicas.size(), 1u);
      EXPECT_LE(in.replicas.size(), static_cast<std::size_t>(std::min(5, p)));
      std::vector<int> set;
      for (const auto& g : in.replicas)
        set.push_back(g.front());
      EXPECT_TRUE(std::ranges::is_sorted(set));
      EXPECT_NE(set, previous) << "seed " << seed << ": equal consecutive sets are one interval";
      previous = set;
    }
    general += classify(m) == MappingRule::general ? 1 : 0;
    shared += m.replicated() ? 1 : 0;
  }
  EXPECT_GT(general, 40);
  EXPECT_GT(shared, 55);
  // the mapper: multi-port only
  Problem pr = problem(6, 8);
  pr.model   = CommModel::multi_port;
  MapperOptions o;
  o.seed = 3;
  auto r = run_mapper("random.stage-sets", pr, o);
  EXPECT_EQ(to_text(r.mapping, pr.platform), to_text(random_stage_sets_mapping(6, 8, 3, 8), pr.platform)); // 1..p
  EXPECT_GT(r.objective, 0);
  EXPECT_EQ(to_text(run_mapper("random.stage-sets-5", pr, o).mapping, pr.platform),
            to_text(random_stage_sets_mapping(6, 8, 3, 5), pr.platform));
  pr.model = CommModel::one_port;
  EXPECT_TRUE(MapperRegistry::instance().create("random.stage-sets")->refuses(pr).has_value());
}

// Tests of sv95.greedy and sv95.greedy-slowest (sv95 §4): §4.1 step by step, the example where the neighbours'
// rule is stuck and Theorem 1's variant is optimal, §4.2's merge and split, maximal replication.
#include "mappers/sv95/greedy.hpp"

#include "mappers/sv95/sv95_fixtures.hpp"
#include "model/sv95/chain_generator.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <map>

namespace pipesim {
namespace {

Task greedy_task(CostFunction exec, int p_min, bool replicable)
{
  return Task{"", std::move(exec), p_min, 0, replicable};
}

std::string greedy_modules_of(const MapperResult& result) { return to_text(sv95_modules(result.mapping)); }

/// t1 needs its tenth processor (f_exec = 10 on 1..9, 1 on 10 and 11: sv95 §4.1's "bad behaviour"), t2 has
/// f_exec = 5/p, f_ecom(ps, pr) = 0.1 ps grows with the sender, f_icom = 100, nothing replicable, P = 11.
TaskChain tenth_processor()
{
  TaskChain chain;
  chain.tasks = {greedy_task(CostFunction::values({10, 10, 10, 10, 10, 10, 10, 10, 10, 1, 1}), 1, false),
                 greedy_task(CostFunction::polynomial(0, 5), 1, false)};
  chain.icom  = {CostFunction::polynomial(100)};
  chain.ecom  = {CommFunction::polynomial(0, 0, 0, 0.1)};
  return chain;
}

TEST(Sv95Greedy, Section41StepByStep)
{
  // (1, 1): f1 = 10 + 0.1 = 10.1, f2 = 0.1 + 5 = 5.1. t1 is the slowest; a processor to t1 gives (2, 1):
  // f1 = 10.2 (its send grows), to t2 gives (1, 2): max(10.1, 2.6) = 10.1. The neighbours' rule takes t2, and
  // again at every step up to (1, 10): the best met stays the first, 10.1 on 2 processors.
  TaskChain chain = tenth_processor();
  auto greedy     = sv95_greedy_assignment(chain, {{1, 1}, {2, 2}}, 11, Sv95GreedyRule::neighbours);
  ASSERT_TRUE(greedy);
  EXPECT_EQ(greedy->q, (std::vector<int>{1, 1}));
  // Theorem 1's variant always adds to the slowest: (2, 1) 10.2, ..., (9, 1) 10.9, (10, 1): f1 = 1 + 1 = 2,
  // f2 = 1 + 5 = 6. ecom grows with the processors, as Theorem 1 assumes: the variant is optimal.
  auto slowest = sv95_greedy_assignment(chain, {{1, 1}, {2, 2}}, 11, Sv95GreedyRule::slowest);
  ASSERT_TRUE(slowest);
  EXPECT_EQ(slowest->q, (std::vector<int>{10, 1}));
  Problem problem = fixtures::sv95_problem(chain, 11);
  EXPECT_EQ(run_mapper("sv95.greedy", problem, MapperOptions{}).objective, 10.1);
  MapperResult theorem1 = run_mapper("sv95.greedy-slowest", problem, MapperOptions{});
  EXPECT_EQ(theorem1.objective, 6.0);
  EXPECT_EQ(theorem1.status, SolveStatus::feasible);
  EXPECT_EQ(greedy_modules_of(theorem1), "[t1] r=1 p=10 | [t2] r=1 p=1");
  EXPECT_EQ(run_mapper("sv95.exact", problem, MapperOptions{}).objective, 6.0);
}

TEST(Sv95Greedy, NeighboursRuleWhenCommunicationShrinks)
{
  // f_exec = 8/p each, f_ecom(ps, pr) = 8/pr (the receiver's parallelism), not replicable, f_icom = 100, P = 4.
  // (1, 1): f1 = 8 + 8 = 16, f2 = 8 + 8 = 16; slowest t1: to t1 (2, 1): max(4 + 8, 8 + 8) = 16; to t2 (1, 2):
  // f1 = 8 + 4 = 12, f2 = 4 + 4 = 8 -> 12, taken. Slowest t1: (2, 2): max(4 + 4, 4 + 4) = 8 vs (1, 3):
  // max(8 + 8/3, 8/3 + 8/3) = 10.67 -> (2, 2) = 8, the optimum. Theorem 1's variant adds to t1 first: (2, 1):
  // f1 = 4 + 8 = 12, f2 = 8 + 8 = 16; then to t2, now the slowest: (2, 2) = 8 as well.
  TaskChain chain;
  chain.tasks     = {greedy_task(CostFunction::polynomial(0, 8), 1, false),
                     greedy_task(CostFunction::polynomial(0, 8), 1, false)};
  chain.icom      = {CostFunction::polynomial(100)};
  chain.ecom      = {CommFunction::polynomial(0, 0, 8)};
  Problem problem = fixtures::sv95_problem(chain, 4);
  for (const char* mapper : {"sv95.greedy", "sv95.greedy-slowest"}) {
    MapperResult result = run_mapper(mapper, problem, MapperOptions{});
    EXPECT_EQ(result.objective, 8.0) << mapper;
    EXPECT_EQ(greedy_modules_of(result), "[t1] r=1 p=2 | [t2] r=1 p=2") << mapper;
  }
}

TEST(Sv95Greedy, Section42MergeAndReplication)
{
  // Merge: f_exec = 4/p each, f_icom = 0, f_ecom = 5, P = 2 (see dp_test): (1, 1) has period 9; merging the pair on
  // its 2 processors gives 2 + 2 = 4, kept; the second run on [t1-t2] reaches p = 2: 4.
  TaskChain chain;
  chain.tasks         = {greedy_task(CostFunction::polynomial(0, 4), 1, false),
                         greedy_task(CostFunction::polynomial(0, 4), 1, false)};
  chain.icom          = {CostFunction::polynomial(0)};
  chain.ecom          = {CommFunction::polynomial(5)};
  MapperResult merged = run_mapper("sv95.greedy", fixtures::sv95_problem(chain, 2), MapperOptions{});
  EXPECT_EQ(merged.objective, 4.0);
  EXPECT_EQ(greedy_modules_of(merged), "[t1-t2] r=1 p=2");
  // Maximal replication (§3.2 through §4.2): f_exec = 60/p, p_min 2, P = 5: q = 5 is 2 instances of 2, 15
  TaskChain one;
  one.tasks               = {greedy_task(CostFunction::polynomial(0, 60), 2, true)};
  MapperResult replicated = run_mapper("sv95.greedy", fixtures::sv95_problem(one, 5), MapperOptions{});
  EXPECT_EQ(greedy_modules_of(replicated), "[t1] r=2 p=2");
  EXPECT_EQ(replicated.objective, 15.0);
  std::vector<Sv95Module> triplets = sv95_triplets(one, Sv95Assignment{{{1, 1}}, {5}});
  EXPECT_EQ(triplets, (std::vector<Sv95Module>{{1, 1, 2, 2}}));
}

TEST(Sv95Greedy, SplitAfterMerging)
{
  // f_exec = 12/p each, f_icom = 4, f_ecom = 6/ps + 6/pr, not replicable, P = 8. Singletons (1, 1): 12 + 12 = 24;
  // merged on their 2 processors: 6 + 4 + 6 = 16, kept. The merged module then gets every processor: 24/q + 4,
  // best at q = 8: 7. The split check on (merged, 8): apart on (4, 4), f1 = 3 + 1.5 + 1.5 = 6 = f2, lower: split.
  // The second run on [t1] | [t2]: (1, 1) 24, (2, 1) 21 (tie with (1, 2): the slowest itself), (2, 2) 12,
  // (3, 2) 11, (3, 3) 8, (4, 3) 7.5, (4, 4) 6: the optimum (the merged module does 7 at best).
  TaskChain chain;
  chain.tasks         = {greedy_task(CostFunction::polynomial(0, 12), 1, false),
                         greedy_task(CostFunction::polynomial(0, 12), 1, false)};
  chain.icom          = {CostFunction::polynomial(4)};
  chain.ecom          = {CommFunction::polynomial(0, 6, 6)};
  Problem problem     = fixtures::sv95_problem(chain, 8);
  MapperResult result = run_mapper("sv95.greedy", problem, MapperOptions{});
  EXPECT_EQ(result.objective, 6.0);
  EXPECT_EQ(greedy_modules_of(result), "[t1] r=1 p=4 | [t2] r=1 p=4");
  EXPECT_EQ(run_mapper("sv95.exhaustive", problem, MapperOptions{}).objective, 6.0);
  auto merged = sv95_greedy_assignment(chain, {{1, 2}}, 8, Sv95GreedyRule::neighbours);
  EXPECT_EQ(merged->q, (std::vector<int>{8})); // 24/8 + 4 = 7
}

TEST(Sv95Greedy, InfeasibleWhenNothingFits)
{
  TaskChain chain;
  chain.tasks           = {greedy_task(CostFunction::polynomial(1), 2, false),
                           greedy_task(CostFunction::polynomial(1), 2, false)};
  chain.icom            = {CostFunction::polynomial(0)};
  chain.ecom            = {CommFunction::polynomial(0)};
  chain.tasks[0].memory = 2;
  chain.tasks[1].memory = 1; // together: max(2, ceil(3)) = 3 > P = 3? no: 3 fits
  EXPECT_EQ(greedy_modules_of(run_mapper("sv95.greedy", fixtures::sv95_problem(chain, 3), MapperOptions{})),
            "[t1-t2] r=1 p=3");
  chain.tasks[1].memory = 2; // together 4, apart 2 + 2: nothing fits on 3
  EXPECT_EQ(run_mapper("sv95.greedy", fixtures::sv95_problem(chain, 3), MapperOptions{}).status,
            SolveStatus::infeasible);
  EXPECT_FALSE(sv95_greedy(chain, 3, Sv95GreedyRule::neighbours));
}

TEST(Sv95Greedy, HowOftenOptimalOnFittedChains)
{
  // sv95 says the greedy is "optimal or near optimal in practice". On 60 chains with §5-shaped polynomials
  // (sv95_fitted_ranges, seed s), k = 3 + s % 6 tasks, P = 16 + 8 (s % 5) processors, against sv95.exact: the
  // values of this seeded run (docs/sv95.md).
  struct Count {
    int optimal        = 0;
    double worst_ratio = 1;
  };
  std::map<std::string, Count> counts;
#ifdef PIPESIM_SANITIZE
  constexpr std::uint64_t chains = 12; // the statistics below are those of the 60 chains of the optimised build
#else
  constexpr std::uint64_t chains = 60;
#endif
  for (std::uint64_t seed = 1; seed <= chains; ++seed) {
    int k              = 3 + static_cast<int>(seed % 6);
    int P              = 16 + 8 * static_cast<int>(seed % 5);
    Problem problem    = fixtures::sv95_problem(generate_task_chain(k, sv95_fitted_ranges(), seed), P);
    MapperResult exact = run_mapper("sv95.exact", problem, MapperOptions{});
    for (const char* mapper : {"sv95.greedy", "sv95.greedy-slowest", "sv95.dp-maximal"}) {
      MapperResult got = run_mapper(mapper, problem, MapperOptions{});
      ASSERT_GE(got.objective, exact.objective) << mapper << " seed " << seed;
      Count& c = counts[mapper];
      c.optimal += got.objective == exact.objective ? 1 : 0;
      c.worst_ratio = std::max(c.worst_ratio, got.objective / exact.objective);
    }
  }
  for (const auto& [mapper, c] : counts)
    fmt::print("{}: optimal on {} of {}, worst period / optimum {:.6f}\n", mapper, c.optimal, chains, c.worst_ratio);
  if (chains < 60) return;
  // The neighbours' rule gets stuck behind maximal replication: one more processor on a replicated bottleneck of
  // p_min 2 changes nothing (q = 5 is still 2 instances of 2), while a neighbour's gain of a few microseconds on
  // f_ecom wins step 3; seed 48: [t1] r=2 p=2 | [t2-t3] r=1 p=36 (0.292) against [t1] r=5 p=5 | [t2-t3] r=1 p=15
  // (0.0494). Theorem 1's variant keeps adding to the bottleneck and crosses the step.
  EXPECT_EQ(counts["sv95.greedy"].optimal, 21);
  EXPECT_NEAR(counts["sv95.greedy"].worst_ratio, 5.918398, 1e-6);
  EXPECT_EQ(counts["sv95.greedy-slowest"].optimal, 28);
  EXPECT_NEAR(counts["sv95.greedy-slowest"].worst_ratio, 1.250897, 1e-6);
  EXPECT_EQ(counts["sv95.dp-maximal"].optimal, 34);
  EXPECT_NEAR(counts["sv95.dp-maximal"].worst_ratio, 1.072904, 1e-6);
}

} // namespace
} // namespace pipesim

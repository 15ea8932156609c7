// Tests of sv95.exact: against sv95.dp on seeded medium instances (the tiny ones are in cross_test.cpp), on
// chains where every mapping has an infinite period, refusals and the time limit.
#include "mappers/sv95/exact.hpp"

#include "mappers/sv95/sv95_fixtures.hpp"
#include "model/sv95/chain_generator.hpp"
#include "model/sv95/response.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

using ::testing::HasSubstr;

TEST(Sv95Exact, EqualsTheDynamicProgramOnMediumInstances)
{
  // k in 2..6, P in 12..40, §5-shaped polynomials (TaskChainRanges' defaults), p_min 1..3, 3 tasks in 4 replicable
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    int k           = 2 + static_cast<int>(seed % 5);
    int P           = 12 + static_cast<int>((seed * 7) % 29);
    TaskChain chain = generate_task_chain(k, TaskChainRanges{}, seed);
    Problem problem = fixtures::sv95_problem(chain, P);
    MapperResult dp = run_mapper("sv95.dp", problem, MapperOptions{});
    MapperResult ex = run_mapper("sv95.exact", problem, MapperOptions{});
    ASSERT_EQ(ex.status, SolveStatus::optimal) << "seed " << seed;
    EXPECT_EQ(ex.objective, dp.objective) << "seed " << seed << ", k = " << k << ", P = " << P;
    EXPECT_EQ(ex.statistics.at("processors"), dp.statistics.at("processors")) << "seed " << seed;
    EXPECT_LE(ex.objective, run_mapper("sv95.greedy", problem, MapperOptions{}).objective) << "seed " << seed;
  }
}

TEST(Sv95Exact, InfinitePeriodsAreInfeasible)
{
  // the task runs on 2 or 3 processors only (a table), is not replicable, and P = 1
  TaskChain chain;
  chain.tasks = {Task{"", CostFunction::values({5, 4}, 2), 1, 0, false}};
  EXPECT_EQ(run_mapper("sv95.exact", fixtures::sv95_problem(chain, 1), MapperOptions{}).status,
            SolveStatus::infeasible);
  // P = 4: the greedy ends on 4 processors (+inf), the decision finds p = 3: 4
  MapperResult result = run_mapper("sv95.exact", fixtures::sv95_problem(chain, 4), MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::optimal);
  EXPECT_EQ(result.objective, 4.0);
  EXPECT_EQ(to_text(sv95_modules(result.mapping)), "[t1] r=1 p=3");
}

TEST(Sv95Exact, RefusalsAndTimeLimit)
{
  Sv95Exact exact;
  Problem large = fixtures::sv95_problem(generate_task_chain(2, TaskChainRanges{}, 1), 1025);
  EXPECT_THAT(exact.refuses(large).value_or(""), HasSubstr("P = 1025 processors, more than 1024"));
  Problem problem = fixtures::sv95_problem(generate_task_chain(5, TaskChainRanges{}, 2), 30);
  MapperOptions none;
  none.time_limit     = 0; // before the first decision: sv95.greedy's mapping
  MapperResult result = exact.map(problem, none);
  EXPECT_EQ(result.status, SolveStatus::time_limit);
  EXPECT_EQ(result.objective, run_mapper("sv95.greedy", problem, MapperOptions{}).objective);
  EXPECT_EQ(result.statistics.at("decisions"), 0.0);
}

} // namespace
} // namespace pipesim

// Tests of sv95.exhaustive (sv95 §2.2 by enumeration): the candidate count, a hand-checked optimum with its
// tie-break (fewest processors), tables that end before P, refusals and the time limit.
#include "mappers/sv95/exhaustive.hpp"

#include "mappers/sv95/sv95_fixtures.hpp"
#include "model/sv95/chain_generator.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

using ::testing::HasSubstr;

TEST(Sv95Exhaustive, CandidateCount)
{
  // one task on P = 3: (r, p) in {(1,1), (1,2), (1,3), (2,1), (3,1)} when replicable, 3 otherwise
  TaskChain one;
  one.tasks = {Task{"", CostFunction::polynomial(1), 1, 0, true}};
  EXPECT_EQ(sv95_exhaustive_candidates(one, 3), 5.0);
  one.tasks[0].replicable = false;
  EXPECT_EQ(sv95_exhaustive_candidates(one, 3), 3.0);
  // two tasks, not replicable, P = 2: together on 1 or 2, apart (1, 1)
  TaskChain two;
  two.tasks = {Task{"", CostFunction::polynomial(1)}, Task{"", CostFunction::polynomial(1)}};
  two.icom  = {CostFunction::polynomial(0)};
  two.ecom  = {CommFunction::polynomial(0)};
  EXPECT_EQ(sv95_exhaustive_candidates(two, 2), 3.0);
}

TEST(Sv95Exhaustive, OptimumAndFewestProcessorsOnTies)
{
  // f_exec = 12/p (no constant part), replicable, P = 6: every (r, p) with r p = 6 gives 12/6 = 2; the first
  // enumerated among the fewest processors (6) is r = 1, p = 6.
  TaskChain chain;
  chain.tasks         = {Task{"", CostFunction::polynomial(0, 12), 1, 0, true}};
  MapperResult result = run_mapper("sv95.exhaustive", fixtures::sv95_problem(chain, 6), MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::optimal);
  EXPECT_EQ(result.objective, 2.0);
  EXPECT_EQ(to_text(sv95_modules(result.mapping)), "[t1] r=1 p=6");
  // f_exec = 12 on any p (a constant): one processor suffices for 12, six instances of one for 2
  chain.tasks[0].exec = CostFunction::polynomial(12);
  result              = run_mapper("sv95.exhaustive", fixtures::sv95_problem(chain, 6), MapperOptions{});
  EXPECT_EQ(to_text(sv95_modules(result.mapping)), "[t1] r=6 p=1");
  // a table for p = 2..3 only, P = 4: p = 1 and p = 4 cannot run; two instances of 2 give 5 / 2
  chain.tasks[0].exec = CostFunction::values({5, 4}, 2);
  result              = run_mapper("sv95.exhaustive", fixtures::sv95_problem(chain, 4), MapperOptions{});
  EXPECT_EQ(to_text(sv95_modules(result.mapping)), "[t1] r=2 p=2");
  EXPECT_EQ(result.objective, 2.5);
  // not replicable, table for p = 2..3, P = 1: no finite period
  chain.tasks[0].replicable = false;
  EXPECT_EQ(run_mapper("sv95.exhaustive", fixtures::sv95_problem(chain, 1), MapperOptions{}).status,
            SolveStatus::infeasible);
}

TEST(Sv95Exhaustive, RefusesLargeInstancesAndStopsOnTime)
{
  Sv95Exhaustive exhaustive;
  Problem large = fixtures::sv95_problem(generate_task_chain(6, TaskChainRanges{}, 3), 40);
  EXPECT_THAT(exhaustive.refuses(large).value_or(""), HasSubstr("candidate mappings (k = 6, P = 40)"));
  auto instance = fixtures::sv95_tiny_instance(7);
  MapperOptions none;
  none.time_limit = 0; // checked every 4,096 leaves: tiny instances finish first
  EXPECT_EQ(exhaustive.map(fixtures::sv95_problem(instance.chain, instance.P), none).status, SolveStatus::optimal);
  Problem medium = fixtures::sv95_problem(generate_task_chain(5, TaskChainRanges{}, 3), 40); // 314,811 leaves
  ASSERT_FALSE(exhaustive.refuses(medium));
  EXPECT_EQ(exhaustive.map(medium, none).status, SolveStatus::time_limit);
}

} // namespace
} // namespace pipesim

// Tests of sv95.dp and sv95.dp-maximal (sv95 §3): hand-worked assignments, the counterexamples to §3.2's
// "replicate maximally" (docs/sv95.md), idle processors, clustering, refusals and the time limit.
#include "mappers/sv95/dp.hpp"

#include "mappers/sv95/sv95_fixtures.hpp"
#include "model/sv95/chain_generator.hpp"
#include "model/sv95/response.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

using ::testing::HasSubstr;

Task task(CostFunction exec, int p_min, bool replicable) { return Task{"", std::move(exec), p_min, 0, replicable}; }

std::string modules_of(const MapperResult& result) { return to_text(sv95_modules(result.mapping)); }

TEST(Sv95Dp, Section31AssignmentWithCommunication)
{
  // Two tasks, not replicable, f_exec = 8/p each, f_ecom(ps, pr) = ps (sending costs grow with the sender's
  // processors), f_icom = 100 (clustering never pays), P = 4. f1 = 8/p1 + p1, f2 = p1 + 8/p2:
  // (1,1) 9 | (1,2) max(9, 5) = 9 | (1,3) 9 | (2,1) max(6, 10) = 10 | (2,2) max(6, 6) = 6 | (3,1) 11. Optimum 6.
  TaskChain chain;
  chain.tasks     = {task(CostFunction::polynomial(0, 8), 1, false), task(CostFunction::polynomial(0, 8), 1, false)};
  chain.icom      = {CostFunction::polynomial(100)};
  chain.ecom      = {CommFunction::polynomial(0, 0, 0, 1, 0)};
  Problem problem = fixtures::sv95_problem(chain, 4);
  MapperResult result = run_mapper("sv95.dp", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::optimal);
  EXPECT_EQ(result.objective, 6.0);
  EXPECT_EQ(modules_of(result), "[t1] r=1 p=2 | [t2] r=1 p=2");
  EXPECT_EQ(result.statistics.at("throughput"), 1 / 6.0);
  EXPECT_EQ(result.statistics.at("processors"), 4.0);
  EXPECT_EQ(result.statistics.at("bottleneck"), 1.0); // both reach 6: the first
}

TEST(Sv95Dp, MaximalReplicationLosesTheProcessorsLeftOver)
{
  // Counterexample 1 (docs/sv95.md): one replicable task, f_exec = 60/p, p_min = 2, P = 5. §3.2 replicates q = 5
  // processors into floor(5/2) = 2 instances of 2: 30 / 2 = 15 (q = 4 gives the same, q = 3: 20, q = 2: 30). One
  // instance of 5 processors does better: 60/5 = 12. The paper's assumption (no superlinear speedup: f(p) p does
  // not decrease) holds: f(p) p = 60.
  TaskChain chain;
  chain.tasks        = {task(CostFunction::polynomial(0, 60), 2, true)};
  Problem problem    = fixtures::sv95_problem(chain, 5);
  MapperResult exact = run_mapper("sv95.dp", problem, MapperOptions{});
  MapperResult paper = run_mapper("sv95.dp-maximal", problem, MapperOptions{});
  EXPECT_EQ(exact.objective, 12.0);
  EXPECT_EQ(modules_of(exact), "[t1] r=1 p=5");
  EXPECT_EQ(paper.objective, 15.0);
  EXPECT_EQ(paper.status, SolveStatus::feasible);
  EXPECT_EQ(modules_of(paper), "[t1] r=2 p=2");
  EXPECT_EQ(run_mapper("sv95.exhaustive", problem, MapperOptions{}).objective, 12.0);
}

TEST(Sv95Dp, MaximalReplicationSlowsTheReceiverDown)
{
  // Counterexample 2: t1 replicable (f_exec = 6/p, p_min 1), t2 not (f_exec = 1), f_ecom(ps, pr) = 6/ps,
  // f_icom = 10, P = 3. Maximal replication gives t1 two instances of one processor: t1's term (6 + 6) / 2 = 6,
  // but t2 receives from one-processor senders: 6/1 + 1 = 7. One instance of 2 processors: t1 (3 + 3) / 1 = 6,
  // t2 6/2 + 1 = 4: period 6. (Clustered: 6/3 + 10 + 1 = 13.)
  TaskChain chain;
  chain.tasks        = {task(CostFunction::polynomial(0, 6), 1, true), task(CostFunction::polynomial(1), 1, false)};
  chain.icom         = {CostFunction::polynomial(10)};
  chain.ecom         = {CommFunction::polynomial(0, 6)};
  Problem problem    = fixtures::sv95_problem(chain, 3);
  MapperResult exact = run_mapper("sv95.dp", problem, MapperOptions{});
  MapperResult paper = run_mapper("sv95.dp-maximal", problem, MapperOptions{});
  EXPECT_EQ(exact.objective, 6.0);
  EXPECT_EQ(modules_of(exact), "[t1] r=1 p=2 | [t2] r=1 p=1");
  EXPECT_EQ(paper.objective, 7.0);
  EXPECT_EQ(modules_of(paper), "[t1] r=2 p=1 | [t2] r=1 p=1");
}

TEST(Sv95Dp, ReplicationAndIdleProcessors)
{
  // f_exec = 1 + 12/p, replicable, P = 4: r = 4 of p = 1: 13/4 = 3.25; r = 2 of 2: 7/2 = 3.5; r = 1 of 4: 4.
  TaskChain chain;
  chain.tasks       = {task(CostFunction::polynomial(1, 12), 1, true)};
  MapperResult fast = run_mapper("sv95.dp", fixtures::sv95_problem(chain, 4), MapperOptions{});
  EXPECT_EQ(fast.objective, 3.25);
  EXPECT_EQ(modules_of(fast), "[t1] r=4 p=1");
  // f_exec = 1 + p, not replicable, P = 2: one processor (2) beats all of them (3); §3.1 read literally uses all
  chain.tasks       = {task(CostFunction::polynomial(1, 0, 1), 1, false)};
  MapperResult idle = run_mapper("sv95.dp", fixtures::sv95_problem(chain, 2), MapperOptions{});
  EXPECT_EQ(idle.objective, 2.0);
  EXPECT_EQ(idle.statistics.at("processors"), 1.0);
}

TEST(Sv95Dp, ClusteringSavesTheCommunication)
{
  // f_exec = 4/p each, f_icom = 0, f_ecom = 5, not replicable, P = 2: apart (1, 1): 4 + 5 = 9 each; together on
  // 2 processors: 2 + 0 + 2 = 4.
  TaskChain chain;
  chain.tasks = {task(CostFunction::polynomial(0, 4), 1, false), task(CostFunction::polynomial(0, 4), 1, false)};
  chain.icom  = {CostFunction::polynomial(0)};
  chain.ecom  = {CommFunction::polynomial(5)};
  MapperResult result = run_mapper("sv95.dp", fixtures::sv95_problem(chain, 2), MapperOptions{});
  EXPECT_EQ(result.objective, 4.0);
  EXPECT_EQ(modules_of(result), "[t1-t2] r=1 p=2");
  // memory 1.5 and 1 on processors of 1: t1 alone needs 2, the pair 3 (2.5 rounded up)
  chain.tasks[0].memory = 1.5;
  chain.tasks[1].memory = 1;
  MapperResult three    = run_mapper("sv95.dp", fixtures::sv95_problem(chain, 3), MapperOptions{});
  EXPECT_EQ(modules_of(three), "[t1-t2] r=1 p=3"); // 4/3 + 4/3 = 2.67 beats apart, (2, 1): 2 + 5 = 7
  EXPECT_EQ(run_mapper("sv95.dp", fixtures::sv95_problem(chain, 2), MapperOptions{}).status,
            SolveStatus::infeasible); // apart 2 + 1, together 3: nothing fits on 2
}

TEST(Sv95Dp, RefusalsAndTimeLimit)
{
  Sv95Dp dp(Sv95DpReplication::any);
  Problem problem = fixtures::sv95_problem(TaskChain{{Task{"x", CostFunction::polynomial(1)}}, {}, {}, {}, {}}, 3);
  EXPECT_FALSE(dp.refuses(problem));
  Problem no_chain = problem;
  no_chain.task_chain.reset();
  EXPECT_THAT(dp.refuses(no_chain).value_or(""), HasSubstr("no task chain"));
  Problem stages = problem;
  stages.pipeline.w.push_back(0);
  stages.pipeline.delta.push_back(0);
  EXPECT_EQ(dp.refuses(stages).value_or(""),
            "the pipeline has 2 stages and the task chain 1 tasks: one stage per task");
  Problem hetero                     = problem;
  hetero.platform.processor(1).speed = 2;
  EXPECT_THAT(dp.refuses(hetero).value_or(""), HasSubstr("communication-homogeneous"));
  Problem big                    = problem;
  big.task_chain->tasks[0].p_min = 4;
  EXPECT_EQ(dp.refuses(big).value_or(""), "task x needs 4 processors per instance, more than P = 3");
  Problem negative                   = problem;
  negative.task_chain->tasks[0].exec = CostFunction::polynomial(1, 0, -0.5);
  EXPECT_EQ(dp.refuses(negative).value_or(""), "f_exec of x at p = 3 is -0.5 (a time must be >= 0)");
  Problem reliability   = problem;
  reliability.objective = {Objective::Kind::min_failure_probability, 1};
  EXPECT_TRUE(dp.refuses(reliability));
  Problem huge = fixtures::sv95_problem(generate_task_chain(4, TaskChainRanges{}, 1), 600); // 3 * 600^3 / 6
  EXPECT_THAT(dp.refuses(huge).value_or(""), HasSubstr("table V_b(U, p, q) would have"));

  // a time limit of 0 stops before the table is filled: sv95.greedy's mapping, status `time limit`
  MapperOptions none;
  none.time_limit     = 0;
  auto instance       = fixtures::sv95_tiny_instance(5);
  MapperResult result = dp.map(fixtures::sv95_problem(instance.chain, instance.P), none);
  EXPECT_EQ(result.status, SolveStatus::time_limit);
  EXPECT_FALSE(result.mapping.intervals.empty());
}

} // namespace
} // namespace pipesim

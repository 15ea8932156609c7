// Tests of sv95.exact's decision procedure against the exhaustive optimum of the tiny instances: at the optimal
// period T* it finds the optimum's processor count (and a mapping with every term <= T*), and just below T* none.
#include "mappers/sv95/decision.hpp"

#include "mappers/sv95/sv95_fixtures.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

TEST(Sv95Decision, FewestProcessorsAtTheOptimumAndNoneBelow)
{
  int checked = 0;
  for (std::uint64_t seed = 0; seed < 500; ++seed) {
    auto instance     = fixtures::sv95_tiny_instance(seed);
    Problem problem   = fixtures::sv95_problem(instance.chain, instance.P);
    MapperResult best = run_mapper("sv95.exhaustive", problem, MapperOptions{});
    if (best.status == SolveStatus::infeasible) continue;
    ++checked;
    Sv95Tables tables(instance.chain, instance.P);
    Sv95Decision decision(tables);
    double T = best.objective;
    ASSERT_EQ(decision.solve(T), static_cast<int>(best.statistics.at("processors"))) << instance.describe();
    std::vector<Sv95Module> modules = decision.modules(T);
    Sv95Evaluation e                = sv95_evaluate(instance.chain, modules);
    EXPECT_LE(e.period, T) << instance.describe();
    EXPECT_EQ(e.processors, static_cast<int>(best.statistics.at("processors"))) << instance.describe();
    if (T > 0) {
      EXPECT_GT(decision.solve(std::nextafter(T, 0.0)), instance.P) << instance.describe();
    }
  }
  EXPECT_EQ(checked, 488);
}

TEST(Sv95Decision, InfeasibleBoundsAndTinyMachines)
{
  // One task, f_exec(p) = 12/p, replicable, P = 4: T = 3 needs 4 processors (r = 4, p = 1: 12 / 4 = 3, or
  // r = 2, p = 2: 6 / 2 = 3, or r = 1, p = 4); T = 2.9 needs 12/2.9 > 4 instances of one processor: none fits.
  TaskChain chain;
  chain.tasks.push_back(Task{"t1", CostFunction::polynomial(0, 12), 1, 0, true});
  Sv95Tables tables(chain, 4);
  Sv95Decision decision(tables);
  EXPECT_EQ(decision.solve(3), 4);
  EXPECT_GT(decision.solve(2.9), 4);
  EXPECT_EQ(decision.solve(6), 2); // 12 / 2 = 6 on one instance of 2 processors, or two of one
  EXPECT_EQ(decision.solve(12), 1);
}

} // namespace
} // namespace pipesim

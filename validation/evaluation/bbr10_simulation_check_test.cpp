// Issue 6 item 7: mappings of the bbr10 reliability heuristics, simulated in the multi-port model with the
// `probability` crash model: the survival rate against 1 - F (eq. (2)), and the steady-state period after the last
// crash against the period bound the mapper promised (the worst-case bound <= P_max, docs/bbr10-reliability.md).
#include "mappers/bbr10/reliability_fixtures.hpp"
#include "mappers/mapper.hpp"
#include "model/analytic.hpp"
#include "model/bbr10/worst_case_period.hpp"
#include "validation/evaluation/monte_carlo.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

namespace {
#ifdef PIPESIM_SANITIZE
constexpr int check_runs = 30, instances = 2; // ASan makes each simulation ~10 times slower
#else
constexpr int check_runs = 150, instances = 4;
#endif

TEST(Bbr10SimulationCheck, SurvivalAndPostCrashPeriodsOfHeuristicMappings)
{
  int checked_periods = 0;
  for (std::uint64_t seed = 1; seed <= instances; ++seed) {
    Rng rng(100 + seed);
    Problem problem = fixtures::random_reliability_problem(rng, 3, 8);
    for (int u = 0; u < problem.platform.p(); ++u) // high enough for the survival rate to say something
      problem.platform.processor(u).failure_probability = rng.uniform(0.3, 0.6);
    problem.objective.period_bound *= 2;
    const char* mapper  = seed % 2 == 1 ? "bbr10.best" : "bbr10.partstw-bct-c.interval";
    MapperResult result = run_mapper(mapper, problem, MapperOptions{});
    ASSERT_EQ(result.status, SolveStatus::feasible) << seed;
    double bound = bbr10_worst_case_upper_bound(problem.pipeline, problem.platform, result.mapping);
    ASSERT_LE(bound, problem.objective.period_bound * (1 + 1e-12));

    SimulationSettings s;
    s.model               = CommModel::multi_port;
    s.allocation          = Allocation::allotted;
    s.datasets            = 40;
    s.failures.model      = FailureModel::probability;
    s.failures.window_end = 0.2; // the survival campaign's window: no fatal crash after the run's end
    s.runs                = check_runs;
    s.seed                = seed;
    MonteCarloSummary mc  = simulate_monte_carlo(problem.pipeline, problem.platform, result.mapping, s, 2);
    EXPECT_EQ(mc.errors, 0);
    EXPECT_DOUBLE_EQ(*mc.analytic_survival, 1 - result.objective);
    EXPECT_TRUE(mc.consistent_99()) << mapper << " seed " << seed << ": rate " << mc.survival_rate << " ["
                                    << mc.ci99.low << ", " << mc.ci99.high << "], 1 - F = " << 1 - result.objective;
    for (const MonteCarloRun& run : mc.details)
      if (run.verdict == Verdict::survived && run.period_after > 0) {
        ++checked_periods;
        EXPECT_LE(run.period_after, bound * (1 + 1e-6)) << mapper << " seed " << seed << " run " << run.index;
      }
  }
  EXPECT_GT(checked_periods, instances * check_runs / 12);
}

} // namespace

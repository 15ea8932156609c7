// Monte Carlo survival series against seed 004 eq. (2).
#include "mappers/random/random_mapper.hpp"
#include "model/analytic.hpp"
#include "model/test_fixtures.hpp"
#include "platforms/input_error.hpp"
#include "simulator/failures.hpp"
#include "validation/monte_carlo.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

namespace {
#ifdef PIPESIM_SANITIZE
constexpr int survival_runs = 100; // the same checks, fewer runs: ASan makes each simulation ~10 times slower
#else
constexpr int survival_runs = 300;
#endif

SimulationSettings series(const std::string& model, int runs, int datasets = 20)
{
  SimulationSettings s;
  s.model = model;
  if (model == "multi-port") s.allocation = "allotted";
  s.datasets       = datasets;
  s.failures.model = "probability";
  s.runs           = runs;
  s.seed           = 7;
  return s;
}
} // namespace

TEST(MonteCarlo, SurvivalRatesAgreeWithEq2)
{
  // The small version of validation/campaigns/survival.yaml: 8 random replicated mappings (half one-port, half
  // multi-port) with failure probabilities in [0.05, 0.5], 300 runs each (100 under ASan): 1 - F inside the 99% Wilson
  // interval.
  int inside = 0, total = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    Rng rng(seed);
    auto inst = fixtures::random_platform_and_pipeline(rng, static_cast<int>(rng.integer(2, 5)), 10, false);
    for (int u = 0; u < inst.platform.p(); ++u)
      inst.platform.processor(u).failure_probability = rng.uniform(0.05, 0.5);
    inst.mapping = random_replicated_mapping(inst.pipeline.n(), inst.platform.p(), seed, 3);
    auto s       = series(seed % 2 ? "multi-port" : "one-port", survival_runs);
    auto mc      = simulate_monte_carlo(inst.pipeline, inst.platform, inst.mapping, s, 2);
    double F     = bbr10_eq2_failure_probability(inst.platform, inst.mapping);
    ASSERT_TRUE(mc.analytic_survival);
    EXPECT_DOUBLE_EQ(*mc.analytic_survival, 1 - F);
    EXPECT_EQ(mc.errors, 0);
    EXPECT_EQ(mc.survived + mc.failed, survival_runs);
    EXPECT_LE(mc.ci99.low, mc.ci95.low);
    EXPECT_GE(mc.ci99.high, mc.ci95.high);
    ++total;
    if (mc.consistent_99()) ++inside;
    EXPECT_TRUE(mc.consistent_99()) << "seed " << seed << ": rate " << mc.survival_rate << " [" << mc.ci99.low << ", "
                                    << mc.ci99.high << "], 1 - F = " << 1 - F << "; " << inst.describe();
  }
  EXPECT_EQ(inside, total);
}

TEST(MonteCarlo, RunsAreSeededAndReproducible)
{
  fixtures::Eq6Example ex; // not replicated: any crash of P1 or P2 fails the run
  ex.platform.processor(0).failure_probability = 0.3;
  ex.platform.processor(1).failure_probability = 0.2;
  auto s                                       = series("one-port", 40);
  auto a                                       = simulate_monte_carlo(ex.pipeline, ex.platform, ex.mapping, s, 2);
  auto b                                       = simulate_monte_carlo(ex.pipeline, ex.platform, ex.mapping, s, 1);
  ASSERT_EQ(a.details.size(), 40u);
  for (int i = 0; i < 40; ++i) {
    const auto& x = a.details[static_cast<std::size_t>(i)];
    EXPECT_EQ(x.seed, run_seed(7, i));
    EXPECT_EQ(x.verdict, b.details[static_cast<std::size_t>(i)].verdict);
    EXPECT_EQ(x.verdict == "survived", x.crashes == 0) << "run " << i; // no replica: any crash fails
  }
  EXPECT_EQ(a.survived, b.survived);
  EXPECT_NEAR(*a.analytic_survival, 0.7 * 0.8, 1e-12);
}

TEST(MonteCarlo, ExponentialModelHasNoEq2Reference)
{
  fixtures::Eq6Example ex;
  ex.platform.processor(0).mtbf = 1e9; // crashes essentially never during the run
  auto s                        = series("one-port", 10);
  s.failures.model              = "exponential";
  auto mc                       = simulate_monte_carlo(ex.pipeline, ex.platform, ex.mapping, s, 2);
  EXPECT_FALSE(mc.analytic_survival);
  EXPECT_EQ(mc.survived + mc.failed, 10);
  EXPECT_GE(mc.survived, 9);
  SimulationSettings none;
  EXPECT_THROW(simulate_monte_carlo(ex.pipeline, ex.platform, ex.mapping, none, 1), InputError);
}

// Multi-port `fair` allocation (SimGrid max-min) against bbr10 eq. (1) and Algorithm 1: why it can measure above
// them (CM02 weights each flow by the latency of its route), and the allotted caps on routes with latencies.
#include "model/multiport_analytic.hpp"
#include "model/test_fixtures.hpp"
#include "simulator/simulate.hpp"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <simgrid/s4u.hpp> // simgrid/version.h needs the XBT macros
#include <simgrid/version.h>

using namespace pipesim;
using fixtures::asan_scale;

namespace {
SimulationSettings multiport(Allocation allocation, int datasets = 60)
{
  SimulationSettings s;
  s.model      = CommModel::multi_port;
  s.allocation = allocation;
  s.datasets   = datasets;
  return s;
}

/// I_1 = S_1 on P1, I_2 = S_2 replicated on {P2, P3}: P1 sends delta_1 = 10 to P2 and P3 at once through its card
/// Bout_P1 = 10. Links P1->P2: b = 5, latency c2; P1->P3: b = 10, latency c3; every other link b = 100, c = 0;
/// speeds 100, w = 1 (compute 0.01), delta_0 = delta_2 = 1. Only P1's sends matter:
/// eq. (1) = Algorithm 1 = max(c2 + 10/5, c3 + 10/10, max(c2, c3) + 20/10).
struct Fanout {
  Pipeline pipeline{{1, 1}, {1, 10, 1}};
  Platform platform;
  Mapping mapping;
  Fanout(double c2, double c3)
  {
    platform                      = Platform({{"P1", 100.0}, {"P2", 100.0}, {"P3", 100.0}}, "in", "out", 100.0);
    platform.processor(0).nic_out = 10;
    platform.set_link(0, 1, 5, c2);
    platform.set_link(0, 2, 10, c3);
    mapping.intervals = {Interval{1, 1, {{0}}, Replication::active}, Interval{2, 2, {{1}, {2}}, Replication::active}};
  }
  double eq1() const { return bbr10_eq1_period(pipeline, platform, mapping); }
  double alg1() const { return bbr10_interval_period_all_alive(pipeline, platform, mapping); }
  double simulated(Allocation allocation) const
  {
    return simulate({pipeline, platform, mapping, multiport(allocation)}).run.period;
  }
};

/// The 200 instances of docs/semantics.md: replicated interval mappings, latencies in [0, 0.1] on even seeds.
fixtures::RandomInstance replicated_instance(std::uint64_t seed)
{
  Rng rng(seed);
  auto inst = fixtures::random_multiport_instance(rng, static_cast<int>(rng.integer(1, 6)),
                                                  static_cast<int>(rng.integer(2, 10)), seed % 2 == 0);
  fixtures::random_replicated_mapping(rng, inst);
  return inst;
}

double percentile(std::vector<double> v, double q)
{
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
}
} // namespace

TEST(MultiPortFair, UnequalLatenciesStarveTheSlowLink)
{
  // c2 = 0.1, c3 = 0.01: eq. (1) = Algorithm 1 = max(0.1 + 2, 0.01 + 1, 0.1 + 2) = 2.1. CM02 gives each flow the
  // sharing penalty of its route latency, and max-min equalises rate x penalty on the card:
  //   [0.01, 0.1]  only the flow to P3 has paid its latency: min(b = 10, Bout = 10) = 10, 0.9 bytes;
  //   [0.1, 1.101] x2 * 0.1 = x3 * 0.01 and x2 + x3 = 10: x2 = 10/11, x3 = 100/11; P3's 9.1 bytes take 1.001,
  //                P2 gets 0.91 bytes;
  //   [1.101, 2.919] the flow to P2 alone, held by its link: 9.09 / 5 = 1.818.
  // P1 sends the next data set once both transfers are done: period 2.919 = 1.39 x eq. (1). The card idles for
  // 1.818 s while the slow link works alone: the bytes it could have carried earlier went to the fast link.
  Fanout f(0.1, 0.01);
  EXPECT_NEAR(f.eq1(), 2.1, 1e-12);
  EXPECT_NEAR(f.alg1(), 2.1, 1e-12);
  double fair = f.simulated(Allocation::fair);
  EXPECT_NEAR(fair, 2.919, 1e-6);
  EXPECT_GT(fair, 1.3 * f.eq1());
}

TEST(MultiPortFair, ZeroLatencyWeighsAsOneSecond)
{
  // A route without latency gets penalty 1 (SimGrid's default), one with latency c gets penalty c: c2 = 0,
  // c3 = 0.01 starves the flow to P2 a hundredfold. eq. (1) = max(0 + 2, 0.01 + 1, 0.01 + 2) = 2.01.
  //   [0, 0.01]    the flow to P2 alone at b = 5: 0.05 bytes;
  //   [0.01, 1.02] x2 * 1 = x3 * 0.01, x2 + x3 = 10: x2 = 10/101, x3 = 1000/101; P3's 10 bytes take 1.01, P2 gets
  //                0.1 bytes;
  //   [1.02, 2.99] P2's remaining 9.85 bytes at 5: 1.97.
  Fanout f(0.0, 0.01);
  EXPECT_NEAR(f.eq1(), 2.01, 1e-12);
  double fair = f.simulated(Allocation::fair);
  EXPECT_NEAR(fair, 2.99, 1e-6);
  EXPECT_GT(fair, f.eq1());
}

TEST(MultiPortFair, EqualLatenciesShareTheCardEvenly)
{
  // Same penalties on both routes: max-min gives 5 and 5 (P2's flow is also at its link bound), both transfers end
  // together at c + 20/10: the fair period equals eq. (1).
  Fanout same(0.1, 0.1);
  EXPECT_NEAR(same.eq1(), 2.1, 1e-12);
  EXPECT_NEAR(same.simulated(Allocation::fair), 2.1, 1e-6);
  Fanout none(0, 0);
  EXPECT_NEAR(none.eq1(), 2.0, 1e-12);
  EXPECT_NEAR(none.simulated(Allocation::fair), 2.0, 1e-6);
}

TEST(MultiPortFair, AllottedCapsHoldWithLatencies)
{
  // Allotted rates: 5 for both flows (Bout: 20 bytes in 2). With SimGrid 3.32 and TCP-gamma 0 the caps of flows
  // whose route has a latency were dropped and this instance measured 2.919 like `fair` (simulator/run.cpp).
  Fanout f(0.1, 0.01);
  EXPECT_NEAR(f.simulated(Allocation::allotted), 2.1, 1e-6);
#if SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR < 34
  // SimGrid 3.32 bounds the flow by min(rate, gamma / 2c) = 0, which max-min reads as "no bound": the caps are gone
  auto gamma0         = multiport(Allocation::allotted);
  gamma0.simgrid_args = {"--cfg=network/TCP-gamma:0"}; // user arguments come last and win
  EXPECT_NEAR(simulate({f.pipeline, f.platform, f.mapping, gamma0}).run.period, 2.919, 1e-6);
#endif
}

TEST(MultiPortFair, AllottedMatchesAlgorithm1OnRandomGeneralMappingsWithLatencies)
{
  // The latency variant of multiport_test.cpp's general-mapping test. Before the TCP-gamma fix, seeds 10, 11 and 25
  // measured 1.5e-4, 9.9e-4 and 4.8e-4 below Algorithm 1 and seed 2 7.1% above: uncapped transfers.
  for (std::uint64_t seed = 1; seed <= (asan_scale == 1 ? 30 : 1); ++seed) { // 3,000 data sets: 1 seed under ASan
    Rng rng(seed);
    auto inst = fixtures::random_multiport_instance(rng, static_cast<int>(rng.integer(2, 7)),
                                                    static_cast<int>(rng.integer(1, 4)), true);
    fixtures::random_general_mapping(rng, inst);
    std::string what = "seed " + std::to_string(seed) + ": " + inst.describe();
    auto all         = FailureConfiguration::all_alive(inst.platform);
    double formula =
        bbr10_period(inst.pipeline, inst.platform, inst.mapping, all, first_alive_election(inst.mapping, all));
    double simulated =
        simulate({inst.pipeline, inst.platform, inst.mapping, multiport(Allocation::allotted, 3000)}).run.period;
    EXPECT_NEAR(simulated, formula, 1e-6 * formula) << what;
  }
}

TEST(MultiPortFair, AboveTheFormulasOnlyWithUnequalLatencies)
{
  // docs/semantics.md's measurement: 200 random replicated interval mappings (latencies on even seeds), N = 200.
  // Without latencies fair never exceeds Algorithm 1 (hence eq. (1)); with latencies it can; with the latencies of
  // each instance replaced by one common value (equal penalties) it never exceeds either formula again.
  std::vector<double> to_eq1, to_alg1;
  int above_eq1 = 0, above_alg1 = 0;
  // Under the sanitizers seeds 41-60 only (seed 50 is above eq. (1)): the 200 seeds take 80 s there.
  const std::uint64_t first = asan_scale == 1 ? 1 : 41, last = asan_scale == 1 ? 200 : 60;
  for (std::uint64_t seed = first; seed <= last; ++seed) {
    auto inst        = replicated_instance(seed);
    std::string what = "seed " + std::to_string(seed) + ": " + inst.describe();
    double alg1      = bbr10_interval_period_all_alive(inst.pipeline, inst.platform, inst.mapping);
    double eq1       = bbr10_eq1_period(inst.pipeline, inst.platform, inst.mapping);
    double fair = simulate({inst.pipeline, inst.platform, inst.mapping, multiport(Allocation::fair, 200)}).run.period;
    to_eq1.push_back(fair / eq1);
    to_alg1.push_back(fair / alg1);
    above_eq1 += fair > eq1 * (1 + 1e-6);
    above_alg1 += fair > alg1 * (1 + 1e-6);
    if (seed % 2 == 1) {
      EXPECT_LE(fair, alg1 * (1 + 1e-6)) << what;
      continue;
    }
    auto& pf = inst.platform; // one latency for every route: every flow gets the same penalty
    for (int u = 0; u < pf.nodes(); ++u)
      for (int v = 0; v < pf.nodes(); ++v)
        if (u != v) pf.set_link(u, v, pf.bandwidth(u, v), 0.05);
    alg1        = bbr10_interval_period_all_alive(inst.pipeline, pf, inst.mapping);
    double same = simulate({inst.pipeline, pf, inst.mapping, multiport(Allocation::fair, 200)}).run.period;
    EXPECT_LE(same, alg1 * (1 + 1e-6)) << what << " (every latency 0.05)";
  }
  std::printf("fair / eq. (1): min %.4f median %.4f p90 %.4f max %.4f, above in %d of %d\n", percentile(to_eq1, 0),
              percentile(to_eq1, 0.5), percentile(to_eq1, 0.9), percentile(to_eq1, 1), above_eq1,
              static_cast<int>(to_eq1.size()));
  std::printf("fair / Algorithm 1: min %.4f median %.4f max %.4f, above in %d of %d\n", percentile(to_alg1, 0),
              percentile(to_alg1, 0.5), percentile(to_alg1, 1), above_alg1, static_cast<int>(to_alg1.size()));
  EXPECT_GT(above_eq1, 0); // the finding itself: with latencies, max-min can be slower than eq. (1)
}

// Deal replication, randomised: the simulator has the event graphs' output times (one-port: model/event_graph.hpp;
// multi-port allotted: model/multiport_event_graph.hpp) on seeded random interval mappings with deal, half of them
// gathering several stages on the replicas of a dealt interval, many with dealt neighbours.
#include "model/deal.hpp"
#include "model/event_graph.hpp"
#include "model/multiport_event_graph.hpp"
#include "model/test_fixtures.hpp"
#include "simulator/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <iostream>

using namespace pipesim;

namespace {

bool gathers(const Mapping& mapping)
{
  return std::ranges::any_of(mapping.intervals, [](const Interval& in) { return is_dealt(in) && in.stages() > 1; });
}

bool dealt_neighbours(const Mapping& mapping)
{
  for (int j = 1; j < mapping.m(); ++j)
    if (is_dealt(mapping.interval(j - 1)) && is_dealt(mapping.interval(j))) return true;
  return false;
}

/// Seed `seed`'s instance: 1 to 6 stages, 2 to 10 processors (cards in the multi-port model), latencies on half of
/// them, an interval mapping with 1 to 4 replicas per interval (so L <= 12), some interval dealt; it gathers several
/// stages on a dealt interval when the seed is odd, never when it is even (drawn again until it does).
fixtures::RandomInstance deal_instance(std::uint64_t seed, bool multiport)
{
  for (std::uint64_t attempt = 0;; ++attempt) {
    Rng rng(seed * 1000 + attempt);
    int n          = static_cast<int>(rng.integer(1, 6));
    int p          = static_cast<int>(rng.integer(2, 10));
    bool latencies = seed % 4 < 2;
    auto inst      = multiport ? fixtures::random_multiport_instance(rng, n, p, latencies)
                               : fixtures::random_platform_and_pipeline(rng, n, p, latencies);
    fixtures::random_deal_mapping(rng, inst, 4);
    if (inst.mapping.has_deal() && gathers(inst.mapping) == (seed % 2 == 1)) return inst;
  }
}

struct Figures {
  int mappings = 0, gathering = 0, neighbours = 0, period_is_ratio = 0;
  double max_error = 0; // relative, over every output time
};

/// Simulates seed's instance and compares every output time and the period with the event graph's.
void check(std::uint64_t seed, bool multiport, Figures& fig)
{
  auto inst   = deal_instance(seed, multiport);
  const int l = deal_round(inst.mapping);
  SimulationSettings s;
  s.datasets       = std::max(40, 8 * l);
  s.model          = multiport ? CommModel::multi_port : CommModel::one_port;
  s.allocation     = Allocation::allotted;
  s.buffer         = static_cast<int>(seed / 2 % 2) + 1;
  auto graph       = multiport ? build_multiport_event_graph(inst.pipeline, inst.platform, inst.mapping, s.buffer)
                               : build_oneport_event_graph(inst.pipeline, inst.platform, inst.mapping);
  auto expected    = event_graph_output_times(graph, s.datasets);
  auto sim         = simulate({inst.pipeline, inst.platform, inst.mapping, s}).run;
  std::string what = "seed " + std::to_string(seed) + " (" + to_string(s.model) + ", buffer " +
                     std::to_string(s.buffer) + "): " + inst.describe();
  ASSERT_EQ(sim.failures.verdict, Verdict::survived) << what;
  ASSERT_EQ(sim.output_times.size(), expected.size()) << what;
  for (std::size_t k = 0; k < expected.size(); ++k) {
    double error  = std::abs(sim.output_times[k] - expected[k]) / expected[k];
    fig.max_error = std::max(fig.max_error, error);
    ASSERT_LE(error, 1e-9) << what << "\ndata set " << k << ": simulated " << sim.output_times[k] << ", event graph "
                           << expected[k];
  }
  double period = measured_period(expected, s.effective_warmup(), s.effective_cooldown(), l);
  ASSERT_NEAR(sim.period, period, 1e-9 * period) << what;
  double ratio = max_cycle_ratio(graph).period;
  fig.period_is_ratio += std::abs(sim.period - ratio) <= 1e-9 * ratio ? 1 : 0;
  fig.mappings += 1;
  fig.gathering += gathers(inst.mapping) ? 1 : 0;
  fig.neighbours += dealt_neighbours(inst.mapping) ? 1 : 0;
}

void check_seeds(std::uint64_t first, std::uint64_t count, bool multiport)
{
  Figures fig;
  for (std::uint64_t seed = first; seed < first + count / fixtures::asan_scale; ++seed) {
    check(seed, multiport, fig);
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::cout << (multiport ? "multi-port allotted" : "one-port") << ", seeds " << first << "..: " << fig.mappings
            << " mappings (" << fig.gathering << " gathering, " << fig.neighbours
            << " with dealt neighbours), largest relative error of an output time " << fig.max_error
            << ", measured period = cycle ratio within 1e-9 in " << fig.period_is_ratio << "\n";
}

} // namespace

// 200 mappings per model, in four tests each (ctest runs them in parallel). Each compares N = max(40, 8 L) output
// times. Measured (this file's output): every output time within 2e-12 (relative) of the graph's.
TEST(DealRandom, OnePortOutputTimesAreTheEventGraphsSeeds1To50) { check_seeds(1, 50, false); }
TEST(DealRandom, OnePortOutputTimesAreTheEventGraphsSeeds51To100) { check_seeds(51, 50, false); }
TEST(DealRandom, OnePortOutputTimesAreTheEventGraphsSeeds101To150) { check_seeds(101, 50, false); }
TEST(DealRandom, OnePortOutputTimesAreTheEventGraphsSeeds151To200) { check_seeds(151, 50, false); }
TEST(DealRandom, MultiPortAllottedOutputTimesAreTheEventGraphsSeeds1To50) { check_seeds(1, 50, true); }
TEST(DealRandom, MultiPortAllottedOutputTimesAreTheEventGraphsSeeds51To100) { check_seeds(51, 50, true); }
TEST(DealRandom, MultiPortAllottedOutputTimesAreTheEventGraphsSeeds101To150) { check_seeds(101, 50, true); }
TEST(DealRandom, MultiPortAllottedOutputTimesAreTheEventGraphsSeeds151To200) { check_seeds(151, 50, true); }

TEST(DealRandom, MultiPortFairIsNeverSlowerThanAllottedWithoutLatencies)
{
  // `fair` (SimGrid's max-min sharing) against `allotted` (the rates of the event graph) on the instances above without
  // latencies (seeds 1..64 with seed mod 4 >= 2): as without deal (docs/semantics.md, "fair against eq. (1)"), max-min
  // never does worse than the allotted caps, and does better when a fan-out's transfers do not run together (a dealt
  // replica sending to an actively replicated interval whose replicas post their receives at different times).
  // Measured: 32 instances, 30 equal within 1e-9, seeds 6 and 63 below (0.904, 0.694). With latencies (seeds mod 4 <
  // 2, not asserted: unequal latencies on a fan-out can put max-min above the caps) 40 of them gave 37 equal and 3
  // below (0.990, 0.753, 0.721).
  int below = 0, equal = 0;
  // Under the sanitizers (threads for contexts: a simulation takes 100 times longer) seeds 1-16 only.
  for (std::uint64_t seed = 1; seed <= (fixtures::asan_scale == 1 ? 64 : 16); ++seed) {
    if (seed % 4 < 2) continue;
    auto inst = deal_instance(seed, true);
    SimulationSettings s;
    s.datasets    = std::max(160, 20 * deal_round(inst.mapping));
    s.model       = CommModel::multi_port;
    s.allocation  = Allocation::allotted;
    auto allotted = simulate({inst.pipeline, inst.platform, inst.mapping, s}).run;
    s.allocation  = Allocation::fair;
    auto fair     = simulate({inst.pipeline, inst.platform, inst.mapping, s}).run;
    ASSERT_LE(fair.period, allotted.period * (1 + 1e-9)) << "seed " << seed << ": " << inst.describe();
    (fair.period < allotted.period * (1 - 1e-9) ? below : equal) += 1;
  }
  std::cout << "fair against allotted: " << equal << " equal, " << below << " below\n";
}

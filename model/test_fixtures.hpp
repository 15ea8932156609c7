// Shared test fixtures: the paper's worked examples and seeded random instances (used by several test files).
#pragma once

#include "base/random.hpp"
#include "model/event_graph.hpp"
#include "model/mapping.hpp"
#include "model/multiport_analytic.hpp"
#include "model/pipeline.hpp"
#include "model/sv95/task_chain.hpp"
#include "platforms/platform.hpp"

#include <cstdint>
#include <string>

namespace pipesim::fixtures {

/// The interval [first, last] with one single-processor replica per entry of `procs` (test shorthand).
Interval interval(int first, int last, const std::vector<int>& procs, Replication replication = Replication::deal);

/// ASan makes each simulation ~10 times slower: long randomised checks take their first 1/asan_scale instances.
#ifdef PIPESIM_SANITIZE
inline constexpr std::uint64_t asan_scale = 3;
#else
inline constexpr std::uint64_t asan_scale = 1;
#endif

/// br07 §2.3.3, eq. (6): n = 3, p = 2, P_0 = P_in = P_out. s_1 = b_{0,2} = b_{1,2} = 1, s_2 = b_{0,1} = 10;
/// delta_0 = delta_3 = w_2 = 10, delta_1 = delta_2 = w_1 = w_3 = 1. Mapping S1, S3 on P1 and S2 on P2.
struct Eq6Example {
  Pipeline pipeline{{1, 10, 1}, {10, 1, 1, 10}};
  Platform platform;
  Mapping mapping;
  Eq6Example();
};

/// bbr10 §2 (Figures 1-3, lost in the extraction; the reconstruction is explained in
/// model/multiport_analytic_test.cpp): w = (17, 50, 23), delta = (2, 3, 4, 1), b = 10, f = 0.15; P1..P6 speed 45,
/// Bin = Bout = 20 except Bin_5 = Bin_6 = 7; P7..P12 speed 55, Bin 20, Bout 30.
struct Bbr10Section2 {
  Pipeline pipeline{{17, 50, 23}, {2, 3, 4, 1}};
  Platform platform;
  Bbr10Section2();
  Mapping general() const;  // Figure 3: {S_1, S_3} on P1..P6, {S_2} on P7..P12
  Mapping interval() const; // Figure 2: S_1 on P1..P4, S_2 on P7..P10, S_3 on P5, P6, P11, P12
};

/// A small general mapping where the elections differ (hand-checked in model/bbr10/*_test.cpp): w = (1, 1, 1),
/// delta = (1, 10, 1, 10); speeds 100; b = 100 everywhere; Bout_1 = 20, Bout_2 = 15, other cards unbounded;
/// I_1 = [1] on {P1, P2}, I_2 = [2] on {P3}, I_3 = [3] on {P1, P2}.
struct ElectionExample {
  Pipeline pipeline{{1, 1, 1}, {1, 10, 1, 10}};
  Platform platform;
  Mapping mapping;
  ElectionExample();
};

/// A replicated interval mapping bound by a card (simulator tests): w = [10, 20], delta = [10, 20, 10], b = 10;
/// I_1 on {P1, P2}, I_2 on {P3, P4}; speeds 10, 5, 10, 10; Bout_P1 = 15. P1 (elected) sends 20 bytes to P3 and P4
/// at once: links 20/10 = 2 each, its card 40/15 = 8/3. Multi-port period 8/3 (P1's card), one-port 6.
struct CardExample {
  Pipeline pipeline{{10, 20}, {10, 20, 10}};
  Platform platform;
  Mapping mapping;
  CardExample();
};

/// The failure configuration of `platform` with the processors `dead` crashed.
FailureConfiguration crashed(const Platform& platform, const std::vector<int>& dead);

struct RandomInstance {
  Pipeline pipeline;
  Platform platform;
  Mapping mapping;
  std::string describe() const;
};

/// Fully Heterogeneous platform with p processors (speeds in [1, 20], bandwidths in [1, 10] per ordered pair,
/// latencies in [0, 0.1] when `latencies`), a pipeline of n stages (w in [1, 20], delta in [1, 100]).
RandomInstance random_platform_and_pipeline(Rng& rng, int n, int p, bool latencies);
/// Gives each processor, with probability 0.7 each, an input card and an output card of capacity in [1, 10].
void random_cards(Rng& rng, Platform& platform);
/// random_platform_and_pipeline, then random_cards.
RandomInstance random_multiport_instance(Rng& rng, int n, int p, bool latencies);
/// A failure configuration where each processor crashes with probability `crash`, drawn again until every interval
/// of the mapping keeps a replica.
FailureConfiguration random_surviving_configuration(Rng& rng, const RandomInstance& inst, double crash = 0.3);
/// A random interval mapping on it (one processor per interval, m <= min(n, p) intervals).
void random_interval_mapping(Rng& rng, RandomInstance& inst);
/// A random interval mapping with active replication (1..3 replicas per interval, processors distinct).
void random_replicated_mapping(Rng& rng, RandomInstance& inst);
/// A random general mapping (stages grouped into intervals; each interval on one processor, processors reused).
void random_general_mapping(Rng& rng, RandomInstance& inst);
/// A random general mapping with active replication (bbr10 §3.4): 1..min(m, p) subsets with disjoint processor
/// sets of 1..max_replicas processors each, every interval on a random subset (consecutive intervals may share one).
/// Also draws cards Bin, Bout in [1, 10] when `cards` (bbr10 §7.1's range) and f in [0.05, 0.3].
void random_replicated_general_mapping(Rng& rng, RandomInstance& inst, int max_replicas = 3, bool cards = true);
/// A random interval mapping with 1..max_replicas replicas per interval (processors distinct); each replicated
/// interval is dealt with probability `deal` (actively replicated otherwise).
void random_deal_mapping(Rng& rng, RandomInstance& inst, int max_replicas = 3, double deal = 0.7);

/// A random mapping of kind seed % 6 on a random_multiport_instance (1..max_stages stages, 2..max_processors
/// processors, latencies on even seeds) and its event graph: one-port interval, general, actively replicated or dealt;
/// multi-port allotted actively replicated or dealt, with buffers of seed % 3 + 1 data sets. `text` describes it.
struct RandomGraphCase {
  RandomInstance inst;
  EventGraph graph;
  std::string text;
};
RandomGraphCase random_graph_case(std::uint64_t seed, int max_stages = 5, int max_processors = 8);

/// sv95's worked chain of model/sv95/response_test.cpp: t1 f_exec = 1 + 12/p, p_min 2, memory 1.5, replicable;
/// t2 f_exec = 8/p + 0.5 p, memory 2, replicable; t3 f_exec = 2, not replicable. f_icom: 1->2 = 0.5 + 2/p,
/// 2->3 = 4/p. f_ecom: 1->2 = 1 + 6/ps + 6/pr, 2->3 = 2/ps + 4/pr + 0.25 ps + 0.25 pr.
TaskChain sv95_worked_chain();

} // namespace pipesim::fixtures

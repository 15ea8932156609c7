// The paper's period test of the reliability heuristics (bbr10 §6.2-§6.3): every replica alive, the best of the
// four elections of §6.1, also on the partial mappings the heuristics build (intervals without processors yet).
#pragma once

#include "mappers/mapper.hpp"
#include "model/bbr10/election.hpp"

#include <cstdint>
#include <vector>

namespace pipesim {

/// The period of a (partial) mapping with every processor alive and the best of the four elections.
struct AllAlivePeriod {
  double period = 0;                              // the best election's largest cycle-time (0: nothing mapped)
  std::vector<double> cycle_time;                 // by processor, in the best election (0: unused)
  ElectionPolicy method = ElectionPolicy::random; // which of the four gave it (ties: the first of the four)
  Election election;                              // by interval of the mapping; -1 for an interval without replica
};

/// Contract.
/// - Source: bbr10 Algorithms 6-12 test "P_u satisfies the period P_max" on "the period of the current mapping
///   ... computed by applying Random, MaxBout, MinComm, MinNbProcs heuristics and by retaining the smallest result"
///   (§6.1 last paragraph, §7.1). They name no failure configuration: every processor is alive.
/// - Input: a mapping with active replication on single processors whose intervals cover 1..n in order; an interval
///   may have no replica (a partial state of the heuristics: not mapped yet). Such an interval neither sends nor
///   receives: its predecessor's output goes nowhere yet, and its successor's replicas count its output on their
///   input card but on no link (as SubsetState's worst-case terms do).
/// - When every interval has a replica this is bbr10_best_election(pipeline, platform, mapping, all alive, seed):
///   the same four elections on the same ElectionInstance, each evaluated with Algorithm 1's terms, summed in
///   Algorithm 1's order (checked against bbr10_period in all_alive_period_test.cpp).
/// - Complexity: one ElectionInstance, four elections and four evaluations: O(m log m + sum_j |alloc(d_j)|
///   |alloc(d_j+1)| + p).
AllAlivePeriod bbr10_all_alive_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                      std::uint64_t seed);

/// The same computation with its buffers kept from one partial mapping to the next (SubsetState's test runs it
/// thousands of times per heuristic): add the intervals in stage order, then ask.
class AllAliveEvaluator {
public:
  AllAliveEvaluator(const Pipeline& pipeline, const Platform& platform, std::uint64_t seed);
  void clear();
  /// Interval [first, last] on `processors` (their order is the replica order; empty: not mapped yet).
  void add_interval(int first, int last, const std::vector<int>& processors);
  /// Whether the best of the four elections keeps every term <= limit: the elections are tried until one does
  /// (MinComm, MinNbProcs, MaxBout, Random), and each evaluation stops at its first term above the limit.
  bool within(double limit);
  /// The best of the four, with every cycle-time (bbr10_all_alive_period).
  AllAlivePeriod best();

private:
  void finish(); // builds the election instance and the terms that do not depend on the election
  void add_replica(int j, int u, std::vector<int>* to_previous); // finish()'s step for replica u of I_j
  double evaluate(const Election& election, double limit, std::vector<double>* cycle);

  const Pipeline& pipeline_;
  const Platform& platform_;
  std::uint64_t seed_;
  bool finished_ = false;
  struct Span {
    int first, last;
    std::size_t begin, end; // into procs_
  };
  std::vector<Span> spans_;
  std::vector<int> procs_;
  ElectionInstance instance_;
  std::vector<int> interval_of_;         // instance index -> interval index
  std::vector<int> used_;                // processors of the mapping, each once
  std::vector<double> fixed_;            // by processor: largest term that no election changes (compute, P_in link)
  std::vector<double> in_bytes_;         // by processor: bytes through Bin
  std::vector<double> in_latency_fixed_; // by processor: P_in's latency
  std::vector<double> work_;             // by processor: the work of its stages
  std::vector<double> out_bytes_, out_latency_, in_latency_, link_bytes_;
  std::vector<int> touched_;     // link_bytes_ entries to reset
  std::vector<long long> stamp_; // by processor: stamp_base_ + the last interval holding it
  long long stamp_base_ = 0;
};

} // namespace pipesim

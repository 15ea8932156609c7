// bbr10 §6.2-§6.3 reliability mappers, registered by name: minimise F under a period bound P_max.
#pragma once

#include "mappers/bbr10/partition_processors.hpp"
#include "mappers/bbr10/partition_stages.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// The class-1 mapping step of a heuristic name: Small, Snake-c/w, BCT-c/w, Bal-c/w.
enum class SubsetMapping { small, snake, bct, bal };

/// One of the heuristics: class 1 (a stage partition, a mapping step with its order, general or interval) or
/// class 2 (PartPrc / PartPrw).
struct ReliabilityHeuristic {
  bool class2              = false;
  StagePartition partition = StagePartition::computation;
  SubsetMapping mapping    = SubsetMapping::snake;
  SubsetOrder order        = SubsetOrder::output_data;
  StageOrder stage_order   = StageOrder::workload; // class 2
  bool intervals           = false;
  std::string name() const; // e.g. "bbr10.partstw-snake-c", "bbr10.partstw-snake-c.interval", "bbr10.partprw"
};

/// Every heuristic: the 21 class-1 (3 partitions x Small, Snake-c, Snake-w, BCT-c, BCT-w, Bal-c, Bal-w), the same 21
/// restricted to interval mappings, then PartPrc and PartPrw: 44, in that order.
std::vector<ReliabilityHeuristic> bbr10_reliability_heuristics();

/// Contract.
/// - Source: bbr10 Algorithm 11 (class 1) and Algorithm 12 (class 2): for l (or q) = 1..min(n, p), partition,
///   map, fuse, and keep the mapping with the smallest F (ties: the smaller l); "failure" when no l gives a complete
///   mapping. Random choices (PartStr, Small) use Rng(seed + l * 0x9E3779B97F4A7C15).
/// - P_max is checked by `test` (SubsetState, docs/bbr10-reliability.md). worst_case (the default): every returned
///   mapping has bbr10_worst_case_upper_bound <= P_max (1 + 1e-12), hence satisfies pipesim's worst-case period
///   definition. all_alive_best_election (the paper's reading): every returned mapping has, with every processor
///   alive, a period <= P_max (1 + 1e-12) with the best of the four elections (Random seeded with `seed`); after
///   crashes its period may exceed P_max.
/// - Returns: the state of the best mapping, or nothing.
std::optional<SubsetState> bbr10_run_reliability_heuristic(const ReliabilityHeuristic& heuristic,
                                                           const Problem& problem, std::uint64_t seed,
                                                           PeriodTest test = PeriodTest::worst_case);

} // namespace pipesim

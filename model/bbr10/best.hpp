// bbr10 §7.1's period estimate: the smallest period of the four election heuristics.
#pragma once

#include "model/bbr10/election.hpp"
#include "model/multiport_analytic.hpp"

#include <cstdint>
#include <functional>
#include <optional>

namespace pipesim {

/// An election with its period (bbr10_period) and who found it.
struct ElectionChoice {
  Election election;
  double period = 0;
  std::optional<ElectionPolicy> method; // best: the heuristic kept; exhaustive; empty: the §5 MILP
};

/// Contract.
/// - Source: bbr10 §6.1 (last paragraph) and §7.1: "we execute the previous four heuristics and retain the
///   smallest result to estimate the period of a given mapping". Runs Random (Rng(seed)), MaxBout, MinComm and
///   MinNbProcs, evaluates each with Algorithm 1 (bbr10_period) and keeps the smallest period; ties keep the
///   first in that order.
/// - Accepts: any mapping with active replication on single processors, any platform class.
/// - Complexity: four elections and four Algorithm 1 evaluations, O(m log m + sum_j |alloc(d_j)| |alloc(d_j+1)| +
///   p).
/// - Returns: an upper bound on the minimum period over elections (bbr10_exhaustive_election, the §5 MILP);
///   throws InputError when an interval has no alive replica.
ElectionChoice bbr10_best_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                   const FailureConfiguration& config, std::uint64_t seed = 1);

/// The same four elections on `instance`, each evaluated with `period` (for a mapping, bbr10_period; for the partial
/// mappings of the reliability heuristics, mappers/bbr10/all_alive_period.hpp): the smallest, ties to the first.
ElectionChoice bbr10_best_election_on(const Platform& platform, const ElectionInstance& instance,
                                      const std::function<double(const Election&)>& period, std::uint64_t seed = 1);

} // namespace pipesim

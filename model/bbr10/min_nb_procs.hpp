// bbr10 §6.1 Algorithm 5 (MinNbProcs): elect the intervals with the fewest survivors first.
#pragma once

#include "model/multiport_analytic.hpp"

namespace pipesim {

struct ElectionInstance;

/// Contract.
/// - Source: bbr10 §6.1, Algorithm 5 (MinNbProcs), per interval (only the last stage of an interval sends):
///   1. an interval whose output stays local (no receiver) elects its first alive replica (the paper: at random;
///      the choice cannot change the period);
///   2. the others, by increasing number of alive replicas, ties by decreasing delta_{e_j} |receivers_j| (the
///      paper's delta_i |(alloc(i+1) ∩ surviving) \ alloc(i)|), then by interval index, elect the alive replica
///      with the smallest outgoing time counting what it already sends (as MinComm; ties: first in replica order).
/// - Accepts: any mapping with active replication on single processors, any platform class.
/// - Complexity: O(m log m + sum_j |alloc(d_j)| |alloc(d_j+1)|).
/// - Returns: one alive sender per interval (a heuristic); throws InputError when an interval has no alive replica.
Election bbr10_min_nb_procs_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                     const FailureConfiguration& config);
/// The same on the candidates and receivers of `instance` (model/bbr10/election.hpp).
Election bbr10_min_nb_procs_election_on(const Platform& platform, const ElectionInstance& instance);

} // namespace pipesim

// bbr10 §6.1 Algorithm 4 (MinComm): elect, costliest transfers first, the replica whose outgoing time grows least.
#pragma once

#include "model/multiport_analytic.hpp"

namespace pipesim {

struct ElectionInstance;

/// Contract.
/// - Source: bbr10 §6.1, Algorithm 4 (MinComm), per interval (only the last stage of an interval sends):
///   1. an interval with a single alive replica elects it (the paper: alloc(i) = {u}; a single survivor is just as
///      forced, and placing it first lets the later choices see its load);
///   2. an interval whose output stays local (no receiver: every alive replica of I_{j+1} holds I_j) elects its
///      first alive replica (the paper draws one at random; the choice sends nothing, so it cannot change the
///      period, and pipesim keeps it deterministic);
///   3. the others, by decreasing delta_{e_j} / min_{u alive in I_j, v receiver} b_{u,v} (with latencies: the
///      largest c_{u,v} + delta / b_{u,v}; ties by interval index), elect the alive replica with the smallest
///      outgoing time counting what it already sends (OutgoingLoads; ties: first in replica order).
/// - Accepts: any mapping with active replication on single processors, any platform class.
/// - Complexity: O(m log m + sum_j |alloc(d_j)| |alloc(d_j+1)|).
/// - Returns: one alive sender per interval (a heuristic: its bbr10_period is >= the minimum over elections);
///   throws InputError when an interval has no alive replica.
Election bbr10_min_comm_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                 const FailureConfiguration& config);
/// The same on the candidates and receivers of `instance` (model/bbr10/election.hpp).
Election bbr10_min_comm_election_on(const Platform& platform, const ElectionInstance& instance);

} // namespace pipesim

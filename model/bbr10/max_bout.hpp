// bbr10 §6.1 Algorithm 3 (MaxBout): elect the alive replica with the biggest output card.
#pragma once

#include "model/multiport_analytic.hpp"

namespace pipesim {

struct ElectionInstance;

/// Contract.
/// - Source: bbr10 §6.1, Algorithm 3 (MaxBout): for each stage, the surviving allocated processor with the
///   biggest Bout. Per interval in pipesim (only the last stage of an interval sends remotely). Ties (equal Bout,
///   e.g. unbounded cards): the first alive replica in replica order (the paper leaves ties open).
/// - Accepts: any mapping with active replication on single processors, any platform class.
/// - Complexity: O(sum_j |alloc(d_j)|).
/// - Returns: one alive sender per interval; throws InputError when an interval has no alive replica.
Election bbr10_max_bout_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                 const FailureConfiguration& config);
/// The same on the candidates and receivers of `instance` (model/bbr10/election.hpp).
Election bbr10_max_bout_election_on(const Platform& platform, const ElectionInstance& instance);

} // namespace pipesim

// Exact minimum period over elections by enumeration (beyond bbr10: the reference for tiny instances).
#pragma once

#include "model/bbr10/best.hpp"

namespace pipesim {

/// Contract.
/// - Source: beyond bbr10 (whose exact reference is the §5 MILP): every election of one alive sender per
///   interval whose output leaves its replica set, each evaluated with Algorithm 1 (bbr10_period); intervals with
///   no remote receiver keep their first alive replica (their sender sends nothing, so the choice cannot matter).
/// - Accepts: any mapping with active replication on single processors, any platform class, at most
///   `max_elections` elections (the product of the alive replica counts of the intervals that send remotely).
/// - Complexity: O(prod_j |alive_j| (p + sum_j |alloc(d_j)|)).
/// - Returns: the minimum period and the first election reaching it (method "exhaustive"); throws InputError when
///   an interval has no alive replica or the count exceeds `max_elections`.
ElectionChoice bbr10_exhaustive_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                         const FailureConfiguration& config, double max_elections = 1e6);

/// The number of elections bbr10_exhaustive_election enumerates.
double bbr10_election_count(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                            const FailureConfiguration& config);

} // namespace pipesim

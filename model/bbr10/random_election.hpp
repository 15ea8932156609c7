// bbr10 §6.1 Algorithm 2 (Random): a seeded uniform election.
#pragma once

#include "model/multiport_analytic.hpp"

#include <cstdint>

namespace pipesim {

struct ElectionInstance;

/// Contract.
/// - Source: bbr10 §6.1, Algorithm 2 (Random): for each stage, a surviving processor allocated to it, drawn
///   uniformly. Only the election of the last stage of an interval sends remotely (the paper says so), so pipesim
///   draws one sender per interval, uniformly among its alive replicas, intervals in order, with Rng(seed).
/// - Accepts: any mapping with active replication on single processors (interval or general, overlapping replica
///   sets included), any platform class; the period is then bbr10_period (Algorithm 1) with the election.
/// - Complexity: O(sum_j |alloc(d_j)|).
/// - Returns: one alive sender per interval; throws InputError when an interval has no alive replica.
Election bbr10_random_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                               const FailureConfiguration& config, std::uint64_t seed);
/// The same on the candidates of `instance` (model/bbr10/election.hpp).
Election bbr10_random_election_on(const ElectionInstance& instance, std::uint64_t seed);

} // namespace pipesim

// Seeded random interval and one-to-one mappings: the samples of fidelity campaigns (not an optimiser).
//
// Contract: any platform class, one-port model, objective min_period. `random.replicated` (any model) adds 0..2
// active replicas per interval on unused processors (survival campaign samples). `random.interval` cuts 1..n into m
// intervals (m uniform in [1, min(n, p)], cut points uniform) and gives each a distinct processor drawn uniformly;
// `random.one-to-one` gives each stage a distinct processor (n <= p, infeasible otherwise). O(n + p). The result's
// objective is seed 000 eq. (2) of the mapping, status `feasible`. The draws depend only on MapperOptions::seed.
#pragma once

#include "mappers/mapper.hpp"

namespace pipesim {

Mapping random_interval_mapping(int n, int p, std::uint64_t seed, bool one_to_one);

/// random_interval_mapping (same seed, same intervals and first replicas), then each interval gets 0..max_replicas-1
/// extra replicas on distinct unused processors, while there are some (active replication).
Mapping random_replicated_mapping(int n, int p, std::uint64_t seed, int max_replicas);

} // namespace pipesim

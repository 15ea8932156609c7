// Seeded random interval and one-to-one mappings: the samples of fidelity campaigns (not an optimiser).
//
// Contract: any platform class, one-port model, objective min_period. `random.replicated` (any model) adds 0..2
// active replicas per interval on unused processors (survival campaign samples). `random.interval` cuts 1..n into m
// intervals (m uniform in [1, min(n, p)], cut points uniform) and gives each a distinct processor drawn uniformly;
// `random.one-to-one` gives each stage a distinct processor (n <= p, infeasible otherwise). O(n + p). The result's
// objective is br07 eq. (2) of the mapping, status `feasible`. The draws depend only on MapperOptions::seed.
// `random.stage-sets` and `random.stage-sets-5` (multi-port model only): random_stage_sets_mapping with sets of
// 1..p and 1..5 processors, objective bbr10_period with every processor alive and the first replica elected.
#pragma once

#include "mappers/mapper.hpp"

namespace pipesim {

Mapping random_interval_mapping(int n, int p, std::uint64_t seed, bool one_to_one);

/// random_interval_mapping (same seed, same intervals and first replicas), then each interval gets 0..max_replicas-1
/// extra replicas on distinct unused processors, while there are some (active replication).
Mapping random_replicated_mapping(int n, int p, std::uint64_t seed, int max_replicas);

/// bbr10 §7.1 (Table 1): "to generate a mapping, we have randomly chosen a placement for each stage on a randomly
/// chosen set of processors". Each stage S_i gets a set of k_i processors, k_i uniform in [1, min(max_set, p)], the
/// processors uniform without replacement, sorted (active replication; sets of different stages may share
/// processors: a general mapping). Consecutive stages with the same set form one interval (bbr10: their output
/// stays local). Draws from Rng(seed ^ 0x57A6E5E7), a stream apart from the pipeline's Rng(seed). O(n p).
Mapping random_stage_sets_mapping(int n, int p, std::uint64_t seed, int max_set);

} // namespace pipesim

// Crash schedules of the failure models of DESIGN.md §3.5, drawn before a run from its seed.
#pragma once

#include "model/mapping.hpp"
#include "platforms/platform.hpp"
#include "simulator/simulation.hpp"

#include <cstdint>
#include <vector>

namespace pipesim {

/// The crash schedule of one run, in time order. Every processor of the platform consumes the same random numbers
/// whatever the mapping (two uniform draws, in index order), so one seed gives one schedule per platform; only the
/// crashes of processors the mapping uses are returned.
/// - none, platform: empty (platform: SimGrid runs the state profiles of the XML file itself);
/// - probability: processor u crashes with probability f_u, at a time uniform in
///   [window_begin, window_end] x `fault_free_makespan`;
/// - exponential: processor u crashes at a time ~ Exp(1 / mtbf_u) (never when mtbf_u is unbounded);
/// - trace: the given crashes of the mapping's processors; InputError when a host is not a processor of the
///   platform or a time is negative or not finite.
std::vector<Crash> draw_crash_schedule(const FailureSettings& failures, const Platform& platform,
                                       const Mapping& mapping, double fault_free_makespan, std::uint64_t seed);

/// Seed of run `run` (0-based) of a Monte Carlo series started from `seed` (splitmix64 of both: independent
/// streams, reproducible from the recorded scenario seed).
std::uint64_t run_seed(std::uint64_t seed, int run);

} // namespace pipesim

// How much memory and time a simulation process may take: the defaults, the environment variables that change them,
// and what a process stopped at a limit says (issue 31: a run that grew to the machine's 24 GB was reported after
// 10 minutes as "internal error: simulation process died: signal 9").
#pragma once

#include "base/subprocess.hpp"

#include <functional>
#include <string>

namespace pipesim {

struct ResourceLimits {
  double memory  = 0; // bytes of resident memory of one simulation process, 0: none
  double seconds = 0; // wall-clock seconds of one simulation process, 0: none
};

/// Default memory limit of a simulation process: this share of the machine's physical memory.
inline constexpr double default_memory_share = 0.5;
/// Default time limit of a simulation process: 6 hours (a run of max_simulated_datasets through 100 stages takes
/// about two).
inline constexpr double default_time_limit = 6 * 3600;

/// The limits of every simulation process of this pipesim, from the environment: PIPESIM_MEMORY_LIMIT (bytes: a
/// number with an optional unit kB, MB, GB, TB or KiB, MiB, GiB, TiB; or a share of the machine's physical memory:
/// "75%"; or "none"), default 50 % of the physical memory; PIPESIM_TIME_LIMIT (seconds: a number, or a duration with
/// a unit s, m, h, d; or "none"), default 6 h. InputError naming the variable, its value and the forms expected.
ResourceLimits simulation_limits();

/// The pool options of one simulation process under `limits`.
PoolOptions limited(const ResourceLimits& limits);

/// The machine's physical memory in bytes (0 when unknown).
double physical_memory();

/// `job` in a child process under simulation_limits(): its result; an InputError of the job, or a limit reached
/// ("simulation: " + limit_message, naming `what`), as InputError; other outcomes as std::runtime_error.
std::string run_limited(const std::function<std::string()>& job, const std::string& what);

/// What a process stopped at a limit says, for `outcome` (out_of_memory or timed_out) of `what` ("the simulation of
/// 200 data sets"): the limit, what it was doing, and how to raise it. Empty for other outcomes.
std::string limit_message(const JobOutcome& outcome, const ResourceLimits& limits, const std::string& what);

} // namespace pipesim

// Where a run's SimGrid engine is started and its platform built: one function for every execution and every run
// (DESIGN.md §8: one engine per process, read the XML in the process that simulates).
#pragma once

#include "platforms/platform.hpp"
#include "simulator/deployment.hpp"
#include "simulator/job.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// SimGrid arguments for a run: in exact mode the network settings of DESIGN.md §3.4 come first, then the user's
/// --cfg/--log arguments (which therefore win).
std::vector<std::string> simgrid_arguments(const SimulationSettings& settings);

/// What start_run_engine set up in this process: the SimGrid arguments and the exact-mode size scale.
struct PreparedEngine {
  std::vector<std::string> args;
  double size_scale = 1;
};

namespace detail {

/// Starts this process's SimGrid engine for a run of `job` (the arguments of its execution: engine_needs), builds the
/// run's platform (build_run_platform) and, in the exact network mode of the pipeline executions, makes the size scale
/// every transfer's bandwidth factor (a power of two: fractional sizes survive SimGrid's whole bytes, transfer times
/// do not change; the links keep their bandwidths, so bandwidth profiles stay right; docs/semantics.md). The one place
/// a run's engine is constructed: the entry point (simulator/simulate.cpp), the series' workers (simulator/series.cpp)
/// and the program step samples (simulator/program_steps.cpp) all call it, once per process. check_before_engine comes
/// first (the caller's).
PreparedEngine start_run_engine(const SimulationJob& job);

/// Builds the platform of a run in the engine just started: the XML file the model came from (with its what-if link
/// settings), or a full zone built from the model (card links for Bin/Bout when `needs` asks for them), or the one
/// host of the modules; then the platform's speed, bandwidth, latency and state profiles (DESIGN.md §3.11).
void build_run_platform(const Platform& platform, const EngineNeeds& needs);

} // namespace detail
} // namespace pipesim

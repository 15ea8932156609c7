// The re-mapping controller (DESIGN.md §3.12): a Controller (simulator/controller.hpp) that measures each window of
// data sets and carries out what a RemapPolicy (simulator/remap.hpp) decides, by `drain` or `handover`
// (simulator/remap_handover.cpp), and repairs after crashes (on_crash: remap, simulator/remap_repair.cpp): the run is
// a sequence of segments, one deployment of one mapping each, handed over in simulation (the actors stay C++, the
// decisions are taken in main's run_until loop; under handover two segments overlap).
#pragma once

#include "simulator/engine.hpp"
#include "simulator/job.hpp"

namespace pipesim {

/// InputError when `job` cannot re-map: a failure model or crash schedule without `repair` (on_crash: remap; with it,
/// the failure model `platform` or active replicas), an execution other than one-port or multi-port, a `handover`
/// cost with `repair` or on a platform whose state profiles turn hosts or links off, a window < 1, a check interval <=
/// 0 or a detection delay < 0, state sizes not one per stage.
void check_remap_job(const SimulationJob& job);

/// A handover can run: no crash repair, no state profile turning hosts or links off (a crash during a handover is
/// not built).
bool handover_possible(const SimulationJob& job);

namespace detail {
/// The period run of `job` (job.policy set) on the engine started for it: segments of the one-port or multi-port
/// execution, a decision at every check, the result of the whole run with its re-maps.
SimulationResult run_remapping(const SimulationJob& job, const SimulationSettings& run, const PreparedEngine& engine);
} // namespace detail

} // namespace pipesim

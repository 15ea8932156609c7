// SimGrid actors of the bounded multi-port model with overlap (DESIGN.md §3.2): per interval a processor holds, a
// receiver, a computer and (when elected) a sender run concurrently, linked by bounded buffers; transfers share the
// cards and links (fair) or are rate-capped so each resource serves its per-data-set load in load/capacity (allotted).
#pragma once

#include "simulator/deployment.hpp"

#include <memory>

namespace pipesim {

/// The multi-port execution of a run (a Deployment; make_deployment chooses it for settings.model multi-port), on a
/// platform with card links for Bin/Bout when it was built from the model. Without failures, replica 0 of every
/// interval is the elected sender. InputError for a buffer below one data set, what the one-port plan refuses, and a
/// processor holding two intervals of which it computes different data sets (deal).
std::unique_ptr<Deployment> make_multi_port_deployment(const SimulationJob& job, const SimulationSettings& run,
                                                       RunInputs inputs);

} // namespace pipesim

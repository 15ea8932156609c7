// SimGrid actors of the one-port model (DESIGN.md §3.1, §3.3): one actor per processor runs its program of
// OnePortPlan steps data set after data set; P_in and P_out are I/O servers outside the model.
#pragma once

#include "simulator/deployment.hpp"

#include <memory>

namespace pipesim {

/// The one-port execution of a run (a Deployment; make_deployment chooses it for settings.model one-port): per
/// processor, per data set and held interval in stage order, receive (unless the input is local), compute, send what
/// it owes as sender. Without a failure model and without replicas each processor runs the plain program (a
/// get/execute/put loop on mailboxes fixed at the start), otherwise the general one (docs/semantics.md, "Two
/// programs, one semantics"). InputError for what the one-port plan refuses (data-parallel groups, ...).
std::unique_ptr<Deployment> make_one_port_deployment(const SimulationJob& job, const SimulationSettings& run,
                                                     RunInputs inputs);

} // namespace pipesim

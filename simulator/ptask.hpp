// The steps of sv95's programs as SimGrid parallel tasks (this_actor::parallel_execute under host model
// ptask_L07): a task on its instance's hosts, the redistribution between two tasks of an instance, the transfer
// between two instances (docs/sv95.md "Simulation (programs)").
#pragma once

#include "model/sv95/task_chain.hpp"

#include <simgrid/forward.h>
#include <vector>

namespace pipesim {

/// Executes `program` on `hosts` (flops_per_host(p) on each of the p hosts) and returns the simulated duration.
double run_program_task(const std::vector<simgrid::s4u::Host*>& hosts, const TaskProgram& program);
/// The redistribution of `program`'s output among the same hosts (internal_redistribution_bytes); its duration.
double run_internal_redistribution(const std::vector<simgrid::s4u::Host*>& hosts, const TaskProgram& program);
/// The transfer of `program`'s output from `senders` to `receivers` (redistribution_bytes), one parallel task of 0
/// flops over both groups; its duration. A step that moves or computes nothing takes no time and runs no task.
double run_transfer(const std::vector<simgrid::s4u::Host*>& senders, const std::vector<simgrid::s4u::Host*>& receivers,
                    const TaskProgram& program);

} // namespace pipesim

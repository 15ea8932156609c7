// SimGrid actors of sv95's data-parallel modules charged with their response functions (DESIGN.md §3.8): one
// actor per module instance; data set k goes to instance k mod r of each module (§3.7). An instance receives the data
// set from the previous module's instance (or reads the input), executes its tasks, then sends it to the next
// module's instance (or writes the output). Sender and receiver meet for the whole transfer (sv95 §2.1): the
// sender's send step and the receiver's receive step start together and both last f_ecom(p_sender, p_receiver).
#pragma once

#include "model/mapping.hpp"
#include "model/sv95/task_chain.hpp"
#include "platforms/platform.hpp"
#include "simulator/deployment.hpp"
#include "simulator/simulation.hpp"

#include <memory>
#include <vector>

namespace pipesim {

/// Busy time (s) of one module instance per kind of step.
struct InstanceBusy {
  double receive = 0;
  double compute = 0;
  double send    = 0;
};

/// The result of a run of modules (here and simulator/program_actors.hpp): output times in order (data set k counts
/// once 0..k arrived; arrival[k] < 0: it never arrived, verdict error), the period over whole rounds of lcm(r_j)
/// data sets, the makespan, and busy fractions per processor (busy[j][b] for each processor of instance b of module
/// j, host names from `platform`).
SimulationResult module_run_result(const std::vector<double>& arrival,
                                   const std::vector<std::vector<InstanceBusy>>& busy, const Platform& platform,
                                   const Mapping& mapping, const SimulationSettings& settings);

/// sv95's modules charged with their response functions: the job's `mapping` (modules as intervals of tasks,
/// instances as dealt replicas: sv95_modules) of its task chain, a Deployment that make_deployment chooses for a task
/// chain without programs. The response functions depend on processor counts only, so the engine runs one host
/// (EngineNeeds::Platform::single_host), and every step is a sleep of exactly the chain's time (module_input,
/// module_exec, module_output of model/sv95/response.hpp). A meeting is a 0-byte message on that host's loopback
/// (latency 0). Output times keep the order at P_out (data set k counts once 0..k arrived); the period is measured
/// over whole rounds of lcm(r_j) data sets. Busy fractions are per processor: each processor of an instance is busy
/// when its instance is (host names from the job's platform).
std::unique_ptr<Deployment> make_module_deployment(const SimulationJob& job, const SimulationSettings& run,
                                                   RunInputs inputs);
/// The checks before the engine starts: no failures (InputError when the settings ask for some), modules that cover
/// the chain (check_modules), a finite time on each module's processor count.
void check_module_job(const SimulationJob& job);

} // namespace pipesim

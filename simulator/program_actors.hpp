// SimGrid actors of sv95's data-parallel modules running their tasks' programs as SimGrid parallel tasks
// (DESIGN.md §3.8, docs/sv95.md "Simulation (programs)"): an instance of p processors is a group of p hosts; each
// task is one this_actor::parallel_execute of flops_per_host(p) flops on each of its hosts, each redistribution a
// parallel task of 0 flops and a bytes matrix (among the instance's p hosts between two of its tasks, from the ps
// sender hosts to the pr receiver hosts between two modules), under SimGrid's host model ptask_L07. The dealing and
// the meetings are those of simulator/module_actors.hpp: data set k goes to instance k mod r of each module, sender
// and receiver instances both take part in the whole transfer.
#pragma once

#include "base/enum_names.hpp"
#include "model/mapping.hpp"
#include "model/sv95/task_chain.hpp"
#include "platforms/platform.hpp"
#include "simulator/deployment.hpp"
#include "simulator/simulation.hpp"

#include <memory>

#include <string>
#include <vector>

namespace pipesim {

/// sv95's modules running their tasks' programs: the job's `mapping` (modules as intervals of tasks, instances as
/// dealt replicas: sv95_modules) of its task chain, whose tasks all have a program, a Deployment that make_deployment
/// chooses for such a chain. The engine runs with host model ptask_L07 (unless the user's arguments set one) on the
/// job's platform (the XML file, or the model with card links: simulator/engine.hpp). Each instance is an actor that,
/// for each of its data sets in order: receives it (the first module: waits chain.input(p)), executes each task and
/// the redistribution after each task but the last, then sends it (the last module: waits chain.output(p), then the
/// data set arrives at P_out). Output times keep the order at P_out; the period is measured over whole rounds of
/// lcm(r_j) data sets. InputError when a processor is in two instances.
std::unique_ptr<Deployment> make_program_deployment(const SimulationJob& job, const SimulationSettings& run,
                                                    RunInputs inputs);
/// The checks before the engine starts: check_program_chain, and modules that cover the chain (check_modules).
void check_program_job(const SimulationJob& job);

/// One measured step of a program chain, alone on an idle platform: kind exec (task i on p hosts), icom (the
/// redistribution after task i on p hosts) or ecom (the transfer after task i from ps to pr hosts).
enum class ProgramStep { exec, icom, ecom };
PIPESIM_ENUM_NAMES(ProgramStep, {exec, "exec"}, {icom, "icom"}, {ecom, "ecom"});
/// `task` is 1-based (t_1..t_k, as TaskChain::task(i)); icom and ecom need task < k. `p` is the instance's
/// processors (the senders for ecom), `pr` the receivers (ecom only).
struct ProgramSample {
  ProgramStep step;
  int task;
  int p;
  int pr = 0;
};
/// Runs every sample one after the other in one SimGrid engine in a child process (hosts 0..p-1, and for ecom the
/// receivers p..p+pr-1 of `platform`), each alone, and returns each one's simulated duration in seconds.
/// InputError (before any simulation) when a task has no program, a task index or processor count is out of range,
/// or settings ask for failures.
std::vector<double> measure_program_steps(const TaskChain& chain, const Platform& platform,
                                          const std::vector<ProgramSample>& samples,
                                          const SimulationSettings& settings);

/// InputError unless every task of `chain` has a program and `settings` ask for no failures (`what` names the run).
void check_program_chain(const TaskChain& chain, const SimulationSettings& settings, const std::string& what);

} // namespace pipesim

// What sv95's two executions of data-parallel modules share (DESIGN.md §3.8): the state every instance actor updates
// and the deployment of one actor per module instance. They differ in where an instance runs and what it does: the
// response functions' sleeps on one host (module_actors.cpp), or its tasks' programs on its own hosts
// (program_actors.cpp).
#pragma once

#include "base/progress.hpp"
#include "model/mapping.hpp"
#include "model/sv95/response.hpp"
#include "model/sv95/task_chain.hpp"
#include "platforms/platform.hpp"
#include "simulator/deployment.hpp"
#include "simulator/module_actors.hpp"
#include "simulator/simulation.hpp"

#include <cstddef>
#include <fmt/format.h>
#include <memory>
#include <simgrid/s4u.hpp>
#include <vector>

namespace pipesim::detail { // named: the deployments hold one (GCC's -Wsubobject-linkage)

/// What the instance actors of a run share: the modules, the data sets' arrival times at P_out and the busy times.
struct ModuleRunState {
  ModuleRunState(const TaskChain& task_chain, const Mapping& mapping)
      : chain(task_chain), modules(sv95_modules(mapping))
  {
  }
  const TaskChain& chain;
  std::vector<Sv95Module> modules;
  int datasets = 0;
  std::vector<double> arrival;                 // arrival[k] at P_out, -1 until then
  std::vector<std::vector<InstanceBusy>> busy; // [module][instance]
  std::unique_ptr<Progress> progress;
  int arrived = 0;

  /// Data set k arrives at P_out now.
  void arrive(int k)
  {
    arrival[static_cast<std::size_t>(k)] = simgrid::s4u::Engine::get_clock();
    if (progress) progress->set(++arrived);
  }
};

/// A step that takes `seconds` of simulated time (nothing to wait for when 0), added to `account`.
inline void busy_for(double seconds, double& account)
{
  if (seconds > 0) simgrid::s4u::this_actor::sleep_for(seconds);
  account += seconds;
}

/// The deployment of a run of modules: `Run` (a ModuleRunState with what its instances need besides) for the job's
/// mapping and settings.datasets data sets, one actor per instance, and the result by module_run_result.
template <class Run>
class ModuleInstancesDeployment : public Deployment {
public:
  SimulationResult result() const final
  {
    if (run_.progress) run_.progress->finish();
    return module_run_result(run_.arrival, run_.busy, platform_, mapping_, settings_);
  }

protected:
  ModuleInstancesDeployment(const SimulationJob& job, const SimulationSettings& settings)
      : chain_(*job.task_chain), platform_(job.platform), mapping_(job.mapping), settings_(settings),
        run_(chain_, mapping_)
  {
    run_.datasets = settings_.datasets;
    run_.arrival.assign(static_cast<std::size_t>(run_.datasets), -1);
    for (const Sv95Module& m : run_.modules)
      run_.busy.emplace_back(static_cast<std::size_t>(m.r));
  }

  /// Starts the progress of the data sets, and for instance b of module j an actor "module{j+1}.{b+1}" on
  /// host_of(j, b) that runs instance(run_, j, b).
  template <class HostOf>
  void deploy_instances(HostOf host_of, void (*instance)(Run&, std::size_t, int))
  {
    if (settings_.progress != ProgressMode::off)
      run_.progress = std::make_unique<Progress>("simulation", "data sets", run_.datasets, settings_.progress);
    for (std::size_t j = 0; j < run_.modules.size(); ++j)
      for (int b = 0; b < run_.modules[j].r; ++b)
        simgrid::s4u::Actor::create(fmt::format("module{}.{}", j + 1, b + 1), host_of(j, b),
                                    [this, instance, j, b] { instance(run_, j, b); });
  }

  TaskChain chain_; // before run_, which refers to it
  Platform platform_;
  Mapping mapping_;
  SimulationSettings settings_;
  Run run_;
};

} // namespace pipesim::detail

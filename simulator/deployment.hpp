// The one interface of the simulator's executions (one-port, multi-port, modules, programs) and the choice of the one
// that runs a job, made in one place (simulator/deployment.cpp), as WRENCH's Simulation::launch runs its compute
// services or SimGrid's routing has one NetZoneImpl interface and one file per routing.
#pragma once

#include "base/enum_names.hpp"
#include "simulator/job.hpp"
#include "simulator/segment_gate.hpp"
#include "simulator/simulation.hpp"
#include "simulator/stopping_rule.hpp"
#include "simulator/workload.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// The executions a job can run on (DESIGN.md §3.1, §3.2, §3.8).
enum class ExecutionKind {
  one_port,   // simulator/oneport_actors.cpp: a processor does one thing at a time
  multi_port, // simulator/multiport_actors.cpp: receive, compute and send overlap, cards shared
  modules,    // simulator/module_actors.cpp: sv95's instances charged with their response functions
  programs    // simulator/program_actors.cpp: sv95's instances running their programs as parallel tasks
};
PIPESIM_ENUM_NAMES(ExecutionKind, {one_port, "one-port"}, {multi_port, "multi-port"}, {modules, "modules"},
                   {programs, "programs"});

/// A mapping deployed on the platform of this process's SimGrid engine: deploy() creates its actors, then the engine
/// runs (Engine::run, or a controller's Engine::run_until steps: simulator/controller.hpp), then result() reads what
/// the run measured. A deployment does not start the engine nor build the platform (simulator/engine.hpp does, once
/// per process), so a SimGrid program can deploy a job on its own platform (examples/deploy_on_own_platform.cpp).
///
/// A new execution is one more implementation, one more ExecutionKind and one more case in deployment.cpp: its engine
/// arguments and platform (engine_needs), its checks before the engine starts (check_before_engine) and its
/// constructor (make_deployment).
class Deployment {
public:
  virtual ~Deployment()                    = default;
  Deployment()                             = default;
  Deployment(const Deployment&)            = delete;
  Deployment& operator=(const Deployment&) = delete;

  /// Creates the actors; call once, before the engine runs.
  virtual void deploy() = 0;
  /// Output times, period, verdict, busy fractions and (if asked) the trace of the finished run.
  virtual SimulationResult result() const = 0;
};

/// What a deployment takes from the entry point besides the job and the run's settings, each from one place
/// (run_inputs, simulator/deployment.cpp), so that what varies plugs in there and nowhere else:
/// - `workload`: every data set's work w_i(k) and message sizes delta_i(k) (DESIGN.md §3.10: the pipeline's w_i and
///   delta_i for every data set, or drawn from the job's variability);
/// - `stop`: when P_out has output enough data sets (a fixed N, or until the confidence interval of the period is
///   narrow enough: `simulation.precision`);
/// - `size_scale`: the exact network mode's factor on every size, and every transfer's bandwidth factor
///   (simulator/engine.hpp);
/// - `gate`: one segment of a re-mapping run (simulator/segment_gate.hpp), null otherwise (one-port and multi-port).
/// The modules and programs take neither: their times come from the task chain, and they run settings.datasets (N)
/// data sets, whose outputs they order after the run.
struct RunInputs {
  std::shared_ptr<const Workload> workload;
  std::shared_ptr<const StoppingRule> stop;
  double size_scale = 1;
  /// The result gets a period estimate with these options (window L, deterministic laws or not): fault-free pipeline
  /// runs with random times or `simulation.precision` (finish_result).
  std::optional<PeriodEstimateOptions> estimate;
  std::shared_ptr<SegmentGate> gate;
};

/// The execution that runs `job`: programs when its task chain has a program on every task, modules for another
/// task chain, else settings.model.
ExecutionKind execution_kind(const SimulationJob& job);

/// Whether the execution runs crash schedules (the one-port and multi-port executions; the modules and programs
/// refuse failures).
bool takes_failures(ExecutionKind kind);

/// The job's checks that come before the engine starts (bad input: InputError).
void check_before_engine(const SimulationJob& job);

/// What the engine of a run of `kind` needs: its SimGrid arguments (simgrid_arguments(settings) and the
/// execution's own), the platform it runs on, whether sizes and bandwidths are scaled (the exact network mode of the
/// pipeline executions: simulator/engine.hpp).
struct EngineNeeds {
  enum class Platform {
    model,            // the job's platform: its XML file, or the model built without card links (one-port)
    model_with_cards, // the XML file, or the model built with card links Bin/Bout (multi-port, programs)
    single_host       // one host of the execution's own (modules: their times do not depend on the platform)
  };
  std::vector<std::string> args;
  Platform platform = Platform::model;
  bool scale_sizes  = false;
};
EngineNeeds engine_needs(ExecutionKind kind, const SimulationSettings& settings);

/// The inputs of one run of `job` with `run` (its settings: the job's, or a series run's seed and crashes).
RunInputs run_inputs(const SimulationJob& job, const SimulationSettings& run, double size_scale);

/// What the entry point adds to a finished run's result (the deployment measured it): with `inputs.estimate`, the
/// period estimate of its output times (run_period_estimate: the cool-down left out unless a PrecisionRule stopped the
/// run before max_datasets, when nothing drained), and its period when the estimate is ok (otherwise, with
/// `precision`, measured_period over the second half of the outputs). Nothing for a run that failed.
void finish_result(SimulationResult& result, const SimulationSettings& run, const RunInputs& inputs);

/// The deployment of one run of `job` with `run` on the platform already in this process's engine (hosts looked up
/// by the model's node names). Checks the run (InputError), creates no actor yet.
std::unique_ptr<Deployment> make_deployment(const SimulationJob& job, const SimulationSettings& run, RunInputs inputs);
/// The same with the job's settings and sizes as they are (rounded to whole bytes): for a SimGrid program that
/// created its engine and loaded its platform itself.
std::unique_ptr<Deployment> make_deployment(const SimulationJob& job);

} // namespace pipesim

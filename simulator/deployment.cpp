// The one place that decides which execution runs a job, with what engine, and what it takes from where.
#include "simulator/deployment.hpp"

#include "base/input_error.hpp"
#include "simulator/engine.hpp"
#include "simulator/module_actors.hpp"
#include "simulator/multiport_actors.hpp"
#include "simulator/oneport_actors.hpp"
#include "simulator/program_actors.hpp"
#include "simulator/remap_controller.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace pipesim {

namespace {
/// In SimGrid mode sizes are sent as they are, in whole bytes: a size SimGrid cannot hold is refused, not wrapped.
void refuse_unsendable_sizes(const Pipeline& pipeline)
{
  const double limit = std::ldexp(1.0, 63);
  for (std::size_t i = 0; i < pipeline.delta.size(); ++i)
    if (pipeline.delta[i] >= limit)
      throw InputError(fmt::format("pipeline.delta_{} = {} bytes: simulation.network 'simgrid' sends whole bytes and "
                                   "SimGrid holds at most 2^63 - 1 = 9.223372036854775807e18 per message; use "
                                   "network 'exact' (which scales sizes and bandwidths together) or larger units",
                                   i, pipeline.delta[i]));
}

/// The pipeline executions' checks before their engine starts.
void check_pipeline_job(const SimulationJob& job)
{
  if (job.settings.failures.model == FailureModel::platform && job.platform.xml_file().empty())
    throw InputError("simulation.failures: model 'platform' runs the host state profiles of a SimGrid XML platform; "
                     "this platform is not an XML file");
  if (job.settings.network != NetworkMode::exact) refuse_unsendable_sizes(job.pipeline);
}
} // namespace

ExecutionKind execution_kind(const SimulationJob& job)
{
  if (job.task_chain) return job.task_chain->has_programs() ? ExecutionKind::programs : ExecutionKind::modules;
  return job.settings.model == CommModel::multi_port ? ExecutionKind::multi_port : ExecutionKind::one_port;
}

bool takes_failures(ExecutionKind kind) { return kind == ExecutionKind::one_port || kind == ExecutionKind::multi_port; }

void check_before_engine(const SimulationJob& job)
{
  if (job.policy) check_remap_job(job);
  switch (execution_kind(job)) {
  case ExecutionKind::one_port:
  case ExecutionKind::multi_port:
    check_pipeline_job(job);
    return;
  case ExecutionKind::modules:
    check_module_job(job);
    return;
  case ExecutionKind::programs:
    check_program_job(job);
    return;
  }
}

EngineNeeds engine_needs(ExecutionKind kind, const SimulationSettings& settings)
{
  EngineNeeds needs;
  needs.args = simgrid_arguments(settings);
  switch (kind) {
  case ExecutionKind::one_port:
  case ExecutionKind::multi_port:
    // card links Bin/Bout only exist in the multi-port model
    needs.platform =
        kind == ExecutionKind::multi_port ? EngineNeeds::Platform::model_with_cards : EngineNeeds::Platform::model;
    needs.scale_sizes = settings.network == NetworkMode::exact;
    break;
  case ExecutionKind::modules:
    needs.args.emplace_back("--cfg=network/loopback-lat:0"); // a meeting takes no time
    needs.platform = EngineNeeds::Platform::single_host;
    break;
  case ExecutionKind::programs:
    if (std::ranges::none_of(settings.simgrid_args,
                             [](const std::string& a) { return a.starts_with("--cfg=host/model:"); }))
      needs.args.insert(needs.args.begin(), "--cfg=host/model:ptask_L07");
    needs.platform = EngineNeeds::Platform::model_with_cards;
    break;
  }
  return needs;
}

RunInputs run_inputs(const SimulationJob& job, const SimulationSettings& run, double size_scale)
{
  RunInputs inputs;
  inputs.workload   = std::make_shared<PipelineWorkload>(job.pipeline); // issue 33: the drawn one, by variability
  inputs.stop       = std::make_shared<FixedDatasets>(run.datasets);    // issue 33: until the interval is narrow
  inputs.size_scale = size_scale;
  return inputs;
}

std::unique_ptr<Deployment> make_deployment(const SimulationJob& job, const SimulationSettings& run, RunInputs inputs)
{
  switch (execution_kind(job)) {
  case ExecutionKind::one_port:
    return make_one_port_deployment(job, run, std::move(inputs));
  case ExecutionKind::multi_port:
    return make_multi_port_deployment(job, run, std::move(inputs));
  case ExecutionKind::modules:
    return make_module_deployment(job, run, std::move(inputs));
  case ExecutionKind::programs:
    return make_program_deployment(job, run, std::move(inputs));
  }
  return nullptr;
}

std::unique_ptr<Deployment> make_deployment(const SimulationJob& job)
{
  return make_deployment(job, job.settings, run_inputs(job, job.settings, 1));
}

} // namespace pipesim

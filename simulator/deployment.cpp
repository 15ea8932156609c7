// The one place that decides which execution runs a job, with what engine, and what it takes from where.
#include "simulator/deployment.hpp"

#include "base/input_error.hpp"
#include "model/deal.hpp"
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
      throw InputError::keyed(fmt::format("pipeline.delta[{}]", i), pipeline.delta[i],
                              "bytes: simulation.network 'simgrid' sends whole bytes and SimGrid holds at most 2^63 - "
                              "1 = 9.223372036854775807e18 per message; use network 'exact' (which scales sizes and "
                              "bandwidths together) or larger units");
}

/// The pipeline executions' checks before their engine starts.
void check_pipeline_job(const SimulationJob& job)
{
  if (job.settings.failures.model == FailureModel::platform && job.platform.xml_file().empty())
    throw InputError::keyed("simulation.failures.model", "platform",
                            "this failure model runs the host state profiles of a SimGrid XML platform; this platform "
                            "is not an XML file");
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
  const ExecutionKind kind = execution_kind(job);
  if (!takes_failures(kind) && !job.variability.deterministic())
    throw InputError::keyed("pipeline.variability",
                            fmt::format("the {} execution runs sv95's task chain, whose times come from its response "
                                        "functions; random operation times apply to pipelines (one-port, multi-port)",
                                        kind));
  if (!takes_failures(kind) && job.settings.precision > 0)
    throw InputError::keyed("simulation.precision", job.settings.precision,
                            fmt::format("the {} execution runs N = simulation.datasets data sets and orders its "
                                        "outputs after the run; precision applies to pipelines (one-port, multi-port)",
                                        kind));
  switch (kind) {
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
  inputs.size_scale   = size_scale;
  const bool pipeline = takes_failures(execution_kind(job)); // the one-port and multi-port executions
  const bool random   = !job.variability.deterministic();
  if (pipeline && random) // the model's draws, seeded by the spec or the run (DESIGN.md §3.10)
    inputs.workload = std::make_shared<DrawnWorkload>(
        Variability(job.pipeline, job.variability, job.variability.seed.value_or(run.seed)));
  else
    inputs.workload = std::make_shared<PipelineWorkload>(job.pipeline);
  // a period estimate for fault-free runs of more than one data set (not the latency run, not crash or series runs)
  const bool fault_free = !run.failures.enabled() && run.crashes.empty() && run.datasets > 1;
  if (pipeline && fault_free && (random || run.precision > 0))
    inputs.estimate = PeriodEstimateOptions{.window = deal_round(job.mapping), .deterministic = !random};
  if (inputs.estimate && run.precision > 0)
    inputs.stop =
        std::make_shared<PrecisionRule>(run.datasets, run.effective_max_datasets(), run.precision, *inputs.estimate);
  else
    inputs.stop = std::make_shared<FixedDatasets>(run.datasets);
  return inputs;
}

void finish_result(SimulationResult& result, const SimulationSettings& run, const RunInputs& inputs)
{
  if (!inputs.estimate || result.failures.failed()) return;
  const std::vector<double>& times = result.output_times;
  const int outputs                = static_cast<int>(times.size());
  const bool stopped_early         = run.precision > 0 && outputs < inputs.stop->max_datasets();
  const int cooldown               = stopped_early ? 0 : run.cooldown_of(outputs);
  result.estimate                  = run_period_estimate(times, cooldown, *inputs.estimate);
  if (result.estimate->ok)
    result.period = result.estimate->period;
  else if (run.precision > 0)
    result.period = measured_period(times, outputs / 2, cooldown, inputs.estimate->window);
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

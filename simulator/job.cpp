// Simulation jobs and their outputs.
#include "simulator/job.hpp"

namespace pipesim {

SimulationJob::SimulationJob(Pipeline pipeline_, Platform platform_, Mapping mapping_, SimulationSettings settings_,
                             RunKind kind_)
    : pipeline(std::move(pipeline_)), platform(std::move(platform_)), mapping(std::move(mapping_)),
      settings(std::move(settings_)), kind(kind_)
{
}

SimulationJob::SimulationJob(TaskChain chain, Platform platform_, Mapping mapping_, SimulationSettings settings_,
                             RunKind kind_)
    : platform(std::move(platform_)), mapping(std::move(mapping_)), settings(std::move(settings_)), kind(kind_),
      task_chain(std::move(chain))
{
}

double SimulationOutput::latency() const { return run.output_times.empty() ? unbounded : run.output_times.front(); }

} // namespace pipesim

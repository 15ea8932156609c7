// What the one-port and the multi-port executions share (DESIGN.md §3.5, §3.7): the run's own copy of the job, the
// checks before the actors, the replication protocol (simulator/replication.hpp), busy times and the trace.
#pragma once

#include "simulator/deployment.hpp"
#include "simulator/replication.hpp"

#include <memory>
#include <vector>

namespace pipesim::detail {

class ReplicatedDeployment : public Deployment {
public:
  /// Output times, period, verdict and failure measurements, busy fractions of the makespan, trace.
  SimulationResult result() const override;

protected:
  /// Copies the job's pipeline, platform and mapping and the run's settings, then refuses what the run cannot date
  /// or execute (a clock past 1e307 s, a flop count past the largest double, a crash run on an XML host without a
  /// route to itself) and schedules the XML platform's link failures (what-if fail_link).
  ReplicatedDeployment(const SimulationJob& job, const SimulationSettings& run, RunInputs inputs);
  /// The replication protocol of the run, once the execution has checked what it refuses (plan_oneport's checks
  /// first); `allotted`: multi-port transfers rate-capped by the allotment.
  void start_replication(bool allotted);
  /// Adds an operation of processor `usage` (index in usage_) to its busy time and, when asked, to the trace.
  void record(std::size_t usage, Operation kind, int k, int interval, double start, double end)
  {
    ProcessorUsage& u = usage_[usage];
    u.busy(kind) += end - start;
    if (settings_.record_trace) trace_.push_back(TraceEvent{u.host, kind, k, interval, start, end});
    if (inputs_.gate && inputs_.gate->probe) inputs_.gate->probe(kind, k, interval, start, end);
  }

  Pipeline pipeline_;
  Platform platform_;
  Mapping mapping_;
  SimulationSettings settings_;
  RunInputs inputs_;
  std::unique_ptr<Replication> replication_;
  std::vector<ProcessorUsage> usage_;
  std::vector<TraceEvent> trace_;
};

} // namespace pipesim::detail

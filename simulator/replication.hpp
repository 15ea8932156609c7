// Replication of intervals (DESIGN.md §3.5, §3.7), shared by the one-port and the multi-port actors of a run: the run
// itself, made of four parts, each in its own file:
// - ReplicaLayout (replica_layout.hpp): the structure, fixed for the run: which replica processes each data set (deal:
//   replica k mod R), the stations' mailboxes (one per sender when the previous interval is dealt, so a receiver
//   waiting for k never takes k + R' from another replica), hosts, each data set's amounts;
// - ReplicaConfiguration (replica_configuration.hpp): alive processors, elections, the sender slots and their
//   counters, the allotted rates, and what a crash changes;
// - CrashWaits (crash_waits.hpp): waiting with crash wake-ups, and the link failures a failed wait reveals;
// - ReplicaTransfers (replica_transfers.hpp): receiving and sending one data set at a station;
// and, here, the run: P_in, P_out, the crash injector, the verdict and the result. The run ends with a verdict and
// Actor::kill_all(): survived when P_out holds the data sets the stopping rule asks for (N), failed when a crash
// leaves an interval without replica while its output is not fully delivered, when a replica of a dealt interval
// crashes with data sets left (a dealt interval is not fault tolerant), or when a transfer fails because a link on its
// route is off (a what-if fail_link edit: bbr10 assumes reliable links, so nothing recovers from it; the actor that
// sees the failure first ends the run). P_in feeds each replica of a dealt I_1 with an actor of its own, as fast as it
// takes its data sets; P_out takes the deliveries of a dealt last interval in any order, and data set k is output
// once 0..k have all arrived.
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"
#include "simulator/crash_waits.hpp"
#include "simulator/deployment.hpp"
#include "simulator/replica_configuration.hpp"
#include "simulator/replica_layout.hpp"
#include "simulator/replica_transfers.hpp"
#include "simulator/run_record.hpp"
#include "simulator/simulation.hpp"
#include "simulator/workload.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <string>
#include <vector>

namespace pipesim::detail {

class Replication {
public:
  /// `inputs` (the workload, the stopping rule, the size scale) must outlive the replication.
  Replication(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
              const SimulationSettings& settings, const RunInputs& inputs, bool allotted);
  Replication(const Replication&)            = delete;
  Replication& operator=(const Replication&) = delete;

  ReplicaLayout& layout() { return layout_; }
  const ReplicaLayout& layout() const { return layout_; }
  ReplicaConfiguration& config() { return config_; }
  const ReplicaConfiguration& config() const { return config_; }
  CrashWaits& waits() { return waits_; }
  const CrashWaits& waits() const { return waits_; }
  ReplicaTransfers& transfers() { return transfers_; }
  const ReplicaTransfers& transfers() const { return transfers_; }

  /// Applies the crashes at time <= 0, creates the injector, P_in and P_out. Call before creating the processors'
  /// actors; create none on a node that is not alive.
  void deploy();
  /// A processor's host went off: elections, verdict, wake-ups (in an actor).
  void crash(int u);
  bool finished() const { return record_.finished; }
  /// Creates an actor of the run (a segment of a handover records it: it kills its own actors only).
  template <class Code>
  void spawn(const std::string& name, simgrid::s4u::Host* host, Code code)
  {
    auto actor = simgrid::s4u::Actor::create(name, host, std::move(code));
    if (gate_ != nullptr) gate_->own(actor);
  }
  /// The segment gate of a re-mapping run, or null.
  SegmentGate* gate() const { return gate_; }
  FailureOutcome outcome() const;
  const std::vector<double>& output_times() const { return record_.output_times; }

private:
  void inject();
  void input();
  void input_replica(int node);
  void output();
  void output_any_order();
  void survived();
  /// P_out has output data set k (at time t): appended, counted; whether the run (or segment) has enough.
  bool output_one(double t);

  const Platform& platform_;
  const Mapping& mapping_;
  const SimulationSettings& settings_;
  const StoppingRule& stop_;
  SegmentGate* gate_ = nullptr; // a segment of a re-mapping run (simulator/segment_gate.hpp), or null
  IntervalAmounts amounts_;
  ReplicaLayout layout_;
  RunRecord record_;
  CrashWaits waits_;
  ReplicaConfiguration config_;
  ReplicaTransfers transfers_;
  int turning_off_ = -1; // the processor the injector is turning off (its state change is not a second crash)
};

/// The result of a finished run: output times, period, verdict and failure measurements, busy fractions of the
/// makespan (the completion time, or the failure time), trace. std::runtime_error when the run ended without a
/// verdict (SimGrid stopped it: a deadlock, which the protocol is meant to make impossible).
SimulationResult make_result(const Replication& replication, const SimulationSettings& settings,
                             std::vector<ProcessorUsage> usage, std::vector<TraceEvent> trace);

} // namespace pipesim::detail

// The configuration of a replicated run (DESIGN.md §3.5, §3.7): which processors are alive, which replica sends each
// interval's output, how far each sender's output has been delivered, the allotted rates of the configuration, and
// what a crash changes. The second part of Replication (simulator/replication.hpp).
//
// Active replication. At the start and after every crash, the election policy of the settings gives each interval's
// sender for the configuration of alive processors (instantaneous and free: perfect failure detector, as bbr10
// assumes); every alive replica computes every data set and keeps its outputs until they are delivered. The
// interval's slot counts the data sets of I_j's output that reached every alive receiver; a new sender sends from
// there on and the receivers drop what they already have. One sender at a time per interval (the holder of the slot's
// `sending`): an old sender that is still alive cancels its transfers that have not started, lets those in progress
// end, and hands over (end_send). Deal replication: replica r of a dealt I_j processes the data sets k = r + R i and
// is the only sender of their output: it has a slot of its own (started and delivered counted in its own sequence).
#pragma once

#include "model/bbr10/election.hpp"
#include "model/pipeline.hpp"
#include "simulator/crash_waits.hpp"
#include "simulator/replica_layout.hpp"
#include "simulator/run_record.hpp"
#include "simulator/simulation.hpp"

#include <functional>
#include <map>
#include <simgrid/s4u.hpp>
#include <tuple>
#include <utility>
#include <vector>

namespace pipesim::detail {

class ReplicaConfiguration {
public:
  /// Elects the first senders (a policy's InputError comes here: exhaustive with too many elections; a policy
  /// other than first with deal). `allotted`: transfers are rate-capped by the allotment of the configuration.
  ReplicaConfiguration(const Pipeline& pipeline, const SimulationSettings& settings, const ReplicaLayout& layout,
                       CrashWaits& waits, RunRecord& record, double size_scale, bool allotted);
  ReplicaConfiguration(const ReplicaConfiguration&)            = delete;
  ReplicaConfiguration& operator=(const ReplicaConfiguration&) = delete;

  bool alive(int node) const { return node >= platform_.p() || alive_.at(static_cast<std::size_t>(node)); }
  /// The elected replica of an actively replicated I_j (for a dealt one: its first replica, never used).
  int elected(int j) const { return elected_.at(static_cast<std::size_t>(j)); }
  /// The node sending data set k of I_j's output now: replica k mod R of a dealt interval, the elected replica of an
  /// active one (-1: none); P_in for j == -1.
  int sender(int j, int k) const;
  /// `node` is the sender of I_j's output for its data sets: every replica of a dealt interval, the elected one
  /// otherwise.
  bool sends(int j, int node) const { return layout_.dealt(j) || elected(j) == node; }
  /// `node` sends for I_j and no other replica is still sending: it may begin a data set.
  bool may_send(int j, int node) const;
  /// Brackets the transfers of one data set of I_j's output by `node` (after may_send). end_send hands over to the
  /// elected replica when `node` lost the election meanwhile (wakes it).
  void begin_send(int j, int node);
  void end_send(int j, int node);
  /// Output counters of a sender slot: the interval under active replication (whoever is elected), each replica
  /// under deal. delivered: the next data set of the slot to deliver (N or more: everything delivered).
  int delivered(int j, int node) const;
  /// Data set k of the slot of (j, node) reached every receiver: the slot moves past it if it was the next one.
  void delivered_one(int j, int node, int k);
  /// The sender of the slot of (j, node) took data set k from its output buffer (multi-port buffer accounting).
  void started_one(int j, int node, int k);
  /// Data sets of the slot before k that its sender has not taken from the output buffer yet.
  int unstarted(int j, int node, int k) const;
  /// Nodes that receive data set k of I_j's output now: the alive replicas of I_{j+1} that process k and did not
  /// compute k of I_j, in replica order (P_out for the last interval). For j = -1, the alive replicas of I_1 that
  /// process k (P_in's receivers).
  std::vector<int> receivers(int j, int k) const;
  /// Rate cap (scaled bytes/s) of the transfer of data set k into station (j, node) under the current configuration
  /// (keyed by interval, sender and receiver); < 0: none.
  double rate(int j, int node, int k) const;
  bool allotted() const { return allotted_; }

  /// Wakes the actors waiting in wait_change(j, node) on the slot of (j, node).
  void notify(int j, int node);
  /// Waits until notify on the slot of (j, node) or a crash; `sem` is the calling actor's own semaphore, created
  /// before it tested the condition it waits on (sg4::Semaphore::create(0)).
  void wait_change(int j, int node, const simgrid::s4u::SemaphorePtr& sem);
  /// Waits until a crash (which may elect another replica of I_j) or until I_j's output is fully delivered: for a
  /// replica of an actively replicated I_j that is not elected, whose sender has nothing to do until then (waking it
  /// at every change of the slot cost about a fifth of a Monte Carlo run). `sem` as for wait_change.
  void wait_election(int j, const simgrid::s4u::SemaphorePtr& sem);
  /// The lists of waiting actors the configuration needs (CrashWaits::make_lists): per slot, then per interval.
  std::size_t wait_lists() const { return slots_.size() + static_cast<std::size_t>(layout_.m()); }

  /// Called when a crash elects `node` to send I_j's output (after the deployment: the multi-port model starts the
  /// sender actor of a replica when it is first elected).
  void on_elected(std::function<void(int j, int node)> f) { on_elected_ = std::move(f); }
  /// Processor u crashed now: records the crash, elects again, and either fails the run (an interval lost its last
  /// replica with work left: RunRecord::fail) or computes the allotted rates of the new configuration.
  void mark_dead(int u);
  /// Once a crash's state is whole: calls on_elected for every replica it elected (creating an actor is a simcall,
  /// and other actors run meanwhile).
  void announce_elected();
  /// The allotted rates of the current configuration (none unless `allotted`).
  void update_rates();

private:
  /// The output of I_j sent by one sender at a time (DESIGN.md §3.5, §3.7): its data sets are offset + stride i.
  struct Slot {
    int offset    = 0;
    int stride    = 1;
    int delivered = 0; // data sets of the slot delivered to every receiver, counted in the slot
    int started   = 0; // data sets its sender took from its output buffer, counted in the slot
    int sending   = -1;
  };
  Slot& slot(int j, int node) { return slots_.at(slot_index(j, node)); }
  const Slot& slot(int j, int node) const { return slots_.at(slot_index(j, node)); }
  std::size_t slot_index(int j, int node) const;
  void set_delivered(Slot& s, int count);
  void make_slots();
  Election elect() const;
  void reelect();
  bool lost_work(int u);

  const Pipeline& pipeline_;
  const Platform& platform_;
  const Mapping& mapping_;
  const SimulationSettings& settings_;
  const ReplicaLayout& layout_;
  CrashWaits& waits_;
  RunRecord& record_;
  double size_scale_ = 1;
  bool allotted_     = false;
  ElectionFunction policy_;
  std::vector<bool> alive_;
  std::vector<int> elected_;
  std::vector<Slot> slots_;
  std::vector<std::size_t> slot_base_;                // per interval: its first slot
  std::map<std::tuple<int, int, int>, double> rates_; // (receiving interval, sender, receiver)
  std::function<void(int, int)> on_elected_;
  std::vector<std::pair<int, int>> newly_elected_; // (j, node) elected by the crash being handled
};

} // namespace pipesim::detail

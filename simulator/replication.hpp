// Replication of intervals (DESIGN.md §3.5, §3.7), shared by the one-port and the multi-port actors of a run: which
// processors are alive, which replica sends each data set of each interval, how far each sender's output has been
// delivered, the crash injector, the verdict, P_in and P_out, and the wake-ups of actors waiting on a transfer whose
// peer crashed.
//
// Active replication. Every transfer goes to the mailbox of its receiving station (interval j on node u), whoever
// sends it, and carries its data set index. At the start and after every crash, the election policy of the settings
// gives each interval's sender for the configuration of alive processors (instantaneous and free: perfect failure
// detector, as seed 004 assumes); every alive replica computes every data set and keeps its outputs until they are
// delivered. The interval's slot counts the data sets of I_j's output that reached every alive receiver; a new sender
// sends from there on and the receivers drop what they already have. One sender at a time per interval (the holder
// of the slot's `sending`), so a station's mailbox never holds two senders' transfers: an old sender that is still
// alive cancels its transfers that have not started, lets those in progress end, and hands over (end_send). A crash
// wakes every actor waiting on a transfer (a 0-byte message on a control mailbox, sent from the waiter's own host so it
// arrives at once), because SimGrid 3.32 cannot wake a pending receive whose sender died before matching: the woken
// actor cancels what can no longer match. The run ends with a verdict and Actor::kill_all(): survived when P_out holds
// N data sets, failed when a crash leaves an interval without replica while its output is not fully delivered, or
// when a transfer fails because a link on its route is off (a what-if fail_link edit: seed 004 assumes reliable links,
// so nothing recovers from it; the actor that sees the failure first ends the run).
//
// Deal replication. Replica r of a dealt I_j processes the data sets k = r + R i and is the only sender of their
// output: it has a slot of its own (started and delivered counted in its own sequence). A station fed by a dealt
// interval has one mailbox per sender, so a receiver waiting for k never takes k + R' from another replica. P_in feeds
// each replica of a dealt I_1 with an actor of its own, as fast as it takes its data sets; P_out takes the deliveries
// of a dealt last interval in any order, and data set k is output once 0..k have all arrived. A dealt interval is not
// fault tolerant: the crash of a replica that has not delivered all its data sets fails the run.
#pragma once

#include "model/bbr10/election.hpp"
#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"
#include "simulator/deployment.hpp"
#include "simulator/simulation.hpp"
#include "simulator/workload.hpp"

#include <functional>
#include <map>
#include <memory>
#include <simgrid/s4u.hpp>
#include <span>
#include <tuple>
#include <vector>

namespace pipesim::detail {

class Replication {
public:
  /// `inputs` (the workload, the stopping rule, the size scale) must outlive the replication.
  Replication(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
              const SimulationSettings& settings, const RunInputs& inputs, bool allotted);
  Replication(const Replication&)            = delete;
  Replication& operator=(const Replication&) = delete;

  // ---- structure
  const Mapping& mapping() const { return mapping_; }
  const Platform& platform() const { return platform_; }
  int m() const { return mapping_.m(); }
  int datasets() const { return datasets_; }
  /// L = deal_round(mapping): the outputs repeat per round of L data sets (1 without deal).
  int window() const { return window_; }
  /// I_j deals its data sets over its replicas (DESIGN.md §3.7).
  bool dealt(int j) const { return dealt_.at(static_cast<std::size_t>(j)); }
  /// `node` processes data set k of I_j: every data set under active replication, k mod R == r for replica r of a
  /// dealt interval. The data sets of a station (I_j on node) are first(j, node) + stride(j) i, i = 0, 1, ...
  bool processes(int j, int node, int k) const { return !dealt(j) || k % stride(j) == replica(j, node); }
  int first(int j, int node) const { return dealt(j) ? replica(j, node) : 0; }
  int stride(int j) const { return dealt(j) ? static_cast<int>(mapping_.interval(j).replicas.size()) : 1; }
  /// Index of the replica of I_j held by `node`, -1 when it holds none.
  int replica(int j, int node) const;
  /// `node` computed data set k of I_j (it holds I_j and processes k).
  bool computed(int j, int node, int k) const { return replica(j, node) >= 0 && processes(j, node, k); }
  /// u computes the input of data set k of I_j itself (it computed k of I_{j-1}).
  bool input_local(int j, int u, int k) const { return j > 0 && computed(j - 1, u, k); }
  /// The mailbox of the receiving station (I_j on `node`; j == m is P_out) for data set k: one per station, or one
  /// per station and sender when I_{j-1} is dealt, so that a receiver waiting for k does not take k + R from
  /// another sender that is ready first.
  simgrid::s4u::Mailbox* mailbox(int j, int node, int k) const;
  /// Bytes (scaled) entering I_j for data set k; j == m: the output of the last interval.
  std::uint64_t bytes(int j, int k) const { return amounts_.bytes(j, k); }
  /// W_j(k): the work of I_j for data set k (the workload's, simulator/workload.hpp).
  double work(int j, int k) const { return amounts_.work(j, k); }
  /// Every data set has the same amounts: the actors may compute flops and bytes once.
  bool fixed_amounts() const { return amounts_.constant(); }
  simgrid::s4u::Host* host(int node) const;
  /// The payload of data set k's transfers: its index, which the receivers check.
  int* payload(int k) { return &ids_.at(static_cast<std::size_t>(k)); }
  /// Flops to execute on `node`'s host so that w flops take w / s_u, s_u being the model's speed (a scale_speed edit
  /// changes it in the model only: SimGrid 3.32 cannot change the speed of a sealed host). w when the speeds agree.
  double flops(int node, double w) const;

  // ---- configuration
  bool alive(int node) const { return node >= platform_.p() || alive_.at(static_cast<std::size_t>(node)); }
  /// The elected replica of an actively replicated I_j (for a dealt one: its first replica, never used).
  int elected(int j) const { return elected_.at(static_cast<std::size_t>(j)); }
  /// The node sending data set k of I_j's output now: replica k mod R of a dealt interval, the elected replica of an
  /// active one (-1: none); P_in for j == -1.
  int sender(int j, int k) const;
  /// `node` is the sender of I_j's output for its data sets: every replica of a dealt interval, the elected one
  /// otherwise.
  bool sends(int j, int node) const { return dealt(j) || elected(j) == node; }
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
  /// A crash may happen during this run (schedule or platform profiles): waits then include wake-ups.
  bool failures_possible() const { return failures_possible_; }
  bool finished() const { return finished_; }

  /// Wakes the actors waiting in wait_change(j, node) on the slot of (j, node).
  void notify(int j, int node);
  /// Waits until notify on the slot of (j, node) or a crash; `sem` is the calling actor's own semaphore, created
  /// before it tested the condition it waits on (sg4::Semaphore::create(0)).
  void wait_change(int j, int node, const simgrid::s4u::SemaphorePtr& sem);
  /// Waits until a crash (which may elect another replica of I_j) or until I_j's output is fully delivered: for a
  /// replica of an actively replicated I_j that is not elected, whose sender has nothing to do until then (waking it
  /// at every change of the slot cost about a fifth of a Monte Carlo run). `sem` as for wait_change.
  void wait_election(int j, const simgrid::s4u::SemaphorePtr& sem);
  /// Called when a crash elects `node` to send I_j's output (after the deployment: the multi-port model starts the
  /// sender actor of a replica when it is first elected).
  void on_elected(std::function<void(int j, int node)> f) { on_elected_ = std::move(f); }

  // ---- waiting with crash wake-ups
  struct Waiter {
    simgrid::s4u::Host* host       = nullptr;
    simgrid::s4u::Mailbox* control = nullptr;
    simgrid::s4u::CommPtr pending;
    int* slot = nullptr;
  };
  /// A waiter for an actor on `host`; nullptr when no crash can happen (plain waits).
  Waiter* waiter(simgrid::s4u::Host* host);
  static constexpr long woken  = -1; // a crash happened
  static constexpr long failed = -2; // some transfer failed (its peer crashed): test each to know which
  long wait_any(Waiter* w, const std::vector<simgrid::s4u::CommPtr>& comms);

  /// Called with (start, end, data set) for every transfer that completed.
  using Record = std::function<void(double, double, int)>;
  /// Receives data set k at station (j, node): drops duplicates (data sets < k), posts again after a sender's crash.
  /// On a wake-up while the receive is unmatched, cancels it, calls `on_wake` (if any), and posts it again.
  void receive(Waiter* w, int j, int node, int k, const std::function<void()>& on_wake, const Record& record);
  /// Sends data set k of I_j's output to every node of `dests` at once (j == -1: from P_in); returns when each
  /// transfer completed or its destination crashed. On a wake-up, if `interrupt` says so, cancels the transfers
  /// still unmatched and returns false (the caller sends again later).
  bool send(Waiter* w, int j, std::span<const int> dests, int k, const std::function<bool()>& interrupt,
            const Record& record);

  // ---- run
  /// Applies the crashes at time <= 0, creates the injector, P_in and P_out. Call before creating the processors'
  /// actors; create none on a node that is not alive().
  void deploy();
  /// A processor's host went off: elections, verdict, wake-ups (in an actor).
  void crash(int u);
  FailureOutcome outcome() const;
  const std::vector<double>& output_times() const { return output_times_; }

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
  void notify_slot(std::size_t index);
  void make_slots();
  void make_mailboxes();
  Election elect() const;
  void reelect();
  bool lost_work(int u);
  void wake(simgrid::s4u::Host* only);
  void mark_dead(int u);
  /// When `c` failed on a route through an off link: the run fails (verdict, kill_all) and the calling actor exits.
  void check_link_failure(const simgrid::s4u::CommPtr& c);
  /// One transfer of send(): its destination (-1: dropped) and its communication.
  struct Outgoing {
    int dest = 0;
    simgrid::s4u::CommPtr comm;
  };
  /// Posts data set k of I_j's output to `dest` (started, with the rate cap of the configuration).
  simgrid::s4u::CommPtr post(int j, int dest, int k);
  /// After a failed wait: drops the transfers that completed (recorded) or failed (a crashed receiver's; a link
  /// failure ends the run).
  void drop_ended(std::vector<Outgoing>& outs, int k, const Record& record);
  /// After a crash wake-up: drops the transfers to crashed receivers and, when `give_up`, the unmatched ones (both
  /// cancelled when unmatched); re-posts unmatched ones under allotted rates. Whether an alive receiver was given up.
  bool drop_after_crash(std::vector<Outgoing>& outs, int j, int k, bool give_up);
  /// Waits for the (matched) transfers left to end, recording each.
  void finish_matched(std::vector<Outgoing>& outs, int k, const Record& record);
  void update_rates();
  void inject();
  void input();
  void input_replica(int node);
  void output();
  void output_any_order();
  void survived();

  const Pipeline& pipeline_;
  const Platform& platform_;
  const Mapping& mapping_;
  const SimulationSettings& settings_;
  const StoppingRule& stop_;
  IntervalAmounts amounts_;
  double size_scale_      = 1;
  bool allotted_          = false;
  int datasets_           = 0;
  int window_             = 1;
  bool failures_possible_ = false;

  std::vector<int> ids_;
  std::vector<bool> alive_;
  mutable std::vector<simgrid::s4u::Host*> hosts_; // by node, filled by host() as it finds them
  std::vector<bool> dealt_;
  std::vector<std::vector<int>> replica_; // [j][node]: index of node's replica of I_j, -1
  ElectionFunction policy_;
  std::vector<int> elected_;
  std::vector<Slot> slots_;
  std::vector<std::size_t> slot_base_;                // per interval: its first slot
  std::map<std::tuple<int, int, int>, double> rates_; // (receiving interval, sender, receiver)
  std::map<std::pair<int, int>, simgrid::s4u::Mailbox*> mailboxes_;
  std::map<std::tuple<int, int, int>, simgrid::s4u::Mailbox*> sender_mailboxes_; // (j, node, sender): I_{j-1} dealt
  std::map<const simgrid::s4u::Mailbox*, int> station_interval_; // a station's mailbox -> its interval j
  struct Sleeper {
    simgrid::s4u::SemaphorePtr sem;
    bool released = false;
  };
  // per slot, actors in wait_change; then per interval, actors in wait_election (index slots_.size() + j)
  std::vector<std::vector<std::shared_ptr<Sleeper>>> sleepers_;

  std::vector<std::unique_ptr<Waiter>> waiters_;
  int token_       = 0;
  int turning_off_ = -1;
  std::function<void(int, int)> on_elected_;
  std::vector<std::pair<int, int>> newly_elected_; // (j, node) elected by the crash being handled

  bool finished_ = false;
  FailureOutcome outcome_;
  std::vector<double> output_times_;
  std::unique_ptr<Progress> progress_; // settings.progress: data sets output, on stderr
  void count_output()
  {
    if (progress_) progress_->set(static_cast<long>(output_times_.size()));
  }
};

/// The result of a finished run: output times, period, verdict and failure measurements, busy fractions of the
/// makespan (the completion time, or the failure time), trace. std::runtime_error when the run ended without a
/// verdict (SimGrid stopped it: a deadlock, which the protocol is meant to make impossible).
SimulationResult make_result(const Replication& replication, const SimulationSettings& settings,
                             std::vector<ProcessorUsage> usage, std::vector<TraceEvent> trace);

} // namespace pipesim::detail

// Active replication under crashes (DESIGN.md §3.5), shared by the one-port and the multi-port actors of a run:
// which processors are alive, which replica sends for each interval, how far each interval's output has been
// delivered, the crash injector, the verdict, P_in and P_out, and the wake-ups of actors waiting on a transfer
// whose peer crashed.
//
// Protocol. Every transfer goes to the mailbox of its receiving station (interval j on node u), whoever sends it,
// and carries its data set index. At the start and after every crash, the election policy of the settings gives
// each interval's sender for the configuration of alive processors (instantaneous and free: perfect failure
// detector, as seed 004 assumes); every alive replica computes every data set and keeps its outputs until they are
// delivered. delivered(j) counts the data sets of I_j's output that reached every alive receiver; a new sender
// sends from delivered(j) on and the receivers drop what they already have. One sender at a time per interval (the
// holder of sending(j)), so a station's mailbox never holds two senders' transfers: an old sender that is still
// alive cancels its transfers that have not started, lets those in progress end, and hands over (end_send). A crash
// wakes every actor waiting on a transfer (a 0-byte message on a control mailbox, sent from the waiter's own host so it
// arrives at once), because SimGrid 3.32 cannot wake a pending receive whose sender died before matching: the woken
// actor cancels what can no longer match. The run ends with a verdict and Actor::kill_all(): survived when P_out holds
// N data sets, failed when a crash leaves an interval without replica while its output is not fully delivered, or
// when a transfer fails because a link on its route is off (a what-if fail_link edit: seed 004 assumes reliable links,
// so nothing recovers from it; the actor that sees the failure first ends the run).
#pragma once

#include "model/bbr10/election.hpp"
#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"
#include "simulator/simulation.hpp"

#include <functional>
#include <map>
#include <memory>
#include <simgrid/s4u.hpp>
#include <vector>

namespace pipesim::detail {

class Replication {
public:
  Replication(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
              const SimulationSettings& settings, double size_scale, bool allotted);
  Replication(const Replication&)            = delete;
  Replication& operator=(const Replication&) = delete;

  // ---- structure
  const Mapping& mapping() const { return mapping_; }
  const Platform& platform() const { return platform_; }
  int m() const { return mapping_.m(); }
  int datasets() const { return datasets_; }
  /// u computes the input of I_j itself (it holds I_{j-1}).
  bool input_local(int j, int u) const { return j > 0 && mapping_.interval(j - 1).holds(u); }
  /// The mailbox of the receiving station (I_j on `node`; j == m is P_out).
  simgrid::s4u::Mailbox* mailbox(int j, int node) const;
  /// Bytes (scaled) entering I_j; j == m: the output of the last interval.
  std::uint64_t bytes(int j) const { return bytes_.at(static_cast<std::size_t>(j)); }
  simgrid::s4u::Host* host(int node) const;
  /// Flops to execute on `node`'s host so that w flops take w / s_u, s_u being the model's speed (a scale_speed edit
  /// changes it in the model only: SimGrid 3.32 cannot change the speed of a sealed host). w when the speeds agree.
  double flops(int node, double w) const;

  // ---- configuration
  bool alive(int node) const { return node >= platform_.p() || alive_.at(static_cast<std::size_t>(node)); }
  int elected(int j) const { return elected_.at(static_cast<std::size_t>(j)); }
  /// The replica sending a data set of I_j's output now (-1: none). It may have lost the election since it began.
  int sending(int j) const { return sending_.at(static_cast<std::size_t>(j)); }
  /// `node` is elected for I_j and no other replica is still sending: it may begin a data set.
  bool may_send(int j, int node) const { return elected(j) == node && (sending(j) < 0 || sending(j) == node); }
  /// Brackets the transfers of one data set of I_j's output by `node` (after may_send). end_send hands over to the
  /// elected replica when `node` lost the election meanwhile (wakes it).
  void begin_send(int j, int node);
  void end_send(int j, int node);
  int delivered(int j) const { return delivered_.at(static_cast<std::size_t>(j)); }
  void set_delivered(int j, int value);
  /// Data sets the elected sender of I_j has taken from its output buffer (multi-port buffer accounting).
  int started(int j) const { return started_.at(static_cast<std::size_t>(j)); }
  void set_started(int j, int value);
  /// Nodes that receive I_j's output now: the alive replicas of I_{j+1} that do not hold I_j, in replica order
  /// (P_out for the last interval). For j = -1, the alive replicas of I_1 (P_in's receivers).
  std::vector<int> receivers(int j) const;
  /// Rate cap (scaled bytes/s) of transfers into station (j, node) under the current configuration; < 0: none.
  double rate(int j, int node) const;
  /// A crash may happen during this run (schedule or platform profiles): waits then include wake-ups.
  bool failures_possible() const { return failures_possible_; }
  bool finished() const { return finished_; }

  /// Wakes the actors waiting in wait_change(j).
  void notify(int j);
  /// Waits until notify(j) or a crash; `sem` is the calling actor's own semaphore, created before it tested the
  /// condition it waits on (sg4::Semaphore::create(0)).
  void wait_change(int j, const simgrid::s4u::SemaphorePtr& sem);

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
  bool send(Waiter* w, int j, const std::vector<int>& dests, int k, const std::function<bool()>& interrupt,
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
  Election elect() const;
  void wake(simgrid::s4u::Host* only);
  void mark_dead(int u);
  /// When `c` failed on a route through an off link: the run fails (verdict, kill_all) and the calling actor exits.
  void check_link_failure(const simgrid::s4u::CommPtr& c);
  void update_rates();
  void inject();
  void input();
  void output();

  const Pipeline& pipeline_;
  const Platform& platform_;
  const Mapping& mapping_;
  const SimulationSettings& settings_;
  double size_scale_      = 1;
  bool allotted_          = false;
  int datasets_           = 0;
  bool failures_possible_ = false;

  std::vector<std::uint64_t> bytes_;
  std::vector<int> ids_;
  std::vector<bool> alive_;
  ElectionFunction policy_;
  std::vector<int> elected_;
  std::vector<int> sending_;
  std::vector<int> delivered_;
  std::vector<int> started_;
  std::map<std::pair<int, int>, double> rates_;
  std::map<std::pair<int, int>, simgrid::s4u::Mailbox*> mailboxes_;
  std::map<const simgrid::s4u::Mailbox*, int> station_interval_; // a station's mailbox -> its interval j
  struct Sleeper {
    simgrid::s4u::SemaphorePtr sem;
    bool released = false;
  };
  std::vector<std::vector<std::shared_ptr<Sleeper>>> sleepers_; // per interval: actors in wait_change

  std::vector<std::unique_ptr<Waiter>> waiters_;
  int token_       = 0;
  int turning_off_ = -1;

  bool finished_ = false;
  FailureOutcome outcome_;
  std::vector<double> output_times_;
};

/// The result of a finished run: output times, period, verdict and failure measurements, busy fractions of the
/// makespan (the completion time, or the failure time), trace. std::runtime_error when the run ended without a
/// verdict (SimGrid stopped it: a deadlock, which the protocol is meant to make impossible).
SimulationResult make_result(const Replication& replication, const SimulationSettings& settings,
                             std::vector<ProcessorUsage> usage, std::vector<TraceEvent> trace);

} // namespace pipesim::detail

// Waiting with crash wake-ups (DESIGN.md §3.5, docs/semantics.md "Crashes"): the actors of a replicated run wait on
// transfers and on changes of the run's counters; a crash must wake every one of them. The third part of Replication
// (simulator/replication.hpp).
//
// SimGrid 3.32 cannot wake a pending receive whose sender died before matching. So an actor that waits on a transfer
// while a crash is possible also waits on a control mailbox of its own, and a crash sends a 0-byte message to every
// such mailbox from the waiter's own host (the loopback: it arrives at once); the woken actor cancels what can no
// longer match. Actors waiting for a change of the counters wait on a semaphore of their own, listed until released
// (a notifier may be killed half-way through a list: a crash notifies every list again). A wait that fails because a
// transfer crossed a link that is off ends the run (bbr10 assumes reliable links: nothing recovers from it).
#pragma once

#include "simulator/replica_layout.hpp"
#include "simulator/run_record.hpp"

#include <memory>
#include <simgrid/s4u.hpp>
#include <vector>

namespace pipesim::detail {

class CrashWaits {
public:
  /// `failures_possible`: a crash may happen in this run (a schedule, or a platform with state profiles).
  CrashWaits(const ReplicaLayout& layout, RunRecord& record, bool failures_possible);
  CrashWaits(const CrashWaits&)            = delete;
  CrashWaits& operator=(const CrashWaits&) = delete;

  /// A crash may happen during this run: waits then include wake-ups.
  bool failures_possible() const { return failures_possible_; }

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
  /// Comm::wait_any over `comms` and, with a waiter, its control mailbox: the index of the comm that completed,
  /// `woken` or `failed`. A transfer that failed on an off link ends the run here (the calling actor exits).
  long wait_any(Waiter* w, const std::vector<simgrid::s4u::CommPtr>& comms);
  /// Wakes the waiting actors (all, or those on `only`) with their control message.
  void wake(simgrid::s4u::Host* only);
  /// When `c` failed on a route through an off link: the run fails (verdict, kill_all) and the calling actor exits.
  void check_link_failure(const simgrid::s4u::CommPtr& c);

  /// `lists` lists of actors waiting for a change (Replication::deploy: per slot, then per interval).
  void make_lists(std::size_t lists) { sleepers_.resize(lists); }
  /// Releases every actor waiting on list `index`.
  void notify(std::size_t index);
  /// Waits on list `index` until notify; `sem` is the calling actor's own semaphore, created before it tested the
  /// condition it waits on (Semaphore::create is a simcall: a notify could slip in between).
  void wait(std::size_t index, const simgrid::s4u::SemaphorePtr& sem);
  std::size_t lists() const { return sleepers_.size(); }

private:
  const ReplicaLayout& layout_;
  RunRecord& record_;
  bool failures_possible_ = false;
  std::vector<std::unique_ptr<Waiter>> waiters_;
  int token_ = 0;
  struct Sleeper {
    simgrid::s4u::SemaphorePtr sem;
    bool released = false;
  };
  std::vector<std::vector<std::shared_ptr<Sleeper>>> sleepers_;
};

} // namespace pipesim::detail

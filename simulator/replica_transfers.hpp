// The transfers of a replicated run (DESIGN.md §3.5, §3.7): receiving and sending one data set at a station, with
// duplicates dropped, transfers posted again after a sender's crash, and the rate caps of the configuration. Every
// transfer goes to the mailbox of its receiving station (interval j on node u), whoever sends it, and carries its
// data set index. The fourth part of Replication (simulator/replication.hpp).
#pragma once

#include "simulator/crash_waits.hpp"
#include "simulator/replica_configuration.hpp"
#include "simulator/replica_layout.hpp"
#include "simulator/run_record.hpp"

#include <functional>
#include <simgrid/s4u.hpp>
#include <span>
#include <vector>

namespace pipesim::detail {

class ReplicaTransfers {
public:
  ReplicaTransfers(ReplicaLayout& layout, const ReplicaConfiguration& config, CrashWaits& waits, RunRecord& record)
      : layout_(layout), config_(config), waits_(waits), record_(record)
  {
  }
  ReplicaTransfers(const ReplicaTransfers&)            = delete;
  ReplicaTransfers& operator=(const ReplicaTransfers&) = delete;

  using Waiter = CrashWaits::Waiter;
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
  /// A segment of a re-mapping run with on_crash: remap (SegmentGate::silent_crashes): a receiver whose host is off
  /// crashed fail-silent, and a sender whose transfer to it failed waits for ever, as it would for a silent peer.
  void set_silent_crashes(bool silent) { silent_crashes_ = silent; }
  bool silent_crashes() const { return silent_crashes_; }

private:
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
  /// With silent crashes, when `dest`'s host is off: the calling actor waits for ever (the segment's end kills it).
  void wait_if_silent(int dest) const;

  ReplicaLayout& layout_;
  const ReplicaConfiguration& config_;
  CrashWaits& waits_;
  RunRecord& record_;
  bool silent_crashes_ = false;
};

} // namespace pipesim::detail

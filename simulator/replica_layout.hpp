// The structure of a replicated run (DESIGN.md §3.5, §3.7), fixed for the whole run: which replica of an interval
// processes each data set, the stations' mailboxes, the hosts, each data set's amounts in SimGrid's units. The first
// part of Replication (simulator/replication.hpp).
#pragma once

#include "model/mapping.hpp"
#include "platforms/platform.hpp"
#include "simulator/workload.hpp"

#include <cstdint>
#include <deque>
#include <map>
#include <simgrid/forward.h>
#include <string>
#include <tuple>
#include <vector>

namespace pipesim::detail {

class ReplicaLayout {
public:
  /// `datasets`: the most data sets the run may feed; InputError for data-parallel groups (and from deal_round).
  ReplicaLayout(const Platform& platform, const Mapping& mapping, int datasets, const IntervalAmounts& amounts);
  ReplicaLayout(const ReplicaLayout&)            = delete;
  ReplicaLayout& operator=(const ReplicaLayout&) = delete;

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
  int replica(int j, int node) const
  {
    return replica_.at(static_cast<std::size_t>(j)).at(static_cast<std::size_t>(node));
  }
  /// `node` computed data set k of I_j (it holds I_j and processes k).
  bool computed(int j, int node, int k) const { return replica(j, node) >= 0 && processes(j, node, k); }
  /// u computes the input of data set k of I_j itself (it computed k of I_{j-1}).
  bool input_local(int j, int u, int k) const { return j > 0 && computed(j - 1, u, k); }
  /// The replica of a dealt I_j that processes and sends data set k: replica k mod R.
  int dealt_sender(int j, int k) const
  {
    return mapping_.interval(j).replicas[static_cast<std::size_t>(k % stride(j))].front();
  }

  /// Creates every station's mailbox (in deploy(): Mailbox::by_name is a simcall, so actors sharing a lazy map would
  /// race) and notes each for the engine reuse of a series.
  void make_mailboxes();
  /// The prefix of the run's mailbox names (a segment's of a handover, simulator/segment_gate.hpp; "" otherwise).
  void set_tag(std::string tag) { tag_ = std::move(tag); }
  const std::string& tag() const { return tag_; }
  /// The mailbox of the receiving station (I_j on `node`; j == m is P_out) for data set k: one per station, or one
  /// per station and sender when I_{j-1} is dealt, so that a receiver waiting for k does not take k + R from
  /// another sender that is ready first.
  simgrid::s4u::Mailbox* mailbox(int j, int node, int k) const;
  /// The interval j of the station whose mailbox this is, -1 for another mailbox.
  int station_interval(const simgrid::s4u::Mailbox* mailbox) const;

  /// Bytes (scaled) entering I_j for data set k; j == m: the output of the last interval.
  std::uint64_t bytes(int j, int k) const { return amounts_.bytes(j, k); }
  /// W_j(k): the work of I_j for data set k (the workload's, simulator/workload.hpp).
  double work(int j, int k) const { return amounts_.work(j, k); }
  /// Every data set has the same amounts: the actors may compute flops and bytes once.
  bool fixed_amounts() const { return amounts_.constant(); }
  /// The payload of data set k's transfers: its index, which the receivers check (stable while the run lasts).
  int* payload(int k);
  simgrid::s4u::Host* host(int node) const;
  /// Flops to execute on `node`'s host so that w flops take w / s_u, s_u being the model's speed (a scale_speed edit
  /// changes it in the model only: SimGrid 3.32 cannot change the speed of a sealed host). w when the speeds agree.
  double flops(int node, double w) const;

private:
  const Platform& platform_;
  const Mapping& mapping_;
  const IntervalAmounts& amounts_;
  int datasets_ = 0;
  std::string tag_;
  int window_ = 1;
  std::vector<bool> dealt_;
  std::vector<std::vector<int>> replica_; // [j][node]: index of node's replica of I_j, -1
  std::deque<int> ids_; // 0, 1, ..., up to the largest data set sent so far (a deque: pointers stay valid)
  mutable std::vector<simgrid::s4u::Host*> hosts_; // by node, filled by host() as it finds them
  std::map<std::pair<int, int>, simgrid::s4u::Mailbox*> mailboxes_;
  std::map<std::tuple<int, int, int>, simgrid::s4u::Mailbox*> sender_mailboxes_; // (j, node, sender): I_{j-1} dealt
  std::map<const simgrid::s4u::Mailbox*, int> station_interval_; // a station's mailbox -> its interval j
};

} // namespace pipesim::detail

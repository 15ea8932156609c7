// Deal replication (DESIGN.md §3.7, sv95 and hedpm): which replica of an interval processes, sends and receives data
// set k, and the round of L data sets after which a dealt execution repeats.
#pragma once

#include "model/mapping.hpp"

#include <vector>

namespace pipesim {

/// The interval deals its data sets over more than one replica.
bool is_dealt(const Interval& in);

/// Largest round deal_round accepts: the event graphs unroll L data sets (docs/event-graph.md gives their size).
inline constexpr long long max_deal_round = 1'000'000;

/// L = lcm of the replica counts of the dealt intervals (1 without deal): the execution repeats every L data sets.
/// InputError when L exceeds max_deal_round. Complexity: O(m log L).
int deal_round(const Mapping& mapping);

/// The replicas (indices into in.replicas) that process data set k (k from 0): {k mod R} when dealt, every replica
/// otherwise (active replication or a single replica).
std::vector<int> processing_replicas(const Interval& in, int k);
bool processes(const Interval& in, int replica, int k);

/// Complexity of the per-interval functions below and above: O(R) for R replicas.
/// Index of the replica holding processor u, or -1.
int replica_of(const Interval& in, int u);

/// Index of the replica that sends the output of data set k: k mod R when dealt; otherwise the replica of processor
/// `elected` (the elected sender), the first replica when `elected` < 0.
int sending_replica(const Interval& in, int k, int elected = -1);

} // namespace pipesim

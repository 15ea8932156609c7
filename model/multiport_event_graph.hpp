// Exact period of the bounded multi-port execution with overlap and `allotted` bandwidths (DESIGN.md §3.2, §3.6,
// §3.7) as the maximum cycle ratio of its timed event graph, with or without deal replication.
//
// Source: the execution the simulator's multi-port actors run (simulator/multiport_actors.cpp) with the transfer
// times of model/allotment.hpp; without deal its period is bbr10 Algorithm 1 with every processor alive and the
// given election (bbr10_period; checked on random interval mappings in multiport_event_graph_test.cpp). With deal no
// paper gives the period: this graph is the reference.
// Accepts: mappings in which no processor holds two intervals (interval and one-to-one mappings, replicated actively
// or dealt), one processor per replica, any platform class, cards and latencies. InputError otherwise: intervals
// sharing a processor share its CPU (SimGrid's fair sharing), which no event graph models.
// Complexity: building O(L (m + sum_j R_j) + R_1^2 L) transitions and places (L = deal_round(mapping)) plus the
// allotment, O(T log T) for T transfers; solving: max_cycle_ratio.
#pragma once

#include "model/event_graph.hpp"

namespace pipesim {

/// Each replica of I_j (a station) processes its data sets of the round in increasing order (every data set under
/// active replication, k mod R == r for replica r of a dealt interval) with three activities linked by buffers of
/// `buffer` data sets:
/// - receive: data set i (the station's i-th) is received (its transfer starts, rendezvous with the sender) after
///   data set i-1 was received and once the computation has started on data set i - buffer (an input slot is free);
/// - compute: data set i starts once received and once data set i-1 was handed over; it takes sum w / s_u, then is
///   handed over (H), for the replica that sends, once its sender has begun data set i - buffer (an output slot);
/// - send (the elected replica of an active interval, every replica of a dealt one): data set i begins once handed
///   over and once every transfer of data set i-1 has ended; it starts the transfers to every receiver of data set i
///   at once (each replica of I_{j+1} that processes it, or P_out). A transfer u->v lasts c_{u,v} + its allotted time.
/// P_in sends data set k to every replica of an active I_1 at once and k+1 once they all took k; it feeds a dealt I_1
/// replica by replica (no constraint); P_out takes every delivery at once. `senders[j]` is the elected replica of an
/// active I_j (replica 0 when empty). InputError when buffer < 1, a processor holds two intervals, or for
/// data-parallel groups.
///
/// Size: per data set of the round, a transfer into each replica that processes it and a delivery, a computation and
/// a hand-over per such replica, and a send start per interval. With P_j as in build_oneport_event_graph (R_j when
/// active, 1 when dealt):
///   transitions = L (3 sum_j P_j + m + 1),
///   places      = L (5 sum_j P_j + 2 m + 2 (sum_{j>=2} P_j + 1) + P_1^2)   (no P_1^2 when I_1 is dealt).
/// L = 5,040 over four dealt intervals: 85,680 transitions and 181,440 places (docs/event-graph.md).
EventGraph build_multiport_event_graph(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                       int buffer = 1, const std::vector<int>& senders = {});

} // namespace pipesim

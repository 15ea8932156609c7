// Every analytic formula of pipesim, each named after its source and equation (DESIGN.md §4).
// Mappers, the simulator's checks and the validation call these; nothing re-derives a formula locally.
#pragma once

#include "model/mapping.hpp"
#include "model/multiport_analytic.hpp" // bbr10 eq. (1) and Algorithm 1 (multi-port)
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// br07 eq. (2) cycle-time of interval I_j = [d, e] on processor u, with `prev` the processor of I_{j-1}
/// (platform.in() for j = 1) and `next` that of I_{j+1} (platform.out() for j = m):
/// delta_{d-1}/b_{prev,u} + sum w / s_u + delta_e/b_{u,next} (plus the link latencies c). Complexity: O(last - first +
/// 1).
double br07_interval_cycle_time(const Pipeline& pipeline, const Platform& platform, int first, int last, int u,
                                int prev, int next);

/// br07 eq. (1) (one-to-one) and eq. (2) (interval): the one-port period of an interval mapping with one
/// processor per interval. Throws InputError for other mappings. Complexity: O(n + m).
double br07_eq2_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping);

/// br07 eq. (3): optimistic asynchronous bound of a general mapping without replication. Complexity: O(n + m).
double br07_eq3_async_bound(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping);

/// br07 eqs. (4)-(5): one-port period of a general mapping without replication under the sequential
/// rule (S_j(k) before S_i(k+1) when i < j). Equals the event-graph period in the cases the paper treats; the
/// event graph is the exact reference. Complexity: O(n + m) per processor of the mapping.
double br07_eq45_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping);

/// One-port active replication (DESIGN.md §3.1 with bbr10's protocol, no failures): every replica receives
/// from the elected replica of the previous interval (replica 0), computes, and the elected replica sends to
/// every replica of the next interval one after the other. Returns the maximum cycle-time, which is the exact
/// period for interval mappings. Throws InputError for general mappings or data-parallel groups.
/// Complexity: O(n + sum_j R_j R_{j+1}).
double oneport_active_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping);

/// Latency of an interval mapping with one processor per interval (br07 model): the time for one data set
/// to cross the empty pipeline, sum_j (delta_{d_j-1}/b + W_j/s) + delta_n/b. Complexity: O(n + m).
double interval_latency(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping);

/// bbr10 eq. (2): F = 1 - prod_k (1 - prod_{u in subset k} f_u). When processor sets overlap without being
/// equal, eq. (2) does not apply and F is computed exactly by inclusion-exclusion over the distinct sets. Each replica
/// of a dealt interval is a set of its own (DESIGN.md §3.7: the crash of one replica fails the run).
/// Complexity: O(S log S) for S processors listed; with overlapping sets, 2^d unions of d distinct sets.
double bbr10_eq2_failure_probability(const Platform& platform, const Mapping& mapping);

} // namespace pipesim

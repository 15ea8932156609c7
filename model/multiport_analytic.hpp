// bbr10's bounded multi-port formulas with overlap: eq. (1) for interval mappings and Algorithm 1 (cycle-time
// of a processor given a failure configuration and elected senders) for general mappings.
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

#include <vector>

namespace pipesim {

/// Which processors are alive (bbr10 §3.2: fail-silent, no recovery; P_in and P_out never fail).
/// `alive[u]` for the processors u = 0..p-1.
struct FailureConfiguration {
  std::vector<bool> alive;

  static FailureConfiguration all_alive(const Platform& platform);
  bool is_alive(int u) const { return alive.at(static_cast<std::size_t>(u)); }
};

/// bbr10 §3.4: for each interval I_j (index j of the mapping), the alive replica that sends I_j's output to
/// every alive replica of I_{j+1}; -1 when I_j has no alive replica.
struct Election {
  std::vector<int> sender;
};

/// The election DESIGN.md §3.5 uses: the first alive replica of each interval in replica order (-1 if none).
/// Complexity: O(sum_j R_j), as the two survival tests below.
Election first_alive_election(const Mapping& mapping, const FailureConfiguration& config);

/// True when every interval keeps an alive replica (the run survives; bbr10 eq. (2) is the probability that
/// this fails).
bool every_interval_survives(const Mapping& mapping, const FailureConfiguration& config);
/// True when the mapping keeps every data set going under `config`: an actively replicated interval keeps an alive
/// replica and a dealt one (model/deal.hpp) keeps all of its replicas (each processes its own data sets: a crash with
/// work left fails the run). bbr10 eq. (2) as bbr10_eq2_failure_probability extends it to deal is the probability
/// that this fails. Without deal, every_interval_survives.
bool mapping_survives(const Mapping& mapping, const FailureConfiguration& config);

/// The terms of a multi-port cycle-time. With overlap the cycle-time is their maximum, never their sum
/// (bbr10 §3.3). Every term of a transfer waits for its latency c before its bytes flow: a link term is
/// c_{u,v} + load / b_{u,v}, a card term the largest latency of its transfers + load / capacity.
struct MultiportTerms {
  double in_link  = 0; // max over senders v of sum over transfers v->u of (c_{v,u} + delta / b_{v,u})
  double in_card  = 0; // sum of the bytes received / Bin_u
  double compute  = 0; // sum of w over the stages held / s_u
  double out_link = 0; // max over receivers v of sum over transfers u->v of (c_{u,v} + delta / b_{u,v})
  double out_card = 0; // sum of the bytes sent / Bout_u
  double cycle_time() const;
};

/// bbr10 eq. (1), term of processor u in alloc(d_j) (the interval of index j of the mapping): worst case,
/// u the only survivor of I_j, every replica of I_{j+1} alive, the slowest replica of I_{j-1} sending:
///   max{ delta_{d_j-1} / min_{v in alloc(d_j-1)} min(b_{v,u}, Bin_u), sum_{i in I_j} w_i / s_u,
///        delta_{e_j} / min_{v in alloc(d_j+1)} b_{u,v}, |alloc(d_j+1)| delta_{e_j} / Bout_u }
/// with P_in before I_1 and P_out after I_m (never bottlenecks, no cards). With latencies the input term is
/// max_v max(c_{v,u} + delta / b_{v,u}, delta / Bin_u), the link output term max_v (c_{u,v} + delta / b_{u,v}).
/// Throws InputError unless the mapping is an interval mapping with active replication, one processor per
/// replica, and u holds I_j. Complexity: O(|I_j| + |alloc(d_j-1)| + |alloc(d_j+1)|).
MultiportTerms bbr10_eq1_terms(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping, int j,
                               int u);
double bbr10_eq1_cycle_time(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping, int j, int u);

/// bbr10 eq. (1): worst-case period of an interval mapping with active replication, the maximum of
/// bbr10_eq1_cycle_time over every interval j and every u in alloc(d_j). It is the maximum of bbr10_period over
/// every failure configuration in which each interval keeps a replica and over every election.
/// Complexity: O(sum_j |alloc(d_j)| (|alloc(d_j-1)| + |alloc(d_j+1)| + |I_j|)).
double bbr10_eq1_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping);

/// bbr10 Algorithm 1, generalised to any mapping with active replication (one processor per replica): the
/// cycle-time terms of every processor for a failure configuration and an election, indexed by processor; zero
/// for crashed processors and processors the mapping does not use. The transfers are those of the MILP of §5:
/// the elected sender of I_j sends delta_{e_j} to every alive replica of I_{j+1} that does not hold I_j itself
/// (a processor holding I_j and I_{j+1} uses its own output); P_in sends delta_0 to every alive replica of I_1;
/// the sender of I_m sends delta_n to P_out. Throws InputError when the configuration or the election does not
/// fit the mapping (wrong sizes, a sender that is crashed or not a replica of its interval, an interval without
/// survivor). Complexity: O(p + sum_j |alloc(d_j)| log p).
std::vector<MultiportTerms> bbr10_cycle_time_terms(const Pipeline& pipeline, const Platform& platform,
                                                   const Mapping& mapping, const FailureConfiguration& config,
                                                   const Election& election);

/// bbr10 Algorithm 1: cycle-time of processor u (0 when u is crashed or unused). Complexity: that of the terms.
double bbr10_cycle_time(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                        const FailureConfiguration& config, const Election& election, int u);

/// bbr10 §6.1: the period for a failure configuration and an election, the largest cycle-time over the
/// alive processors. Complexity: that of bbr10_cycle_time_terms.
double bbr10_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                    const FailureConfiguration& config, const Election& election);

/// Interval mappings without failures: bbr10_period with every processor alive and replica 0 of each interval
/// elected, i.e. eq. (1) with the elected senders in place of the worst-case minimum over predecessors and only
/// the elected replica paying the outputs. Never exceeds bbr10_eq1_period. Throws InputError for general mappings.
/// Complexity: that of bbr10_cycle_time_terms.
double bbr10_interval_period_all_alive(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping);

/// Multi-port latency without failures: the critical path of one data set through the mapping with replica 0 of each
/// interval elected and the allotted transfer times (model/allotment.hpp), each transfer paying its latency first.
/// Exact for the `allotted` simulation unless a processor computes two intervals of the same data set at once.
/// InputError with deal or data-parallel groups. Complexity: O(R T) for R replicas and T transfers, plus the allotment.
double multiport_latency(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping);

} // namespace pipesim

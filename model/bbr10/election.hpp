// What the bbr10 §6.1 elections share: the alive senders and remote receivers of each interval, the outgoing
// cost of a candidate sender (Algorithms 4-5), the election function type and the policies' names. The table of
// elections by name is above the heuristics, in model/bbr10/election_table.hpp.
#pragma once

#include "model/multiport_analytic.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pipesim {

/// The per-interval data every election reads, for one mapping and failure configuration (active replication,
/// one processor per replica; InputError otherwise, or when an interval has no alive replica).
/// - `alive[j]`: alive replicas of I_j in replica order (the candidates; bbr10's alloc(i) ∩ surviving);
/// - `receivers[j]`: who the sender of I_j sends delta_{e_j} to: the alive replicas of I_{j+1} that do not hold
///   I_j (bbr10 §5, Delta_{i+1,v}(1 - Delta_{i,v})), and P_out for the last interval. It does not depend on the
///   election. Empty: the output stays local whoever is elected (Algorithms 4-5's alloc(i) ∩ surviving =
///   alloc(i+1) ∩ surviving case, generalised to alloc(i+1) ∩ surviving ⊆ alloc(i)).
struct ElectionInstance {
  std::vector<std::vector<int>> alive;
  std::vector<std::vector<int>> receivers;
  std::vector<double> delta; // delta_{e_j}

  /// Complexity: O(sum_j R_j R_{j+1}) (R_j: replicas of I_j).
  ElectionInstance(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                   const FailureConfiguration& config);
  ElectionInstance() = default; // filled by hand for a partial mapping (mappers/bbr10/all_alive_period.cpp)
  int m() const { return static_cast<int>(alive.size()); }
};

/// Algorithms 4-5's choice: the outgoing time of u if it also sends the intervals in `set`, i.e.
///   max( sum_{k in set} |receivers_k| delta_k / Bout_u, max_v sum_{k in set, v in receivers_k} delta_k / b_{u,v} )
/// with the latencies of Algorithm 1 (a link pays c_{u,v} once, the card the largest c of its transfers).
/// Incremental: `add` elects u for interval j, `time_with` is the time if u were also elected for j.
/// Complexity: O(p nodes) to construct, O(|receivers_j|) per call.
class OutgoingLoads {
public:
  OutgoingLoads(const Platform& platform, const ElectionInstance& instance);
  double time_with(int u, int j) const;
  void add(int u, int j);

private:
  const Platform& platform_;
  const ElectionInstance& instance_;
  std::vector<double> card_bytes_;   // by processor
  std::vector<double> card_latency_; // by processor
  std::vector<double> link_bytes_;   // by (u, node v), u * nodes + v
};

/// Algorithms 4-5's loop: for each interval j of `order`, elect the alive replica u with the smallest
/// loads.time_with(u, j) (ties: the first in replica order), then loads.add(u, j). `election.sender` must have m
/// entries; the ones of `order` are overwritten. Complexity: O(sum_{j in order} R_j |receivers_j|).
void elect_smallest_outgoing_time(const ElectionInstance& instance, const std::vector<int>& order, OutgoingLoads& loads,
                                  Election& election);

/// Every election returns one alive sender per interval (Election::sender, indexed by interval).
using ElectionFunction =
    std::function<Election(const Pipeline&, const Platform&, const Mapping&, const FailureConfiguration&)>;

/// The elections by stable name (bbr10_election in election_table.hpp; a scenario's `simulation.failures.election`):
/// `first`, the simulator's default, is the same election as `first-alive` (the first alive replica of each interval in
/// the mapping's order; named apart so that outputs say which one was asked for), then §7.1's best of four, the
/// exhaustive search, and the §6.1 heuristics (`random` is seeded).
enum class ElectionPolicy { first, best, exhaustive, first_alive, max_bout, min_comm, min_nb_procs, random };
PIPESIM_ENUM_NAMES(ElectionPolicy, {first, "first"}, {best, "best"}, {exhaustive, "exhaustive"},
                   {first_alive, "first-alive"}, {max_bout, "max-bout"}, {min_comm, "min-comm"},
                   {min_nb_procs, "min-nb-procs"}, {random, "random"});

} // namespace pipesim

// Exact period of a deterministic execution as the maximum cycle ratio of its timed event graph (DESIGN.md §3.6).
//
// Source: beyond the seeds (Baccelli, Cohen, Olsder, Quadrat, "Synchronization and Linearity", for timed event graphs;
// Cochet-Terrasson et al. 1998 for Howard's policy iteration, as Boost.Graph implements it). With deal replication
// the execution is periodic over L = lcm of the dealt replica counts (DESIGN.md §3.7) and the graph is unrolled over
// L data sets (Benoit, Gallet, Gaujal, Robert, Algorithmica 2014: the period can then exceed every resource's
// cycle-time; event_graph_deal_test.cpp has such an instance).
// Accepts: the one-port model for any mapping (one-to-one, interval, general; active replication with a fixed
// election; deal), the multi-port `allotted` model in multiport_event_graph.hpp; no data-parallel groups.
// Complexity: building O(L (m + sum_j R_j) + L R_1^2) (sizes below); solving: see max_cycle_ratio.
// When it cannot do better: a cycle without tokens is reported as a deadlock, never as a number.
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// What a transition's duration is made of, so that it can be redrawn for every data set (DESIGN.md §3.10,
/// model/maxplus.hpp): duration = fixed + amount / rate, where the amount is the data set's work sum_{i=first..last}
/// w_i (flop; rate s_u) or its message size delta_first (bytes; rate b_{u,v}, or the allotted rate of the multi-port
/// model). `duration` is that for the means. A transition of kind `none` always lasts `duration`.
struct DurationCost {
  enum class Kind { none, work, size };
  Kind kind    = Kind::none;
  int first    = 0;
  int last     = 0;
  double fixed = 0;         // s: the latency c_{u,v} of a transfer
  double rate  = unbounded; // flop/s or bytes/s
  static DurationCost work(int first, int last, double speed)
  {
    return DurationCost{Kind::work, first, last, 0, speed};
  }
  static DurationCost size(int i, double latency, double rate) { return DurationCost{Kind::size, i, i, latency, rate}; }
};

/// Transitions are operations (a transfer occupies both of its ends, a computation its processor); places are
/// order constraints carrying 0 or more initial tokens. One "round" covers `datasets_per_round` data sets
/// (L = lcm of the deal replica counts; 1 otherwise): the period is the cycle ratio divided by L.
struct EventGraph {
  using Cost = DurationCost;
  struct Transition {
    std::string label;       // e.g. "T[P1->P2] S2", "C[P1] S1-2", with " k=3" (data set of the round) when L > 1
    double duration = 0;     // seconds
    int dataset     = 0;     // data set within the round (0..L-1)
    bool output     = false; // a delivery to P_out (its completion is an output time)
    Cost cost;
  };
  struct Place {
    int from   = 0;
    int to     = 0;
    int tokens = 0;
  };
  std::vector<Transition> transitions;
  std::vector<Place> places;
  int datasets_per_round = 1;

  int add_transition(std::string label, double duration, int dataset = 0, bool output = false, Cost cost = {});
  void add_place(int from, int to, int tokens);
};

/// The one-port execution of DESIGN.md §3.1 for any mapping without failures (one-to-one, interval, general,
/// active replication with replica 0 elected or `senders[j]` for I_j, deal replication), without data-parallel
/// groups (InputError). The processors run the programs of plan_oneport over a round of L = deal_round(mapping) data
/// sets: per data set k in increasing order and interval in stage order, only what the processor does for k. Places:
/// program order (0 tokens, 1 from the end of a round to its start); P_in offers data set k+1 to an actively
/// replicated I_1 once every replica has taken k (1 token from the last data set of a round to the first); a dealt
/// I_1 is fed replica by replica and P_out takes every delivery at once (no place).
///
/// Size: one transition per transfer and per computation of the round, one place per step of each program plus the
/// P_in places. For an interval mapping with m intervals, let P_j be the number of replicas of I_j that process a
/// data set (R_j when actively replicated, 1 when dealt); then
///   transitions = L (2 sum_j P_j + 1),
///   places      = L (3 sum_j P_j - P_1 + 1 + P_1^2)   (no P_1^2 when I_1 is dealt),
/// and a general mapping has at most as many (a processor holding consecutive intervals receives nothing). Every
/// stage set sits in one interval, so this is O(L (m + sum_j R_j)) with m <= n. L = 5,040 over four dealt intervals:
/// 45,360 transitions and 60,480 places (docs/event-graph.md).
EventGraph build_oneport_event_graph(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                     const std::vector<int>& senders = {});

struct CycleRatioResult {
  bool deadlock = false;           // a cycle with no token: the execution never starts
  double period = 0;               // max cycle ratio / datasets_per_round
  std::vector<int> critical_cycle; // transitions of a critical cycle (or of the token-free cycle)
  std::string describe(const EventGraph& graph) const;
};

/// Boost.Graph maximum_cycle_ratio (Howard) on a normalised graph with our own tolerance traits (1e-13 x the sum of
/// the normalised durations, at least 1e-12: below the rounding noise of its potentials Howard never stops before its
/// 100-round cap), then an exact check (no cycle with a larger ratio, by Bellman-Ford with a look for a cycle in its
/// predecessor graph after each pass) that repairs Boost's answer when its cap or tolerance stopped it early.
/// Token-free cycles are reported as deadlock. Complexity: Howard's rounds (9-14 on the L = 5,040 graphs) of O(V + E)
/// each, then O(E) per Bellman-Ford pass (a few when nothing is to repair). Measured: bench/event_graph.cpp.
CycleRatioResult max_cycle_ratio(const EventGraph& graph);

/// A cycle of places without a token (transitions in order), or empty when there is none. Complexity: O(V + E).
std::vector<int> token_free_cycle(const EventGraph& graph);

/// The transitions in an order in which every place without a token goes forward (a topological order of the
/// token-free places), or nullopt when they have a cycle (token_free_cycle names one). Complexity: O(V + E).
std::optional<std::vector<int>> token_free_order(const EventGraph& graph);

/// Earliest firing times of the first `rounds` rounds (max-plus recurrence; start times). Throws std::logic_error
/// on deadlock. Result[r][t] = start of transition t in round r.
std::vector<std::vector<double>> event_graph_schedule(const EventGraph& graph, int rounds);

/// Output times of the first N data sets at P_out, in data set order: data set k counts as output once 0..k have all
/// been delivered (DESIGN.md §3.7; with one sender per data set in order, its delivery time). Exact for a run of N
/// data sets: no operation of a later data set precedes one of an earlier data set.
std::vector<double> event_graph_output_times(const EventGraph& graph, int datasets);

} // namespace pipesim

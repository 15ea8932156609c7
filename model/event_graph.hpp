// Exact period of a deterministic execution as the maximum cycle ratio of its timed event graph (DESIGN.md §3.6).
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// Transitions are operations (a transfer occupies both of its ends, a computation its processor); places are
/// order constraints carrying 0 or more initial tokens. One "round" covers `datasets_per_round` data sets
/// (L = lcm of the deal replica counts; 1 otherwise): the period is the cycle ratio divided by L.
struct EventGraph {
  struct Transition {
    std::string label;       // e.g. "T[P1->P2] d=1 S2" or "C[P1] S1-2"
    double duration = 0;     // seconds
    int dataset     = 0;     // data set within the round (0..L-1)
    bool output     = false; // a delivery to P_out (its completion is an output time)
  };
  struct Place {
    int from   = 0;
    int to     = 0;
    int tokens = 0;
  };
  std::vector<Transition> transitions;
  std::vector<Place> places;
  int datasets_per_round = 1;

  int add_transition(std::string label, double duration, int dataset = 0, bool output = false);
  void add_place(int from, int to, int tokens);
};

/// The one-port execution of DESIGN.md §3.1 for any mapping without failures (one-to-one, interval, general,
/// active replication with replica 0 elected, or `senders[j]` for I_j: plan_oneport). Data-parallel groups and deal
/// replication are refused with an InputError until the simulator supports them.
EventGraph build_oneport_event_graph(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                     const std::vector<int>& senders = {});

struct CycleRatioResult {
  bool deadlock = false;           // a cycle with no token: the execution never starts
  double period = 0;               // max cycle ratio / datasets_per_round
  std::vector<int> critical_cycle; // transitions of a critical cycle (or of the token-free cycle)
  std::string describe(const EventGraph& graph) const;
};

/// Boost.Graph maximum_cycle_ratio (Howard) on a normalised graph with our own tolerance traits, then an exact
/// check (no cycle with a larger ratio, by Bellman-Ford on the potentials) that repairs Boost's answer when its
/// 100-round cap or tolerance stopped it early. Token-free cycles are reported as deadlock.
CycleRatioResult max_cycle_ratio(const EventGraph& graph);

/// Earliest firing times of the first `rounds` rounds (max-plus recurrence; start times). Throws std::logic_error
/// on deadlock. Result[r][t] = start of transition t in round r.
std::vector<std::vector<double>> event_graph_schedule(const EventGraph& graph, int rounds);

/// Completion times of the deliveries to P_out, in data set order, for N data sets.
std::vector<double> event_graph_output_times(const EventGraph& graph, int datasets);

} // namespace pipesim

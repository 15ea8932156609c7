// The exact period of an event graph whose operations take independent exponential times (DESIGN.md §3.10): the
// throughput of the continuous-time Markov chain of its markings, and the N.B.U.E. bracket it gives.
//
// Source: Benoit, Gallet, Gaujal, Robert, "Computing the throughput of probabilistic and replicated streaming
// applications", Algorithmica 69(4), 2014: §4 (exponential times: the throughput from the stationary distribution of
// the chain of reachable markings), §5 (N.B.U.E. times: the throughput lies between the exponential and the
// deterministic ones, i.e. deterministic period <= period <= exponential period).
// Accepts: every graph of model/event_graph.hpp and model/multiport_event_graph.hpp (strongly connected, live) up to
// `max_states` tangible markings; zero-time transitions fire at once. Returns no period, with the reason, beyond.
// Method: explore_markings (model/marking_chain.hpp), then Gauss-Seidel sweeps on the global balance equations
// pi_j q_j = sum_i pi_i q_ij over the states in breadth-first order, until the throughput of a timed transition moves
// by less than the tolerance, extrapolated over the remaining sweeps from the observed rate of convergence.
// Complexity: exploration O(S (T + P)); each sweep O(S + E) with E <= S T edges; the number of sweeps depends on the
// chain's mixing (measured: bench/exponential_period.cpp, docs/random-times.md).
#pragma once

#include "model/event_graph.hpp"
#include "model/variability.hpp"

#include <optional>
#include <string>

namespace pipesim {

struct ExponentialOptions {
  long long max_states = 2'000'000; // above: no period (memory ~ 100 bytes per state, time ~ 10 s per 10^6 states)
  double tolerance     = 1e-12;     // relative error aimed at on the throughput (so 1e-9 on the period with margin)
  int max_sweeps       = 200'000;
};

struct ExponentialPeriod {
  std::optional<double> period; // seconds per data set; empty: `reason` says why
  std::string reason;
  long long states = 0; // tangible reachable markings
  long long edges  = 0; // timed firings between them
  int sweeps       = 0; // Gauss-Seidel sweeps
  double spread    = 0; // largest relative difference between the throughputs of two timed transitions (0 exact)
  std::string to_string() const;
};

/// The period when every transition of duration d > 0 fires after an exponential time of mean d, independently
/// (transitions of duration 0 fire at once): 1 / (L X) for the throughput X of any transition (all are equal in a
/// strongly connected graph), L = graph.datasets_per_round. Without SimGrid, without draws.
ExponentialPeriod exponential_period(const EventGraph& graph, const ExponentialOptions& options = {});

/// Why the exponential chain is not exactly the execution under `variability`, or nothing when it is: every
/// transition of positive duration must be one exponential draw, independent of all others, i.e. a computation of
/// one stage of positive mean work with an exponential law, or a transfer without latency of an exponential size;
/// and no draw may feed two transitions (replicas of an actively replicated interval compute the same work, copies
/// of a message to several replicas have the same size). Zero-duration transitions are always fine.
std::optional<std::string> exponential_mismatch(const EventGraph& graph, const Variability& variability);

/// The N.B.U.E. bracket of Algorithmica 2014 §5 for the execution under `variability`.
struct NbueBracket {
  bool applies = false;        // every law is N.B.U.E. (then lower <= period <= upper)
  std::string reason;          // why it does not apply, or what it rests on
  double lower = 0;            // the deterministic period (the means)
  std::optional<double> upper; // the exponential period (empty when the chain is too large: see `reason`)
  bool independent = true;     // every draw feeds one transition, as the theorem assumes
  /// The interval [lo, hi] of an estimate is compatible: hi >= lower and, with an upper bound, lo <= upper.
  bool contains(double lo, double hi) const { return hi >= lower && (!upper || lo <= *upper); }
  std::string to_string() const;
};

/// lower = max_cycle_ratio(graph).period, upper = exponential_period(graph).period, applies when every law of
/// `variability` is N.B.U.E. (UnitLaw::nbue; says which is not). The lower bound holds for any law (the max-plus
/// recurrence is convex in the durations: Baccelli et al. 1992, §8); the upper one needs N.B.U.E. durations: a
/// transition's duration c + X / rate or sum of works is N.B.U.E. when its draws are (N.B.U.E. is closed under
/// convolution and holds for constants). `independent` is false when a draw feeds several transitions (active
/// replication): the theorem assumes independent firing times; the bound is then stated without proof.
NbueBracket nbue_bracket(const EventGraph& graph, const Variability& variability,
                         const ExponentialOptions& options = {});
/// The same from periods already computed: `lower` the deterministic period, `exponential` exponential_period(graph).
NbueBracket nbue_bracket(const EventGraph& graph, const Variability& variability, double lower,
                         const ExponentialPeriod& exponential);

} // namespace pipesim

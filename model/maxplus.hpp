// The event graph executed with random operation times (DESIGN.md §3.10): the max-plus recurrence over data sets,
// every output time at P_out, and the period with its confidence interval. No SimGrid: the oracle of the simulator
// under random times, and the analytic `maxplus_period`.
//
// Source: Baccelli, Cohen, Olsder, Quadrat, "Synchronization and Linearity" (1992), ch. 7: a stochastic event graph's
// firing times follow x_t(r) = max over places (s -> t, m tokens) of x_s(r - m) + d_s(r - m), its period is the limit
// of x(r) / r. The durations d_s(r) are those of the event graph's Cost (model/event_graph.hpp) with the values of the
// data set r L + dataset(s) (model/variability.hpp): the values the simulator draws, so in the exact network mode the
// output times are the simulated ones.
// Accepts: every graph of build_oneport_event_graph and build_multiport_event_graph (one-port, multi-port allotted,
// deal, latencies, active replication). InputError on a token-free cycle (deadlock).
// Complexity: O(V + E) per round of L data sets plus the draws (2n + 1 per data set, one stream each); memory
// O((max tokens + 1) V) plus the output times. Measured: bench/maxplus.cpp, docs/random-times.md.
#pragma once

#include "base/period_estimate.hpp"
#include "model/event_graph.hpp"
#include "model/variability.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// A deterministic execution whose state repeats: from round `round` on, every transition fires `shift` seconds
/// later `cyclicity` rounds later. Its period is shift / (cyclicity L), exactly.
struct StatePeriodicity {
  long long round = 0;
  int cyclicity   = 0;
  double shift    = 0;
};

/// The recurrence, round after round; the graph and the variability must outlive it.
class MaxPlusRun {
public:
  /// With `watch` > 0 and deterministic laws, the run also looks for a periodic state with a cyclicity of up to
  /// `watch` rounds (it keeps that many rounds of firing times): x(r) = x(r - c) + D for every transition, within 64
  /// ulps, over as many consecutive rounds as the largest token count of a place (the rounds the next one reads),
  /// which proves that every later round repeats too (Baccelli et al. 1992, §3.7: a deterministic event graph is
  /// eventually periodic). Not looked for under random laws.
  MaxPlusRun(const EventGraph& graph, const Variability& variability, int watch = 0);

  /// Runs rounds until the output times of data sets 0..datasets-1 are known (in data set order: data set k counts
  /// as output once 0..k all reached P_out, DESIGN.md §3.7).
  void run_until(long long datasets);
  /// The output times known so far (whole rounds: a multiple of L).
  const std::vector<double>& output_times() const { return out_; }
  long long rounds() const { return round_; }
  /// Runs until the state is periodic (with `watch`) or `max_datasets` outputs are known; the periodicity if found.
  std::optional<StatePeriodicity> run_until_periodic(long long max_datasets);
  const std::optional<StatePeriodicity>& periodicity() const { return periodicity_; }

private:
  struct Step { // one transition, in topological order of the token-free places
    int transition = 0;
    int in_begin   = 0; // into inputs_
    int in_end     = 0;
    int output     = -1;    // a delivery: its data set of the round
    bool random    = false; // its duration depends on the draws
    double fixed   = 0;     // its duration otherwise
  };
  struct Input {
    int from   = 0;
    int tokens = 0;
  };
  void draw_round();
  double random_duration(int transition) const;
  void run_round();
  void watch_round();

  const EventGraph& graph_;
  const Variability& variability_;
  std::vector<Step> order_;
  std::vector<Input> inputs_;
  std::vector<long long> row_of_; // this round: the offset in end_ of the round `tokens` back, -1 before round 0
  bool any_random_ = false;
  int tokens_      = 0; // largest token count of a place
  int depth_       = 1; // rounds kept: max tokens + 1, at least watch + 1
  int watch_       = 0;
  int streak_      = 0; // consecutive rounds repeating round - cyclicity
  StatePeriodicity candidate_;
  std::optional<StatePeriodicity> periodicity_;
  std::vector<double> end_;  // completion times, depth_ rows of V (row r % depth_)
  std::vector<double> work_; // this round: w_i(k) at [d (n + 1) + i], delta_i(k) at [L (n + 1) + d (n + 1) + i]
  long long round_ = 0;
  std::vector<double> out_;
  std::vector<double> pending_; // this round's deliveries, per data set of the round
};

/// The first `datasets` output times (whole rounds are run, the surplus dropped).
std::vector<double> maxplus_output_times(const EventGraph& graph, const Variability& variability, long long datasets);

struct MaxPlusOptions {
  long long datasets     = 10'000;     // N (the first run with `precision`)
  double precision       = 0;          // > 0: run on, doubling N, until the relative half-width is at most this
  long long max_datasets = 10'000'000; // with precision: stop there
  PeriodEstimateOptions estimate;      // its window and deterministic flag are set from the graph and variability
  /// Of an estimate over n outputs, how many of the last ones it leaves out: the simulation's cool-down (a multi-port
  /// run drains once P_in has fed its last data set), so that the oracle estimates on the simulation's window and the
  /// two periods agree, not only the output times. Empty: none. As the simulation, not applied when a `precision` run
  /// stopped before max_datasets (such a run never drains).
  std::function<long long(long long n)> cooldown;
};

struct MaxPlusPeriod {
  PeriodEstimate estimate; // period, interval, warm-up, batches (periodic when deterministic)
  long long datasets = 0;  // output times used
  std::vector<double> output_times;
  std::string to_string() const { return estimate.to_string(); }
};

/// `maxplus_period`: the recurrence run over N data sets and estimate_period on its output times (window L). With
/// `precision`, N doubles until the interval is narrow enough or max_datasets is reached (then `estimate.reason` says
/// so). When every law is constant the run instead goes on until its state is periodic (MaxPlusRun with a watch of
/// 64 rounds; at least N data sets, at most max_datasets): the exact period with an interval of width 0, or not ok
/// when no period shows within max_datasets.
MaxPlusPeriod maxplus_period(const EventGraph& graph, const Variability& variability,
                             const MaxPlusOptions& options = {});

} // namespace pipesim

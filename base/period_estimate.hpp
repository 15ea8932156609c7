// The period of a stream and its confidence interval from the output times of a run (DESIGN.md §3.9, §3.10): warm-up
// detected by MSER-5, then batch means; a deterministic run that became periodic gets its exact period.
//
// Sources: White, "An effective truncation heuristic for bias reduction in simulation output", Simulation 69(6),
// 1997 and White, Cobb, Spratt, WSC 2000 (MSER-5: truncate the d batches of 5 that minimise the variance of the mean
// of what is left, d <= half the batches); batch means with a fixed number of batches and Student's t (Law, "Simulation
// Modeling and Analysis", §9.5.3). Used by the max-plus oracle (model/maxplus.hpp) and by the simulator for
// `simulation.precision`. No SimGrid, no pipeline: a function of numbers.
#pragma once

#include <span>
#include <string>

namespace pipesim {

struct PeriodEstimateOptions {
  double confidence  = 0.95;  // of the interval, in (0, 1)
  int batches        = 20;    // batch means after the warm-up, >= 2
  int window         = 1;     // L: the run is measured in whole windows of L data sets (deal replication, §3.7)
  bool deterministic = false; // the operation times are fixed: look for periodic output times first
};

/// What a run's output times say about the period.
struct PeriodEstimate {
  bool ok = false;    // false: `reason` says why there is no interval (the other fields hold what was found)
  std::string reason; // why not ok, or how the interval was obtained ("periodic: ...", "batch means: ...")
  double period            = 0;
  double ci_lo             = 0;
  double ci_hi             = 0;
  double confidence        = 0;
  long long datasets       = 0;     // output times given
  long long warmup         = 0;     // data sets left out at the start (a multiple of the window), detected
  int batches              = 0;     // batch means used (0 when periodic)
  long long batch_datasets = 0;     // data sets per batch
  bool periodic            = false; // exactly periodic output times: the interval has width 0
  long long cyclicity      = 0;     // periodic: c, with t_{k+c} - t_k the same for every k >= warmup

  double half_width() const { return 0.5 * (ci_hi - ci_lo); }
  /// Half-width over the period (the stopping rule of `simulation.precision`); 0 when periodic.
  double relative_half_width() const;
  /// "12.3456 [12.30, 12.39] (95 %, 20 batches of 450 data sets after a warm-up of 1000)".
  std::string to_string() const;
};

/// Data sets are numbered from 0; t[0] is the reference (the period needs two outputs). With window L, the run is
/// cut into J = (N - 1) / L windows, window j holding the outputs (jL, (j+1)L]; its value is its mean gap.
///
/// 1. `deterministic`: the output times are periodic when, for the smallest cyclicity c (a multiple of L, at most a
///    sixth of the run) that fits, t_{k+c} - t_k = D for every k in the second half of the run (to 1e-9 D plus the
///    rounding of the times, 64 ulps of t_{N-1}), which spans at least 3 cycles. The warm-up is the first k from
///    which that holds. Then period = D / c with a width-0 interval, and `reason` says so. The rule sees output
///    times only: a deterministic run whose state is not yet periodic (two dealt replicas drifting slowly apart, see
///    docs/event-graph.md "Transients") can show periodic outputs over a whole run; its limit may differ.
/// 2. Otherwise MSER-5 on the windows: batches of 5 windows, truncation d* in [0, m/2] minimising
///    sum_{b >= d} (z_b - mean_d)^2 / (m - d)^2; warm-up = 5 d* windows. If d* = m/2 (at its cap) the warm-up may not
///    be over: not ok, run longer. The windows left (their first few dropped so that batches end at the last output)
///    form `batches` batches; period = (t_end - t_start) / (data sets), interval period -/+ t_{B-1} s / sqrt(B).
///    A deterministic run that is not periodic gets the batch means but is not ok: equal batch means of a transient
///    (a dealt replica drifting inside every window) give a width of 0 and a wrong limit.
/// Not ok (with the reason) when fewer than 10 windows or fewer windows than batches remain, or for bad options.
/// O(N) time (periodicity: O(N) per candidate cyclicity, most rejected at their first comparison).
PeriodEstimate estimate_period(std::span<const double> output_times, const PeriodEstimateOptions& options = {});

} // namespace pipesim

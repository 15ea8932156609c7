// Windowed throughput of a run (DESIGN.md §3.11): the period measured over successive windows of W data sets, to
// compare with the analytic period of each epoch of a time-varying platform.
#pragma once

#include <vector>

namespace pipesim {

/// W output intervals: from the output of data set `from` to that of data set `to` = from + W (data sets numbered
/// from 1, as t_1..t_N), over [start, end]; period = (end - start) / W.
struct ThroughputWindow {
  int from      = 0;
  int to        = 0;
  double start  = 0;
  double end    = 0;
  double period = 0;
};

/// The windows of `window` data sets over the outputs t_1..t_N: window i runs from t_{iW+1} to t_{(i+1)W+1}, as long
/// as that output exists (floor((N - 1) / W) windows). Windows of data sets rather than of time: in the steady state
/// of an epoch a window of a multiple of the execution's cyclicity (L data sets with deal) is exactly W periods,
/// whatever the phase of its first output.
std::vector<ThroughputWindow> throughput_series(const std::vector<double>& output_times, int window);

/// The window used when the scenario gives none: about N / 20 data sets, a multiple of the deal round L (at least L).
int default_throughput_window(int datasets, int round);

} // namespace pipesim

// The simulated windowed throughput against the analytic series of a time-varying platform (DESIGN.md §3.11): per
// epoch, how many data sets the transient after the change lasts and how close the steady windows come.
#pragma once

#include "model/analytic_series.hpp"
#include "simulator/throughput_series.hpp"

#include <optional>
#include <vector>

namespace pipesim {

/// Relative difference under which a window's period matches its epoch's analytic period.
inline constexpr double series_match_tolerance = 1e-6;

/// One epoch of the series against the windows that lie in it (start >= epoch start, end <= epoch end).
struct EpochComparison {
  int windows = 0;              // windows in the epoch
  std::optional<int> transient; // data sets output from the epoch's start until the first matching window opens
                                // (for the first epoch: the filling of the pipeline); nullopt when none matches
  int steady       = 0;         // windows from the first matching one on
  int mismatched   = 0;         // steady windows off by more than the tolerance
  double max_error = 0;         // largest relative difference over the steady windows
};

/// One comparison per epoch of `series`. An epoch of infinite period (a processor of the mapping off, a pair without
/// route) matches no window.
std::vector<EpochComparison> compare_series(const std::vector<Epoch>& series,
                                            const std::vector<ThroughputWindow>& windows,
                                            const std::vector<double>& output_times,
                                            double tolerance = series_match_tolerance);

} // namespace pipesim

// The HTML report of a campaign's output directory: summary table and gnuplot SVG plots (DESIGN.md §7).
#pragma once

#include <string>

namespace pipesim {

struct ReportOptions {
  /// The swept key on the x axis of the per-mapper curves; empty: the numeric swept key with the most values
  /// (choose_x_key). Every other swept key but the seed splits the curves (report_means.hpp).
  std::string x_key;
  /// The gnuplot executable (a name searched in PATH, or a path).
  std::string gnuplot = "gnuplot";
  /// How many periods of the traced run the Gantt chart shows, starting with the data set in the middle of the run.
  int gantt_periods = 4;
  /// A `pipesim simulate --format json` document whose throughput over time the re-mapping section plots (empty:
  /// none).
  std::string series_file;
};

/// Reads DIR/campaign.json, DIR/results.jsonl and the first DIR/trace-<run_id>.json if any, and writes
/// DIR/report.html with, next to it, one `name.svg`, `name.gp` and `name.dat` per plot:
/// - period_scatter: simulated period against the analytic and the event-graph periods, with y = x (simulate mode);
/// - error_histogram: log10 of the relative errors per decade, errors of 0 in the bin "exact" (simulate mode);
/// - mean_period: per mapper, the mean period over seeds against the x key (and the table of means in the HTML);
/// - survival: Monte Carlo survival rate against 1 - F with Wilson intervals (rows with survival_rate);
/// - gantt: receive / compute / send bars per processor over a few periods of the traced run;
/// - throughput_series: the throughput over time of options.series_file (report_dynamic.hpp), with the re-mapping
///   table (rows with datasets_by_horizon: DIR/dynamic-table.md too).
/// Elections campaigns also get bbr10 Table 1 (write_elections_table: DIR/elections-table.{csv,md}).
/// Only ok rows are plotted; the others are counted and listed. A missing or malformed input file is an InputError
/// naming it; a missing gnuplot is a std::runtime_error "gnuplot not found: install gnuplot-nox (scripts/setup.sh)".
void write_report(const std::string& dir, const ReportOptions& options = {});

} // namespace pipesim

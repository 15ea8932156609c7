// A campaign's output directory read back for the report: campaign.json, results.jsonl, trace-<run_id>.json.
#pragma once

#include "model/operation.hpp"
#include "simulator/simulation.hpp"
#include "validation/run_status.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// One line of results.jsonl: the fields the report uses; absent and null numbers are empty optionals.
struct ResultRow {
  int line   = 0;
  int run_id = 0;
  std::string mapper;
  std::string status;
  std::string error;
  std::optional<int> p; // the platform's processor count
  nlohmann::json params = nlohmann::json::object();
  std::optional<double> analytic_period;
  std::optional<double> simulated_period;
  std::optional<double> event_graph_period;
  std::optional<double> hedpm_period; // hedpm eqs. (1)-(2), one-port interval mappings
  std::optional<double> rel_error_period;
  std::optional<double> rel_error_event_graph;
  std::optional<double> failure_probability;
  std::optional<double> survival_rate;
  std::optional<double> survival_ci_low;
  std::optional<double> survival_ci_high;
  std::string verdict;     // the simulation's verdict when it has one (a link failure, crash runs): "failed", ...
  std::string period_test; // bbr10 reliability heuristics: the P_max test they applied (empty for others)
  std::optional<double> period_bound;      // P_max of a min-F scenario
  std::optional<double> worst_case_period; // bbr10 §4, multi-port mappings with active replication
  std::optional<double> worst_case_bound;  // bbr10 reliability heuristics: what their worst-case test compares
  /// The Monte Carlo series against P_max (validation/period_after_crashes.hpp), when the row has one.
  std::optional<int> after_crash_measured;
  int after_crash_over_bound     = 0;
  double after_crash_max_ratio   = 0;
  int one_left_runs              = 0;
  int one_left_over_bound        = 0;
  int after_crash_sim_over_bound = 0; // the same counted on the simulated periods (transient included)

  /// The status as RunStatus (empty when the file holds another text).
  std::optional<RunStatus> run_status() const { return from_string<RunStatus>(status); }
  bool ok() const { return run_status() == RunStatus::ok; }
  /// An ok row whose fault-free simulation failed (a `fail_link` edit stopped it: verdict failed, no simulated
  /// period, campaign_row.cpp). Rows with crash runs also have a verdict, but keep their simulated period.
  bool simulation_failed() const
  {
    return ok() && !simulated_period && from_string<Verdict>(verdict) == Verdict::failed;
  }
};

struct CampaignResults {
  std::string dir;
  std::string name;
  std::string mode; // as written in campaign.json
  std::string file;
  std::string command;
  std::vector<std::string> swept;
  long total = 0;
  std::vector<ResultRow> rows;
};

/// Reads DIR/campaign.json and DIR/results.jsonl. A missing or malformed file is an InputError naming the file (and
/// the line of results.jsonl).
CampaignResults load_campaign_results(const std::string& dir);

/// The x axis key: `requested` when set (an InputError unless it is a swept key with numeric values), else, among the
/// swept keys other than "seed" and "mapper" whose values are all numbers (see param_number), the one with the most
/// distinct values (the first in swept order on ties); empty when none is.
std::string choose_x_key(const CampaignResults& results, const std::string& requested);

/// The value of params[key] of a row when it is a number or a string holding one ("10", "0.5"): the runner writes
/// swept YAML scalars as strings.
std::optional<double> param_number(const ResultRow& row, const std::string& key);

/// Sums of the analytic and simulated periods of ok rows, for their means.
struct PeriodSums {
  int runs       = 0;
  int n_analytic = 0, n_simulated = 0;
  double analytic = 0, simulated = 0;
  void add(const ResultRow& row);
  std::optional<double> mean_analytic() const;
  std::optional<double> mean_simulated() const;
};

/// The relative error |simulated - analytic| / analytic of an ok row: rel_error_period, else computed from the two
/// periods; empty when the row has no simulated period.
std::optional<double> period_error(const ResultRow& row);

/// Maximum and median of a sample (empty sample: empty optionals).
struct SampleSummary {
  std::optional<double> max;
  std::optional<double> median;
};
SampleSummary summarize(std::vector<double> values);

/// A histogram of log10 relative errors: bin "exact" for errors of 0, then one bin per decade [10^k, 10^(k+1)).
struct ErrorHistogram {
  std::vector<std::string> labels;
  std::vector<std::vector<int>> counts; // counts[series][bin]
};
ErrorHistogram error_histogram(const std::vector<std::vector<double>>& series);

/// The status counts of all rows, ordered by status name.
std::map<std::string, int> status_counts(const CampaignResults& results);

/// One simulated run's event trace (DIR/trace-<run_id>.json).
struct TraceBar {
  std::string host;
  Operation kind = Operation::compute;
  int dataset    = 0;
  double start   = 0;
  double end     = 0;
};
struct RunTrace {
  std::string file;
  int run_id = 0;
  std::string mapping;
  double period = 0;
  std::vector<TraceBar> bars;
};

/// The trace file with the smallest run id in `dir`, if any.
std::optional<std::string> find_trace_file(const std::string& dir);

/// Reads a trace file; a malformed file is an InputError naming it.
RunTrace load_trace(const std::string& path);

} // namespace pipesim

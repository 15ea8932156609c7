// A campaign's output directory read back for the report: campaign.json, results.jsonl, trace-<run_id>.json.
#pragma once

#include "model/operation.hpp"
#include "simulator/simulation.hpp"
#include "validation/campaigns/campaign_row.hpp"
#include "validation/campaigns/run_status.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

struct CampaignResults {
  std::string dir;
  std::string name;
  std::string mode; // as written in campaign.json
  std::string file;
  std::string command;
  std::vector<std::string> swept;
  long total = 0;
  std::vector<CampaignRow> rows;
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
std::optional<double> param_number(const CampaignRow& row, const std::string& key);

/// Sums of the analytic and simulated periods of ok rows, for their means.
struct PeriodSums {
  int runs       = 0;
  int n_analytic = 0, n_simulated = 0;
  double analytic = 0, simulated = 0;
  void add(const CampaignRow& row);
  std::optional<double> mean_analytic() const;
  std::optional<double> mean_simulated() const;
};

/// The relative error |simulated - analytic| / analytic of an ok row: rel_error_period, else computed from the two
/// periods; empty when the row has no simulated period.
std::optional<double> period_error(const CampaignRow& row);

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

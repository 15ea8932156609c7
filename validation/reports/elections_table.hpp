// bbr10 Table 1 from the rows of an elections campaign: per p and per heuristic, the maximum, average and
// standard deviation of the relative deviation from the MILP's period, and the best rate.
#pragma once

#include "validation/campaigns/campaign_row.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// A heuristic "reaches" the MILP when its relative deviation is at most this (the periods are Algorithm 1's on
/// both elections, so equal elections give equal periods; the tolerance absorbs sums taken in another order).
inline constexpr double best_tolerance = 1e-9;

/// (P_heur - P_milp) / P_milp.
double relative_deviation(double heuristic_period, double milp_period);

/// Table 1's columns for one heuristic over a set of instances.
struct DeviationSummary {
  int instances    = 0;
  double max       = 0;
  double mean      = 0;
  double sd        = 0; // population standard deviation (divides by the number of instances)
  double best_rate = 0; // fraction of the instances with deviation <= best_tolerance
  int below        = 0; // instances with deviation < -best_tolerance (a heuristic below a proven optimum: a bug)
};

/// The summary of a set of deviations; all zero for an empty set.
DeviationSummary summarize_deviations(const std::vector<double>& deviations);

struct ElectionsTableRow {
  int p = 0;
  std::string heuristic; // a table1_heuristics() name, "best" (the smallest of the four, §7.1) or "milp"
  DeviationSummary stats;
};

struct ElectionsTable {
  std::vector<ElectionsTableRow> rows; // by increasing p, then random, max-bout, min-comm, min-nb-procs, best, milp
  std::vector<int> excluded_runs;      // rows not ok or whose MILP is not proven optimal (run ids)
};

/// Groups the ok rows whose milp_status is "optimal" by p and summarises each heuristic's deviation from
/// period_milp. The other rows are listed in excluded_runs.
ElectionsTable elections_table(const std::vector<CampaignRow>& rows);

/// CSV columns: p, instances, heuristic, max, average, sd, best_rate, below_milp.
std::vector<std::string> elections_table_columns();
std::string elections_table_csv(const ElectionsTable& table);
/// The table in Table 1's layout (Markdown), with the excluded runs under it.
std::string elections_table_markdown(const ElectionsTable& table);

/// Reads DIR/results.jsonl and writes DIR/elections-table.csv and DIR/elections-table.md; returns the table.
ElectionsTable write_elections_table(const std::string& dir);

} // namespace pipesim

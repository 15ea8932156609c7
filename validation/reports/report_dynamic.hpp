// The report's section on re-mapping during the run (issue 34 item 5, docs/dynamic.md "The experiment"): per
// configuration and policy the data sets output by the horizon relative to the clairvoyant and the static-best runs
// of the same instance, re-maps per load change and downtime; and the throughput-over-time plot of one simulated run.
#pragma once

#include "validation/reports/gnuplot.hpp"
#include "validation/reports/report_data.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// One line of the table: the ok rows with datasets_by_horizon of one configuration (the swept values but the
/// policy's and the seeds'), policy (the swept `dynamic` values, or the policy column) and re-mapping mapper.
/// A row's *instance* is its seed and every swept value but the policy's: its clairvoyant (static) twin is the row
/// of the same instance whose policy column is clairvoyant (static). Ratios are the row's datasets_by_horizon over
/// its twin's; re-maps per load change is the sum of remaps over the sum of load_changes; the mean downtime is the
/// sum of the rows' downtime over the sum of their remaps. `saturated` counts rows whose makespan ends before the
/// horizon (all N data sets out: their count is a lower bound of what they would have output by H).
struct DynamicCell {
  std::string configuration;
  std::string policy;
  std::string mapper;
  int runs                = 0;
  int vs_clairvoyant_runs = 0, vs_static_runs = 0; // rows that have the twin
  std::optional<double> vs_clairvoyant_mean, vs_clairvoyant_min, vs_static_mean, vs_static_min;
  int remaps = 0, load_changes = 0;
  double downtime = 0;
  int saturated   = 0;
  std::optional<double> remaps_per_change() const;
  std::optional<double> mean_downtime() const;
};

/// The cells of a campaign's rows, in order of first appearance; empty when no row has datasets_by_horizon.
/// Complexity: O(rows log rows).
std::vector<DynamicCell> dynamic_cells(const CampaignResults& results);
/// The table in Markdown (ratios with 3 decimals, `-` without a figure).
std::string dynamic_table_markdown(const std::vector<DynamicCell>& cells);

/// The throughput over time of one `pipesim simulate --format json` document (`simulated.throughput_series`): the
/// windows' throughput (W / their duration) as steps, the analytic series (1 / period of each epoch, of the running
/// mapping after a re-map) as dashed steps and each re-map's decision date (`dynamic.remaps`) as a dotted vertical
/// line. Empty when the document has no throughput series. `source` names the document in the plot's title.
std::optional<GnuplotPlot> throughput_plot(const nlohmann::json& simulated, const std::string& source);

} // namespace pipesim

// The report's what-if chart: mean periods per list of platform edits and mapper, failed runs labelled.
#include "validation/reports/report_edits_plot.hpp"

#include "scenarios/campaign.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace pipesim {

namespace {
const std::string edits_key = "platform.edits";

/// The runs behind one bar: the sum of their figures and why the others have none.
struct EditsBarTally {
  double sum  = 0;
  int figures = 0;
  int runs    = 0;
  std::vector<std::string> reasons; // in order of first appearance

  void add(std::optional<double> figure, const std::string& reason)
  {
    runs++;
    if (figure && std::isfinite(*figure)) {
      sum += *figure;
      figures++;
    } else if (std::find(reasons.begin(), reasons.end(), reason) == reasons.end()) {
      reasons.push_back(reason);
    }
  }

  BarCell cell() const
  {
    if (runs == 0) return {std::nullopt, "-"};
    std::optional<double> mean = figures > 0 ? std::optional<double>(sum / figures) : std::nullopt;
    if (figures == runs) return {mean, "ok"};
    std::string reason = fmt::format("{}", fmt::join(reasons, ","));
    if (figures == 0) return {std::nullopt, reason};
    return {mean, fmt::format("{} {} of {}", reason, runs - figures, runs)};
  }
};

std::string edits_of(const CampaignRow& row)
{
  auto it = row.params.find(edits_key);
  return it != row.params.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string mapper_of(const CampaignRow& row) { return row.mapper.empty() ? "?" : row.mapper; }

/// Why a row has no figure: its status when it is not ok, `failed` when its simulation failed, else `n/a`.
std::string missing_reason(const CampaignRow& row)
{
  if (!row.ok()) return std::string(to_string(row.status));
  return row.simulation_failed() ? "failed" : "n/a";
}

template <typename Key>
std::vector<std::string> in_order_of_appearance(const CampaignResults& results, Key key)
{
  std::vector<std::string> values;
  for (const auto& row : results.rows)
    if (std::find(values.begin(), values.end(), key(row)) == values.end()) values.push_back(key(row));
  return values;
}

/// One group per edit list with two cells (analytic, simulated) per mapper.
std::vector<BarGroup> edits_groups(const CampaignResults& results, const std::vector<std::string>& labels,
                                   const std::vector<std::string>& mappers, bool simulated)
{
  std::vector<BarGroup> groups;
  for (const auto& label : labels) {
    BarGroup group{label == "[]" || label.empty() ? "no edit" : label, {}};
    for (const auto& mapper : mappers) {
      EditsBarTally analytic, simulation;
      for (const auto& row : results.rows) {
        if (edits_of(row) != label || mapper_of(row) != mapper) continue;
        analytic.add(row.ok() ? row.analytic_period.optional() : std::nullopt, missing_reason(row));
        if (simulated) simulation.add(row.ok() ? row.simulated_period.optional() : std::nullopt, missing_reason(row));
      }
      group.cells.push_back(analytic.cell());
      group.cells.push_back(simulation.cell());
    }
    groups.push_back(std::move(group));
  }
  return groups;
}
} // namespace

std::optional<GnuplotPlot> edits_bar_plot(const CampaignResults& results)
{
  if (std::find(results.swept.begin(), results.swept.end(), edits_key) == results.swept.end()) return std::nullopt;
  std::vector<std::string> labels  = in_order_of_appearance(results, edits_of);
  std::vector<std::string> mappers = in_order_of_appearance(results, mapper_of);
  if (labels.empty()) return std::nullopt;
  bool simulated = from_string<CampaignMode>(results.mode) == CampaignMode::simulate;
  for (const auto& row : results.rows)
    simulated = simulated || row.simulated_period || row.simulation_failed();
  std::vector<BarGroup> groups = edits_groups(results, labels, mappers, simulated);
  std::vector<BarSeries> series;
  for (std::size_t i = 0; i < mappers.size(); ++i) {
    series.push_back({2 * i, mappers[i] + " (analytic)"});
    if (simulated) series.push_back({2 * i + 1, mappers[i] + " (simulated)"});
  }
  GnuplotPlot plot{"edits_period", "", ""};
  plot.data = "# edits_period.dat: mean period (s) over the runs of each list of platform edits and mapper\n"
              "# edits, then per mapper the value and status of: analytic, simulated\n"
              "# value ? = no figure; status ok, the reasons of the runs without figure (failed: the simulated run "
              "failed; error, timeout, crashed, infeasible: the run's status; n/a), with \"k of n\" when only some "
              "runs have none, or - (not simulated)\n" +
              bar_chart_rows(groups);
  plot.commands = "set key outside right top box\nset grid y\nset ylabel 'mean period over the runs (s)'\n"
                  "set yrange [0:*]\nset xtics rotate by -15\n" +
                  bar_chart_plot("edits_period.dat", groups, series);
  // wider with more bars, higher with longer tic labels (rotated by -15 degrees: 2 pixels down per character)
  std::size_t longest = 0;
  for (const auto& group : groups)
    longest = std::max(longest, group.label.size());
  plot.width  = std::clamp(300 + 40 * static_cast<int>(groups.size() * series.size()), plot.width, 1600);
  plot.height = std::clamp(400 + 2 * static_cast<int>(longest), plot.height, 900);
  return plot;
}

} // namespace pipesim

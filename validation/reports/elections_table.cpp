// Table 1's statistics and their CSV and Markdown forms.
#include "validation/reports/elections_table.hpp"

#include "base/table.hpp"

#include "validation/campaigns/elections_run.hpp"
#include "validation/campaigns/result_files.hpp"
#include "validation/campaigns/run_status.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>

namespace pipesim {

double relative_deviation(double heuristic_period, double milp_period)
{
  return (heuristic_period - milp_period) / milp_period;
}

DeviationSummary summarize_deviations(const std::vector<double>& deviations)
{
  DeviationSummary s;
  s.instances = static_cast<int>(deviations.size());
  if (deviations.empty()) return s;
  double sum = 0;
  int best   = 0;
  s.max      = deviations.front();
  for (double d : deviations) {
    s.max = std::max(s.max, d);
    sum += d;
    best += d <= best_tolerance ? 1 : 0;
    s.below += d < -best_tolerance ? 1 : 0;
  }
  s.mean         = sum / s.instances;
  double squares = 0;
  for (double d : deviations)
    squares += (d - s.mean) * (d - s.mean);
  s.sd        = std::sqrt(squares / s.instances);
  s.best_rate = static_cast<double>(best) / s.instances;
  return s;
}

ElectionsTable elections_table(const std::vector<CampaignRow>& rows)
{
  std::vector<std::string> names;
  for (ElectionPolicy policy : table1_heuristics())
    names.emplace_back(to_string(policy));
  names.emplace_back(to_string(ElectionPolicy::best));
  names.emplace_back("milp");
  std::map<int, std::vector<std::vector<double>>> deviations; // p -> heuristic -> deviations
  ElectionsTable table;
  for (const auto& row : rows) {
    bool usable = row.ok() && from_string<SolveStatus>(row.milp_status) == SolveStatus::optimal && row.period_milp &&
                  row.p &&
                  std::all_of(row.election_periods.begin(), row.election_periods.end(),
                              [](const RowNumber& period) { return period.has_value(); });
    if (!usable) {
      table.excluded_runs.push_back(row.run_id);
      continue;
    }
    double milp = *row.period_milp;
    auto& per_p = deviations[*row.p];
    per_p.resize(names.size());
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t h = 0; h + 2 < names.size(); ++h) {
      double period = *row.election_periods.at(h);
      best          = std::min(best, period);
      per_p[h].push_back(relative_deviation(period, milp));
    }
    per_p[names.size() - 2].push_back(relative_deviation(best, milp));
    per_p[names.size() - 1].push_back(0.0);
  }
  for (const auto& [p, per_heuristic] : deviations)
    for (std::size_t h = 0; h < names.size(); ++h)
      table.rows.push_back({p, names[h], summarize_deviations(per_heuristic[h])});
  return table;
}

std::vector<std::string> elections_table_columns()
{
  return {"p", "instances", "heuristic", "max", "average", "sd", "best_rate", "below_milp"};
}

std::string elections_table_csv(const ElectionsTable& table)
{
  Table t;
  for (const auto& name : elections_table_columns())
    t.add_column(name);
  for (const auto& r : table.rows)
    t.add_row({std::to_string(r.p), std::to_string(r.stats.instances), r.heuristic, format_number(r.stats.max, ".17g"),
               format_number(r.stats.mean, ".17g"), format_number(r.stats.sd, ".17g"),
               format_number(r.stats.best_rate, ".17g"), std::to_string(r.stats.below)});
  return t.csv();
}

std::string elections_table_markdown(const ElectionsTable& table)
{
  Table t;
  for (const char* name : {"p", "instances", "heuristic", "max", "av.", "stdv.", "best rate", "below MILP"})
    t.add_column(name);
  for (const auto& r : table.rows)
    t.add_row({std::to_string(r.p), std::to_string(r.stats.instances), r.heuristic, format_number(r.stats.max, ".3f"),
               format_number(r.stats.mean, ".3f"), format_number(r.stats.sd, ".3f"),
               format_number(100 * r.stats.best_rate, ".2f") + "%", std::to_string(r.stats.below)});
  std::string out = t.markdown();
  if (table.excluded_runs.empty())
    out += "\nExcluded: none (every row ok, every MILP proven optimal).\n";
  else
    out += fmt::format("\nExcluded ({} rows not ok or whose MILP is not proven optimal): runs {}.\n",
                       table.excluded_runs.size(), fmt::join(table.excluded_runs, ", "));
  return out;
}

ElectionsTable write_elections_table(const std::string& dir)
{
  ElectionsTable table = elections_table(read_rows(dir + "/results.jsonl"));
  write_file_atomically(dir + "/elections-table.csv", elections_table_csv(table));
  write_file_atomically(dir + "/elections-table.md", elections_table_markdown(table));
  return table;
}

} // namespace pipesim

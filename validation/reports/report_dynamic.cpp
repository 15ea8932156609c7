// The report's re-mapping section: the table of data sets by the horizon against the clairvoyant and static-best
// twins, and the throughput-over-time plot of a simulated run.
#include "validation/reports/report_dynamic.hpp"

#include "base/table.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace pipesim {

namespace {

/// Swept keys that define the policy (the whole `dynamic` section, or one of its keys but the mapper).
bool policy_key(const std::string& key)
{
  return key == "dynamic" || (key.starts_with("dynamic.") && key != "dynamic.mapper");
}
bool seed_key(const std::string& key) { return key == "seed" || key.ends_with(".seed"); }

std::string swept_value_text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

/// The swept values of a row whose key passes `keep`, "key=value" joined by ", ".
template <typename Keep>
std::string params_text(const CampaignRow& row, Keep keep)
{
  std::string out;
  for (const auto& [key, value] : row.params.items())
    if (keep(key)) out += (out.empty() ? "" : ", ") + key + "=" + swept_value_text(value);
  return out;
}

std::string instance_of(const CampaignRow& row)
{
  return std::to_string(row.seed) + "|" + params_text(row, [](const std::string& k) { return !policy_key(k); });
}

std::string policy_label(const CampaignRow& row)
{
  std::string swept = params_text(row, policy_key);
  return swept.empty() ? row.policy : swept;
}

/// Running mean and minimum of ratios.
struct RatioTally {
  double sum = 0;
  int count  = 0;
  std::optional<double> min;
  void add(double x)
  {
    sum += x;
    ++count;
    min = min ? std::min(*min, x) : x;
  }
  std::optional<double> mean() const { return count > 0 ? std::optional<double>(sum / count) : std::nullopt; }
};

std::string show_ratio(std::optional<double> x) { return x ? fmt::format("{:.3f}", *x) : "-"; }

} // namespace

std::optional<double> DynamicCell::remaps_per_change() const
{
  return load_changes > 0 ? std::optional<double>(static_cast<double>(remaps) / load_changes) : std::nullopt;
}

std::optional<double> DynamicCell::mean_downtime() const
{
  return remaps > 0 ? std::optional<double>(downtime / remaps) : std::nullopt;
}

std::vector<DynamicCell> dynamic_cells(const CampaignResults& results)
{
  std::map<std::string, std::map<std::string, double>> twins; // instance -> policy column -> data sets by H
  for (const auto& row : results.rows)
    if (row.ok() && row.datasets_by_horizon)
      twins[instance_of(row)][row.policy] = static_cast<double>(*row.datasets_by_horizon);
  std::vector<DynamicCell> cells;
  std::vector<RatioTally> clairvoyant, static_best;
  for (const auto& row : results.rows) {
    if (!row.ok() || !row.datasets_by_horizon) continue;
    std::string configuration = params_text(row, [](const std::string& k) { return !policy_key(k) && !seed_key(k); });
    std::string policy        = policy_label(row);
    auto it                   = std::find_if(cells.begin(), cells.end(), [&](const DynamicCell& c) {
      return c.configuration == configuration && c.policy == policy && c.mapper == row.dynamic_mapper;
    });
    if (it == cells.end()) {
      DynamicCell cell;
      cell.configuration = configuration;
      cell.policy        = policy;
      cell.mapper        = row.dynamic_mapper;
      cells.push_back(cell);
      clairvoyant.emplace_back(), static_best.emplace_back();
      it = cells.end() - 1;
    }
    const auto i = static_cast<std::size_t>(it - cells.begin());
    it->runs++;
    it->remaps += row.remaps.value_or(0);
    it->load_changes += row.load_changes.value_or(0);
    it->downtime += row.downtime.value_or(0);
    if (row.makespan && row.horizon && *row.makespan < *row.horizon) it->saturated++;
    const auto& twin = twins[instance_of(row)];
    const double own = static_cast<double>(*row.datasets_by_horizon);
    if (auto c = twin.find("clairvoyant"); c != twin.end() && c->second > 0) clairvoyant[i].add(own / c->second);
    if (auto s = twin.find("static"); s != twin.end() && s->second > 0) static_best[i].add(own / s->second);
  }
  for (std::size_t i = 0; i < cells.size(); ++i) {
    cells[i].vs_clairvoyant_runs = clairvoyant[i].count;
    cells[i].vs_clairvoyant_mean = clairvoyant[i].mean();
    cells[i].vs_clairvoyant_min  = clairvoyant[i].min;
    cells[i].vs_static_runs      = static_best[i].count;
    cells[i].vs_static_mean      = static_best[i].mean();
    cells[i].vs_static_min       = static_best[i].min;
  }
  return cells;
}

std::string dynamic_table_markdown(const std::vector<DynamicCell>& cells)
{
  std::string out =
      "| configuration | policy | mapper | runs | vs clairvoyant mean | min | vs static-best mean | min | "
      "re-maps per load change | mean downtime (s) | saturated |\n"
      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const DynamicCell& c : cells)
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", c.configuration, c.policy,
                       c.mapper, c.runs, show_ratio(c.vs_clairvoyant_mean), show_ratio(c.vs_clairvoyant_min),
                       show_ratio(c.vs_static_mean), show_ratio(c.vs_static_min), show_ratio(c.remaps_per_change()),
                       c.mean_downtime() ? fmt::format("{:.4g}", *c.mean_downtime()) : "-", c.saturated);
  return out;
}

namespace {
/// Step rows "x y" of a series of [start, end) pieces at values y (the last piece closed by a point at its end); a
/// gap between two pieces (or a piece without value) is a blank line: gnuplot breaks the steps there.
std::string step_rows(const std::vector<std::array<double, 3>>& pieces)
{
  std::string out;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const auto& [start, end, y] = pieces[i];
    if (!std::isfinite(y)) {
      out += "\n";
      continue;
    }
    out += fmt::format("{:.17g} {:.17g}\n", start, y);
    bool last = i + 1 == pieces.size() || pieces[i + 1][0] != end || !std::isfinite(pieces[i + 1][2]);
    if (last) out += fmt::format("{:.17g} {:.17g}\n\n", end, y);
  }
  return out;
}

double json_or_nan(const nlohmann::json& j, const char* key)
{
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : std::nan("");
}
} // namespace

std::optional<GnuplotPlot> throughput_plot(const nlohmann::json& simulated, const std::string& source)
{
  const nlohmann::json* series = nullptr;
  if (auto s = simulated.find("simulated"); s != simulated.end() && s->contains("throughput_series"))
    series = &(*s)["throughput_series"];
  if (!series || !series->contains("windows") || (*series)["windows"].empty()) return std::nullopt;
  std::vector<std::array<double, 3>> windows, analytic;
  for (const auto& w : (*series)["windows"]) {
    double period = json_or_nan(w, "period");
    windows.push_back({json_or_nan(w, "start"), json_or_nan(w, "end"), period > 0 ? 1 / period : std::nan("")});
  }
  for (const auto& e : simulated.value("analytic_series", nlohmann::json::array())) {
    double period = json_or_nan(e, "period");
    analytic.push_back({json_or_nan(e, "start"), json_or_nan(e, "end"), period > 0 ? 1 / period : std::nan("")});
  }
  std::vector<double> remaps;
  if (auto d = simulated.find("dynamic"); d != simulated.end())
    for (const auto& r : d->value("remaps", nlohmann::json::array()))
      remaps.push_back(json_or_nan(r, "time"));
  GnuplotPlot plot{"throughput_series", "", ""};
  plot.data = "# throughput_series.dat: index 0 the simulated windows, index 1 the analytic series\n"
              "# time (s), throughput (data sets / s) from that time on\n" +
              step_rows(windows) + "\n\n" + step_rows(analytic);
  std::string arrows;
  for (double t : remaps)
    arrows += fmt::format("set arrow from {0:.17g}, graph 0 to {0:.17g}, graph 1 nohead lc rgb '#555555' dt 3\n", t);
  const int window = series->value("window", 0);
  plot.commands    = fmt::format(
         "set title {}\nset key outside below\nset grid\nset xlabel 'time (s)'\n"
            "set ylabel 'throughput (data sets / s)'\nset yrange [0:*]\nset autoscale xfix\n{}"
            "plot 'throughput_series.dat' index 0 with steps lc rgb '{}' lw 2 title 'simulated, windows of {} data sets', "
            "\\\n     '' index 1 with steps lc rgb '{}' lw 2 dt (8,4) title 'analytic (running mapping)', \\\n"
            "     NaN with lines lc rgb '#555555' dt 3 title 're-map ({})'\n",
         gnuplot_quote("throughput over time: " + source), arrows, series_style(0).colour, window, series_style(1).colour,
         remaps.size());
  plot.width = 900;
  return plot;
}

} // namespace pipesim

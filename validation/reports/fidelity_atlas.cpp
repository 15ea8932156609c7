// The fidelity atlas (fidelity_atlas.hpp): errors per condition, rankings per instance, main effects, plots.
#include "validation/reports/fidelity_atlas.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace pipesim {

namespace {

/// A swept value as text; empty for a value that removed its key (null, written "~").
std::string atlas_value(const nlohmann::json& v)
{
  if (v.is_null()) return "";
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  return s == "~" || s == "null" ? "" : s;
}

bool atlas_tied(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

/// Nearest-rank quantile q of sorted values.
double atlas_quantile(const std::vector<double>& sorted, double q)
{
  const auto n = static_cast<double>(sorted.size());
  auto rank    = static_cast<std::size_t>(std::max(1.0, std::ceil(q * n)));
  return sorted[std::min(rank, sorted.size()) - 1];
}

AtlasErrors atlas_errors(const std::vector<double>& signed_errors)
{
  AtlasErrors e;
  e.runs = static_cast<int>(signed_errors.size());
  if (signed_errors.empty()) return e;
  std::vector<double> abs;
  for (double x : signed_errors) {
    e.mean += x / e.runs;
    abs.push_back(std::abs(x));
  }
  std::sort(abs.begin(), abs.end());
  e.median_abs = atlas_quantile(abs, 0.5);
  e.p95_abs    = atlas_quantile(abs, 0.95);
  e.max_abs    = abs.back();
  for (double q : {0.05, 0.25, 0.5, 0.75, 0.95})
    e.abs_quantiles.push_back(atlas_quantile(abs, q));
  return e;
}

struct AtlasPoint {
  double analytic  = 0;
  double simulated = 0;
};

AtlasRankings atlas_rankings(const std::map<std::string, std::vector<AtlasPoint>>& instances)
{
  AtlasRankings r;
  double tau_sum = 0;
  for (const auto& [key, points] : instances) {
    if (points.size() < 2) continue;
    ++r.instances;
    std::vector<double> a, s;
    for (const auto& p : points) {
      a.push_back(p.analytic);
      s.push_back(p.simulated);
    }
    if (auto tau = kendall_tau_b(a, s)) {
      tau_sum += *tau;
      r.min_tau = std::min(r.min_tau, *tau);
      ++r.tau_defined;
    }
    const auto chosen  = static_cast<std::size_t>(std::min_element(a.begin(), a.end()) - a.begin());
    const double best  = *std::min_element(s.begin(), s.end());
    const double ratio = s[chosen] / best - 1;
    if (ratio <= 1e-9) ++r.best_kept;
    r.max_regret = std::max(r.max_regret, ratio);
  }
  r.mean_tau = r.tau_defined > 0 ? tau_sum / r.tau_defined : 0;
  return r;
}

} // namespace

bool is_condition_key(const std::string& key)
{
  return key.starts_with("simulation.") || key.starts_with("analytic.") || key == "pipeline.variability" ||
         key.starts_with("pipeline.variability.");
}

std::optional<double> kendall_tau_b(const std::vector<double>& x, const std::vector<double>& y)
{
  double concordant = 0, discordant = 0, ties_x = 0, ties_y = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = i + 1; j < x.size(); ++j) {
      const bool tx = atlas_tied(x[i], x[j]), ty = atlas_tied(y[i], y[j]);
      if (tx && ty) continue;
      if (tx) {
        ++ties_x;
      } else if (ty) {
        ++ties_y;
      } else if ((x[i] < x[j]) == (y[i] < y[j])) {
        ++concordant;
      } else {
        ++discordant;
      }
    }
  const double n1 = concordant + discordant + ties_x, n2 = concordant + discordant + ties_y;
  if (n1 == 0 || n2 == 0) return std::nullopt;
  return (concordant - discordant) / std::sqrt(n1 * n2);
}

FidelityAtlas fidelity_atlas(const CampaignResults& results)
{
  FidelityAtlas atlas;
  for (const auto& key : results.swept)
    if (is_condition_key(key)) atlas.condition_keys.push_back(key);
  if (atlas.condition_keys.empty()) return atlas;
  std::vector<std::string> order;
  std::map<std::string, std::vector<double>> errors;
  std::map<std::string, std::map<std::string, std::vector<AtlasPoint>>> instances;
  std::map<std::pair<std::string, std::string>, std::vector<double>> effects;
  for (const auto& row : results.rows) {
    if (!row.ok() || !row.analytic_period || !row.simulated_period || !(*row.analytic_period > 0)) {
      ++atlas.excluded;
      continue;
    }
    std::string condition, instance = fmt::format("seed={}", atlas_value(row.params.value("seed", nlohmann::json())));
    for (const auto& [key, value] : row.params.items()) {
      const std::string v = atlas_value(value);
      if (is_condition_key(key)) {
        if (!v.empty()) condition += fmt::format("{}{}={}", condition.empty() ? "" : " ", key, v);
      } else if (key != "mapper" && key != "mapper_options.seed" && key != "seed") {
        instance += fmt::format(" {}={}", key, v);
      }
    }
    const double e = (*row.simulated_period - *row.analytic_period) / *row.analytic_period;
    if (!errors.count(condition)) order.push_back(condition);
    errors[condition].push_back(e);
    instances[condition][instance].push_back({*row.analytic_period, *row.simulated_period});
    for (const auto& key : atlas.condition_keys)
      effects[{key, atlas_value(row.params.value(key, nlohmann::json()))}].push_back(e);
  }
  for (const auto& c : order)
    atlas.conditions.push_back({c, atlas_errors(errors[c]), atlas_rankings(instances[c])});
  for (const auto& key : atlas.condition_keys)
    for (const auto& [kv, e] : effects)
      if (kv.first == key) atlas.effects.push_back({key, kv.second.empty() ? "(absent)" : kv.second, atlas_errors(e)});
  return atlas;
}

std::string fidelity_atlas_markdown(const FidelityAtlas& atlas)
{
  std::string md = "| # | condition | runs | mean error | median abs | p95 abs | max abs | instances | mean tau | min "
                   "tau | best kept | max regret |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < atlas.conditions.size(); ++i) {
    const auto& c = atlas.conditions[i];
    const auto& r = c.rankings;
    md += fmt::format("| {} | {} | {} | {:.3g} | {:.3g} | {:.3g} | {:.3g} | {} | {:.3f} | {:.3f} | {}/{} | {:.3g} |\n",
                      i + 1, c.label.empty() ? "(base)" : c.label, c.errors.runs, c.errors.mean, c.errors.median_abs,
                      c.errors.p95_abs, c.errors.max_abs, r.instances, r.mean_tau, r.min_tau, r.best_kept, r.instances,
                      r.max_regret);
  }
  md += "\nMain effects: each value of each condition key over every other condition.\n\n| key | value | runs | "
        "median abs | p95 abs | max abs |\n|---|---|---|---|---|---|\n";
  for (const auto& e : atlas.effects)
    md += fmt::format("| {} | {} | {} | {:.3g} | {:.3g} | {:.3g} |\n", e.key, e.value, e.errors.runs,
                      e.errors.median_abs, e.errors.p95_abs, e.errors.max_abs);
  if (atlas.excluded > 0) md += fmt::format("\n{} rows excluded (not ok, or without both periods).\n", atlas.excluded);
  return md;
}

namespace {
/// One labelled condition in `step`: the labels of 120 conditions (the atlas with its variability axis) overlap at 1.
int atlas_xtics_step(std::size_t conditions)
{
  return conditions <= 30 ? 1 : conditions <= 60 ? 2 : conditions <= 150 ? 5 : 10;
}
} // namespace

std::optional<GnuplotPlot> fidelity_error_plot(const FidelityAtlas& atlas)
{
  if (atlas.conditions.empty()) return std::nullopt;
  GnuplotPlot plot{"fidelity_errors", "", "", 1000, 500};
  const double floor = 1e-16; // an error of 0 (or below) is drawn here: the log scale has no 0
  for (std::size_t i = 0; i < atlas.conditions.size(); ++i) {
    const auto& q = atlas.conditions[i].errors.abs_quantiles;
    if (q.empty()) continue;
    auto f = [&](double v) { return std::max(v, floor); };
    plot.data += fmt::format("{} {} {} {} {} {}\n", i + 1, f(q[1]), f(q[0]), f(q[4]), f(q[3]), f(q[2]));
  }
  plot.commands = fmt::format(
      "set logscale y\nset yrange [{}:*]\nset xrange [0:{}]\nset xtics {}\nset grid ytics\nset xlabel 'condition (the "
      "numbered table)'\nset ylabel '|simulated - analytic| / analytic'\nset boxwidth 0.5\nset key outside below "
      "center\nplot 'fidelity_errors.dat' "
      "using 1:2:3:4:5 with candlesticks whiskerbars lc rgb '#4e79a7' title '5-25-75-95 %', '' using 1:6:6:6:6 with "
      "candlesticks lc rgb '#e15759' lw 2 notitle\n",
      floor / 2, atlas.conditions.size() + 1, atlas_xtics_step(atlas.conditions.size()));
  return plot;
}

std::optional<GnuplotPlot> fidelity_ranking_plot(const FidelityAtlas& atlas)
{
  if (atlas.conditions.empty()) return std::nullopt;
  GnuplotPlot plot{"fidelity_rankings", "", "", 1000, 400};
  for (std::size_t i = 0; i < atlas.conditions.size(); ++i) {
    const auto& r = atlas.conditions[i].rankings;
    if (r.instances == 0) continue;
    plot.data +=
        fmt::format("{} {} {} {}\n", i + 1, r.mean_tau, r.min_tau, static_cast<double>(r.best_kept) / r.instances);
  }
  plot.commands = fmt::format(
      "set yrange [-1.05:1.05]\nset xrange [0:{}]\nset xtics {}\nset grid ytics\nset xlabel 'condition (the numbered "
      "table)'\nset ylabel 'Kendall tau / share'\nset key outside below center horizontal\nplot "
      "'fidelity_rankings.dat' using 1:2 with "
      "points pt 7 lc rgb '#4e79a7' title 'mean tau', '' using 1:3 with points pt 6 lc rgb '#4e79a7' title 'min tau', "
      "'' using 1:4 with points pt 5 lc rgb '#59a14f' title 'best mapping kept (share)'\n",
      atlas.conditions.size() + 1, atlas_xtics_step(atlas.conditions.size()));
  return plot;
}

} // namespace pipesim

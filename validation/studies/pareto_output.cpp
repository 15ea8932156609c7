// Outputs of the Pareto sweep: JSON, a table, and gnuplot data, script and SVG.
#include "validation/reports/gnuplot.hpp"
#include "validation/studies/pareto.hpp"

#include "base/table.hpp"
#include "validation/evaluation/result_output.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace pipesim {

namespace {
/// The mapper's status, or "refused".
std::string status_text(const ParetoPoint& point) { return point.status ? to_string(*point.status) : "refused"; }

/// What a table cell shows: F, or why there is none.
std::string cell(const ParetoPoint& point)
{
  if (point.failure_probability) return format_number(*point.failure_probability, ".6g");
  if (point.status && !point.mapping.empty()) return "violates";
  return status_text(point); // refused, infeasible, time limit
}
} // namespace

void to_json(nlohmann::json& j, const ParetoSweep& sweep)
{
  j                  = nlohmann::json::object();
  j["scenario"]      = sweep.scenario;
  j["scenario_file"] = sweep.scenario_file;
  if (!sweep.command_line.empty()) j["command"] = sweep.command_line;
  j["n"]           = sweep.n;
  j["p"]           = sweep.p;
  j["model"]       = to_string(sweep.model);
  j["mapper_seed"] = sweep.mapper_seed;
  j["time_limit"]  = sweep.time_limit;
  j["bounds"]      = sweep.bounds;
  j["exact_front"] = nlohmann::json::object();
  auto mappers     = nlohmann::json::array();
  for (const auto& curve : sweep.curves) {
    auto points = nlohmann::json::array();
    auto front  = nlohmann::json::array();
    for (const auto& pt : curve.points) {
      nlohmann::json p{{"period_bound", pt.period_bound},
                       {"status", status_text(pt)},
                       {"failure_probability", json_number(pt.failure_probability)},
                       {"worst_case_period", json_number(pt.worst_case_period)},
                       {"worst_case_exact", pt.worst_case_exact},
                       {"meets_bound", pt.meets_bound},
                       {"mapping", pt.mapping.empty() ? nlohmann::json() : nlohmann::json(pt.mapping)},
                       {timing_key, {{"mapper_seconds", pt.seconds}}}};
      if (!pt.note.empty()) p["note"] = pt.note;
      points.push_back(p);
      front.push_back(json_number(pt.failure_probability));
    }
    if (curve.mapper == pareto_exact_mappers[0]) j["exact_front"]["general"] = front;
    if (curve.mapper == pareto_exact_mappers[1]) j["exact_front"]["interval"] = front;
    mappers.push_back({{"name", curve.mapper}, {"exact", curve.exact}, {"points", points}});
  }
  j["mappers"] = mappers;
}

std::string pareto_table(const ParetoSweep& sweep)
{
  std::string out = fmt::format("scenario   {} ({})\n", sweep.scenario, sweep.scenario_file);
  out += fmt::format("instance   n = {} stages, p = {} processors, {}; mapper seed {}, time limit {} s\n", sweep.n,
                     sweep.p, to_string(sweep.model), sweep.mapper_seed, sweep.time_limit);
  out += sweep.curve("bbr10.exhaustive") || sweep.curve("bbr10.exhaustive.interval")
             ? "exact      bbr10.exhaustive: optimum over general mappings, .interval: over interval mappings\n"
             : "exact      none: the instance is beyond bbr10.exhaustive's limits\n";
  out += "cells      F (seed 004 eq. (2)) of each mapper's mapping; violates: its worst-case period exceeds P_max\n\n";
  Table cells; // a mapper's column is as wide as its name (at least 10) plus two spaces
  cells.add_column("P_max", Align::left, 11);
  for (const auto& curve : sweep.curves)
    cells.add_column(curve.mapper, Align::left, std::max(static_cast<int>(curve.mapper.size()), 10) + 1);
  for (std::size_t i = 0; i < sweep.bounds.size(); ++i) {
    std::vector<std::string> row{format_number(sweep.bounds[i], ".6g")};
    for (const auto& curve : sweep.curves)
      row.push_back(cell(curve.points[i]));
    cells.add_row(std::move(row));
  }
  out += cells.text();
  for (const auto& curve : sweep.curves) {
    if (!curve.exact) continue;
    out += fmt::format("\n{} mappings:\n", curve.mapper);
    for (const auto& pt : curve.points)
      if (pt.failure_probability)
        out += fmt::format("  P_max {:<10} F {:<12.6g} worst-case period {:<10.6g} {}\n",
                           fmt::format("{:.6g}", pt.period_bound), *pt.failure_probability, *pt.worst_case_period,
                           pt.mapping);
  }
  for (const auto& curve : sweep.curves)
    for (const auto& pt : curve.points)
      if (!pt.note.empty()) {
        out += fmt::format("\n{} refused at P_max = {:.6g}: {}", curve.mapper, pt.period_bound, pt.note);
        break;
      }
  if (!sweep.command_line.empty()) out += fmt::format("\ncommand    {}\n", sweep.command_line);
  return out;
}

std::string pareto_gnuplot_data(const ParetoSweep& sweep)
{
  std::string out;
  for (const auto& curve : sweep.curves) {
    std::string block;
    for (const auto& pt : curve.points)
      if (pt.failure_probability) block += fmt::format("{} {}\n", pt.period_bound, *pt.failure_probability);
    if (block.empty()) continue;
    out += fmt::format("{}# {}: P_max F\n{}", out.empty() ? "" : "\n\n", curve.mapper, block);
  }
  return out;
}

namespace {
/// Mean F of a curve over every bound, a bound without an F (not met, refused, infeasible) counting as 1.
double pareto_score(const ParetoCurve& curve)
{
  double sum = 0;
  for (const auto& pt : curve.points)
    sum += pt.failure_probability.value_or(1);
  return curve.points.empty() ? 1 : sum / static_cast<double>(curve.points.size());
}

/// One drawn front: a curve with an F somewhere, its block in pareto.dat, and how many other curves have the very same
/// front (drawn once, the legend says "+k").
struct ParetoFront {
  const ParetoCurve* curve = nullptr;
  int index                = 0;
  int same                 = 0;
};

/// Whether two curves have the same F at every bound.
bool same_front(const ParetoCurve& a, const ParetoCurve& b)
{
  if (a.points.size() != b.points.size()) return false;
  for (std::size_t i = 0; i < a.points.size(); ++i)
    if (a.points[i].failure_probability != b.points[i].failure_probability) return false;
  return true;
}

/// The fronts to draw in the order of sweep.curves (the exact ones first), identical ones merged into the first.
std::vector<ParetoFront> distinct_fronts(const ParetoSweep& sweep)
{
  std::vector<ParetoFront> fronts;
  int index = 0;
  for (const auto& curve : sweep.curves) {
    auto with_f = [](const ParetoPoint& pt) { return pt.failure_probability.has_value(); };
    if (std::none_of(curve.points.begin(), curve.points.end(), with_f)) continue;
    auto same = std::find_if(fronts.begin(), fronts.end(), [&](const auto& f) { return same_front(*f.curve, curve); });
    if (same == fronts.end())
      fronts.push_back({&curve, index, 0});
    else
      same->same++;
    ++index;
  }
  return fronts;
}

/// The gnuplot series of one front; `style` < 0: an exact front (black, or grey for the interval one).
std::string pareto_series(const ParetoFront& front, int style)
{
  const ParetoCurve& curve = *front.curve;
  bool general             = curve.mapper == pareto_exact_mappers[0];
  SeriesStyle look         = series_style(static_cast<std::size_t>(std::max(style, 0)));
  std::string line         = style >= 0 ? look.line() + " lw 1.5"
                             : general  ? "lc rgb 'black' dt 1 lw 4"
                                        : "lc rgb '#7f7f7f' "
                                          "dt (12,6) lw 3";
  std::string points       = style >= 0 ? look.points() : general ? "lc rgb 'black' pt 7" : "lc rgb '#7f7f7f' pt 5";
  std::string title = front.same == 0 ? curve.mapper : fmt::format("{} (+{} same front)", curve.mapper, front.same);
  // steps: F(P_max) holds at least up to the next bound, since a larger bound only admits more mappings
  return fmt::format("'pareto.dat' index {0} using 1:2 with steps {1} title {2}, \\\n"
                     "  '' index {0} using 1:2 with points {3} notitle",
                     front.index, line, gnuplot_quote(title), points);
}
} // namespace

GnuplotPlot pareto_plot(const ParetoSweep& sweep)
{
  std::vector<ParetoFront> fronts = distinct_fronts(sweep);
  auto heuristic    = std::stable_partition(fronts.begin(), fronts.end(), [](const auto& f) { return f.curve->exact; });
  auto n_heuristic  = static_cast<std::size_t>(fronts.end() - heuristic);
  std::string title = gnuplot_quote("Pareto front: " + sweep.scenario);
  if (n_heuristic > pareto_plotted_heuristics) {
    std::stable_sort(heuristic, fronts.end(),
                     [](const auto& a, const auto& b) { return pareto_score(*a.curve) < pareto_score(*b.curve); });
    title += fmt::format(" . \"\\n\" . 'the {} best of {} distinct heuristic fronts by mean F over the bounds (no "
                         "mapping counts as F = 1); all in pareto.dat'",
                         pareto_plotted_heuristics, n_heuristic);
    fronts.resize(fronts.size() - (n_heuristic - pareto_plotted_heuristics));
  }
  bool positive = true;
  std::string plots;
  int style = 0;
  for (const auto& front : fronts) {
    for (const auto& pt : front.curve->points)
      positive = positive && (!pt.failure_probability || *pt.failure_probability > 0);
    plots += (plots.empty() ? "" : ", \\\n  ") + pareto_series(front, front.curve->exact ? -1 : style++);
  }
  GnuplotPlot plot{"pareto", "", pareto_gnuplot_data(sweep), 1000, 560};
  double lo = *std::min_element(sweep.bounds.begin(), sweep.bounds.end());
  double hi = *std::max_element(sweep.bounds.begin(), sweep.bounds.end());
  if (lo == hi) { // one bound (the scenario's period_bound alone): gnuplot refuses an empty x range
    lo *= 0.9;
    hi *= 1.1;
  }
  plot.commands = fmt::format("set title {}\nset xlabel 'period bound P_max'\nset ylabel 'failure probability F'\n"
                              "set key outside right top box\nset grid\nset xrange [{}:{}]\n{}",
                              title, lo, hi, positive ? "set logscale y\n" : "");
  plot.commands += plots.empty() ? "set label 'no mapping meets any bound' at graph 0.3, 0.5\nplot [0:1] NaN notitle\n"
                                 : "plot " + plots + "\n";
  return plot;
}

bool write_pareto_files(const std::string& dir, const ParetoSweep& sweep, const std::string& executable)
{
  std::filesystem::create_directories(dir);
  write_text_file(dir + "/pareto.json", nlohmann::json(sweep).dump(2) + "\n");
  try {
    render_plot(dir, pareto_plot(sweep), executable);
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).find("gnuplot not found") == std::string::npos) throw;
    return false; // render_plot wrote pareto.gp and pareto.dat before running gnuplot
  }
  return true;
}

} // namespace pipesim

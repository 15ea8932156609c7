// The report's plots as gnuplot scripts and data: scatter, error histogram, per-mapper means, survival, Gantt chart.
#include "validation/reports/report_plots.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>

namespace pipesim {

namespace {
std::string plot_number(std::optional<double> value)
{
  return value && std::isfinite(*value) ? fmt::format("{}", *value) : "NaN";
}

/// Smallest and largest of a set of values, widened by `margin` on each side in log or linear space.
struct PlotRange {
  double low  = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  void add(double v)
  {
    low  = std::min(low, v);
    high = std::max(high, v);
  }
  bool logarithmic() const { return low > 0 && high / low > 100; }
  std::string gnuplot(const char* axis) const
  {
    double lo = low, hi = high;
    if (logarithmic()) {
      lo /= 1.5;
      hi *= 1.5;
    } else {
      double pad = high > low ? (high - low) * 0.05 : std::max(std::fabs(high) * 0.05, 1e-9);
      lo -= pad;
      hi += pad;
    }
    return fmt::format("{}set {}range [{}:{}]\n", logarithmic() ? fmt::format("set logscale {}\n", axis) : "", axis, lo,
                       hi);
  }
};

/// Mappers in order of first appearance among the ok rows that satisfy `keep`.
template <typename Keep>
std::vector<std::string> mappers_of(const CampaignResults& results, Keep keep)
{
  std::vector<std::string> mappers;
  for (const auto& row : results.rows)
    if (row.ok() && keep(row) && std::find(mappers.begin(), mappers.end(), row.mapper) == mappers.end())
      mappers.push_back(row.mapper);
  return mappers;
}

/// Tics at the x values themselves when there are few of them (swept values such as n = 2..6).
std::string xtics_at(const std::vector<MapperMean>& means)
{
  std::vector<double> xs;
  for (const auto& m : means)
    if (std::find(xs.begin(), xs.end(), m.x) == xs.end()) xs.push_back(m.x);
  if (xs.size() > 12) return "";
  std::sort(xs.begin(), xs.end());
  return fmt::format("set xtics ({})\n", fmt::join(xs, ", "));
}

const char* const common_style = "set key outside right top box\n"
                                 "set grid\n"
                                 "set datafile missing 'NaN'\n";
} // namespace

std::optional<GnuplotPlot> period_scatter_plot(const CampaignResults& results)
{
  std::string analytic = "# analytic_period simulated_period run_id mapper\n";
  std::string graph    = "# event_graph_period simulated_period run_id mapper\n";
  int n_analytic = 0, n_graph = 0;
  PlotRange range;
  for (const auto& row : results.rows) {
    if (!row.ok() || !row.simulated_period) continue;
    if (row.analytic_period) {
      analytic += fmt::format("{} {} {} {}\n", *row.analytic_period, *row.simulated_period, row.run_id, row.mapper);
      range.add(*row.analytic_period);
      range.add(*row.simulated_period);
      n_analytic++;
    }
    if (row.event_graph_period) {
      graph += fmt::format("{} {} {} {}\n", *row.event_graph_period, *row.simulated_period, row.run_id, row.mapper);
      range.add(*row.event_graph_period);
      n_graph++;
    }
  }
  if (n_analytic == 0) return std::nullopt;
  GnuplotPlot plot{"period_scatter", common_style, analytic + "\n\n" + graph};
  plot.commands += "set key inside right bottom\n";
  plot.commands += range.gnuplot("x") + range.gnuplot("y");
  plot.commands += "set xlabel 'analytic or event-graph period (s)'\nset ylabel 'simulated period (s)'\n"
                   "set size ratio -1\n";
  plot.commands += fmt::format("plot 'period_scatter.dat' index 0 using 1:2 with points {} ps 0.8 title 'simulated "
                               "vs analytic'",
                               series_style(0).points());
  if (n_graph > 0)
    plot.commands += fmt::format(", \\\n  'period_scatter.dat' index 1 using 1:2 with points lc rgb '{}' pt 6 ps 1.2 "
                                 "title 'simulated vs event graph'",
                                 series_style(1).colour);
  plot.commands += ", \\\n  x with lines lc rgb 'black' dt 2 title 'y = x'\n";
  plot.width  = 700;
  plot.height = 560;
  return plot;
}

std::optional<GnuplotPlot> error_histogram_plot(const CampaignResults& results)
{
  std::vector<std::vector<double>> series(2);
  for (const auto& row : results.rows) {
    if (auto e = period_error(row)) series[0].push_back(*e);
    if (row.ok() && row.simulated_period && row.rel_error_event_graph) series[1].push_back(*row.rel_error_event_graph);
  }
  if (series[0].empty()) return std::nullopt;
  ErrorHistogram histogram = error_histogram(series);
  std::string data =
      "# bin runs_vs_analytic runs_vs_event_graph (bins: decades of |simulated - reference| / reference)\n";
  for (size_t b = 0; b < histogram.labels.size(); ++b)
    data += fmt::format("{} {} {}\n", histogram.labels[b], histogram.counts[0][b], histogram.counts[1][b]);
  GnuplotPlot plot{"error_histogram", common_style, data};
  plot.commands += "set style fill solid 0.7 border -1\nset boxwidth 0.4\nset xtics rotate by -30\n"
                   "set yrange [0:*]\nset xlabel 'relative error of the period (decade of log10)'\n"
                   "set ylabel 'runs'\n";
  plot.commands += fmt::format("plot 'error_histogram.dat' using ($0-0.2):2:(0.4):xtic(1) with boxes {} "
                               "title 'simulated vs analytic'",
                               series_style(0).bars());
  if (!series[1].empty())
    plot.commands += fmt::format(", \\\n  '' using ($0+0.2):3:(0.4) with boxes {} title 'simulated vs event graph'",
                                 series_style(1).bars());
  plot.commands += "\n";
  return plot;
}

namespace {
/// The data blocks of mean_period.dat, one per curve (mapper_means gives them in order, x increasing in each), and
/// the curves' titles in the order of the blocks.
std::pair<std::string, std::vector<std::string>> mean_period_data(const std::vector<MapperMean>& means)
{
  std::vector<std::string> titles;
  std::string data;
  for (std::size_t i = 0; i < means.size(); ++i) {
    const MapperMean& m = means[i];
    if (i == 0 || !m.same_curve(means[i - 1])) {
      data += fmt::format("{}# mapper {}{}\n# x p runs mean_analytic_period mean_simulated_period\n",
                          titles.empty() ? "" : "\n\n", m.mapper, m.family.empty() ? "" : " " + m.family);
      titles.push_back(m.title());
    }
    data += fmt::format("{} {} {} {} {}\n", m.x, m.p ? fmt::format("{}", *m.p) : "NaN", m.runs, plot_number(m.analytic),
                        plot_number(m.simulated));
  }
  return {data, titles};
}
} // namespace

std::optional<GnuplotPlot> mean_period_plot(const CampaignResults& results, const std::string& x_key)
{
  if (x_key.empty()) return std::nullopt;
  std::vector<MapperMean> means = mapper_means(results, x_key);
  if (means.empty()) return std::nullopt;
  bool simulated = false;
  PlotRange range;
  for (const auto& m : means) {
    for (auto v : {m.analytic, m.simulated})
      if (v && std::isfinite(*v)) range.add(*v);
    simulated = simulated || m.simulated.has_value();
  }
  auto [data, curves] = mean_period_data(means);
  GnuplotPlot plot{"mean_period", common_style, data};
  plot.commands += fmt::format("set xlabel {}\nset ylabel 'mean period over seeds (s)'\nset offsets graph 0.03, "
                               "graph 0.03, graph 0.05, graph 0.05\n{}",
                               gnuplot_quote(x_key), xtics_at(means));
  if (range.logarithmic()) plot.commands += "set logscale y\n";
  plot.commands += "plot";
  for (size_t i = 0; i < curves.size(); ++i) {
    SeriesStyle style = series_style(i);
    plot.commands += fmt::format("{} 'mean_period.dat' index {} using 1:4 with linespoints {} lw 1.5 ps 0.8 title {}",
                                 i == 0 ? "" : ", \\\n ", i, style.linespoints(), gnuplot_quote(curves[i]));
    if (simulated)
      plot.commands += fmt::format(", \\\n  'mean_period.dat' index {} using 1:5 with points lc rgb '{}' pt 6 ps 1.6 "
                                   "notitle",
                                   i, style.colour);
  }
  if (simulated) plot.commands += ", \\\n  NaN with points lc rgb 'black' pt 6 ps 1.6 title 'simulated (circle)'";
  plot.commands += "\n";
  // titles of families ("hedpm, preset = hedpm-5.2-het, class = fully-heterogeneous") would squeeze the plot beside
  // it: the key goes below, a line per title, under a bottom margin that keeps it off the x label (checked on a PNG
  // of hedpm-fig23-small's report: gnuplot's own margin let the label touch the key's box)
  int longest = static_cast<int>(std::ranges::max(curves, {}, &std::string::size).size());
  int entries = static_cast<int>(curves.size()) + (simulated ? 1 : 0);
  if (longest > 30) {
    plot.commands.insert(plot.commands.find("plot 'mean_period.dat'"),
                         fmt::format("set key outside below center box\nset bmargin {}\n", entries + 5));
    plot.width  = std::max(plot.width, 12 * longest + 150);
    plot.height = 460 + 20 * entries;
  } else
    plot.height = std::max(plot.height, 100 + 20 * entries);
  return plot;
}

std::optional<GnuplotPlot> survival_plot(const CampaignResults& results)
{
  auto has_survival                = [](const CampaignRow& r) { return r.survival_rate && r.failure_probability; };
  std::vector<std::string> mappers = mappers_of(results, has_survival);
  if (mappers.empty()) return std::nullopt;
  std::string data;
  for (size_t i = 0; i < mappers.size(); ++i) {
    data += fmt::format("{}# mapper {}\n# one_minus_F survival_rate ci_low ci_high run_id\n", i == 0 ? "" : "\n\n",
                        mappers[i]);
    for (const auto& row : results.rows)
      if (row.ok() && has_survival(row) && row.mapper == mappers[i])
        data += fmt::format("{} {} {} {} {}\n", 1 - *row.failure_probability, *row.survival_rate,
                            row.survival_ci_low.value_or(*row.survival_rate),
                            row.survival_ci_high.value_or(*row.survival_rate), row.run_id);
  }
  GnuplotPlot plot{"survival", common_style, data};
  plot.commands += "set key inside right bottom\n";
  plot.commands += "set xlabel '1 - F (analytic survival probability)'\nset ylabel 'survival rate (simulated)'\n"
                   "set xrange [*:1.02]\nset yrange [*:1.02]\nset size ratio -1\nplot";
  for (size_t i = 0; i < mappers.size(); ++i)
    plot.commands += fmt::format("{} 'survival.dat' index {} using 1:2:3:4 with yerrorbars {} ps 0.8 title {}",
                                 i == 0 ? "" : ", \\\n ", i, series_style(i).points(), gnuplot_quote(mappers[i]));
  plot.commands += ", \\\n  x with lines lc rgb 'black' dt 2 title 'y = x'\n";
  plot.width  = 700;
  plot.height = 560;
  return plot;
}

GanttWindow gantt_window(const RunTrace& trace, int periods)
{
  int last = 0;
  for (const auto& bar : trace.bars)
    last = std::max(last, bar.dataset);
  int middle = last / 2;
  GanttWindow window{std::numeric_limits<double>::infinity(), 0};
  for (const auto& bar : trace.bars)
    if (bar.dataset == middle) window.start = std::min(window.start, bar.start);
  if (trace.period > 0) {
    window.end = window.start + periods * trace.period;
  } else { // no period recorded: the events of `periods` data sets from the middle one
    for (const auto& bar : trace.bars)
      if (bar.dataset >= middle && bar.dataset < middle + periods) window.end = std::max(window.end, bar.end);
  }
  return window;
}

std::optional<GnuplotPlot> gantt_plot(const RunTrace& trace, int periods)
{
  GanttWindow window = gantt_window(trace, periods);
  std::vector<std::string> hosts; // rows in order of first appearance: the pipeline's order
  for (const auto& bar : trace.bars)
    if (std::find(hosts.begin(), hosts.end(), bar.host) == hosts.end()) hosts.push_back(bar.host);
  const std::vector<std::pair<Operation, std::string>> kinds = {
      {Operation::receive, "#4e79a7"}, {Operation::compute, "#59a14f"}, {Operation::send, "#e15759"}};
  std::string data;
  std::string plots;
  int block = 0;
  for (const auto& [kind, colour] : kinds) {
    std::string rows;
    for (const auto& bar : trace.bars)
      if (bar.kind == kind && bar.end > window.start && bar.start < window.end) {
        auto row = std::find(hosts.begin(), hosts.end(), bar.host) - hosts.begin();
        rows += fmt::format("{} {} {} {} {}\n", row, std::max(bar.start, window.start), std::min(bar.end, window.end),
                            bar.dataset, bar.host);
      }
    if (rows.empty()) continue;
    data += fmt::format("{}# {}\n# row start end dataset host\n{}", block == 0 ? "" : "\n\n", kind, rows);
    plots += fmt::format("{} 'gantt.dat' index {} using (($2+$3)/2):1:(($3-$2)/2):(0.35) with boxxyerror "
                         "fs solid 0.85 lc rgb '{}' title '{}'",
                         plots.empty() ? "" : ", \\\n ", block, colour, kind);
    if (kind == Operation::compute)
      plots += fmt::format(", \\\n  'gantt.dat' index {} using (($2+$3)/2):1:(sprintf('%d', $4)) with labels "
                           "font ',9' tc rgb 'white' notitle",
                           block);
    block++;
  }
  if (block == 0) return std::nullopt;
  GnuplotPlot plot{"gantt", "set key outside right top box\nset grid x\n", data};
  std::string ytics;
  for (size_t i = 0; i < hosts.size(); ++i)
    ytics += fmt::format("{}{} {}", i == 0 ? "" : ", ", gnuplot_quote(hosts[i]), i);
  plot.commands += fmt::format("set ytics ({})\nset yrange [{}:-0.6]\nset xrange [{}:{}]\n", ytics,
                               static_cast<double>(hosts.size()) - 0.4, window.start, window.end);
  for (int k = 1; trace.period > 0 && k < periods; ++k)
    plot.commands += fmt::format("set arrow from {}, graph 0 to {}, graph 1 nohead dt 3 lc rgb 'gray40'\n",
                                 window.start + k * trace.period, window.start + k * trace.period);
  plot.commands += "set xlabel 'simulated time (s); dotted lines every period, labels: data set'\n";
  plot.commands += "plot " + plots + "\n";
  plot.height = std::max(300, 120 + 40 * static_cast<int>(hosts.size()));
  return plot;
}

} // namespace pipesim

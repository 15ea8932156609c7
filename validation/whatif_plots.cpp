// The bar charts of a what-if study: analytic and simulated figures per variant, failures labelled.
#include "validation/whatif_plots.hpp"

#include "base/table.hpp"

#include <fmt/format.h>

namespace pipesim {

namespace {
/// One bar: its value (empty: no bar) and its status: "ok", the reason it has no figure, or "-" (not simulated).
struct WhatIfBar {
  std::optional<double> value;
  std::string status = "ok";
};

/// What a chart shows of one evaluation: its analytic and its simulated bar.
using BarsOf = std::pair<WhatIfBar, WhatIfBar> (*)(const WhatIfFigures&);

std::pair<WhatIfBar, WhatIfBar> period_bars(const WhatIfFigures& f)
{
  if (f.status != WhatIfStatus::ok) return {{std::nullopt, to_string(f.status)}, {std::nullopt, to_string(f.status)}};
  WhatIfBar simulated{f.simulated_period, f.simulated_period ? "ok" : "-"};
  if (f.verdict) simulated = {std::nullopt, "failed"};
  return {{f.analytic_period, "ok"}, simulated};
}

std::pair<WhatIfBar, WhatIfBar> reliability_bars(const WhatIfFigures& f)
{
  if (f.status != WhatIfStatus::ok) return {{std::nullopt, to_string(f.status)}, {std::nullopt, to_string(f.status)}};
  WhatIfBar simulated{f.survival_rate, f.survival_rate ? "ok" : "-"};
  if (f.verdict) simulated.status = "failed";
  return {{f.reliability, "ok"}, simulated};
}

std::string bar_cells(const WhatIfBar& bar)
{
  bool shown = bar.value && std::isfinite(*bar.value);
  return fmt::format(" {} {}", shown ? format_number(*bar.value, ".10g") : "?", bar.status);
}

/// The data rows and whether any bar is simulated (a value or a failure).
std::pair<std::string, bool> whatif_bar_data(const WhatIfStudy& study, BarsOf bars_of)
{
  std::string data;
  bool simulated = false;
  auto row       = [&](std::string label, const WhatIfFigures& fixed, const WhatIfFigures& remapped) {
    std::erase(label, '"');
    data += "\"" + label + "\"";
    for (const auto* f : {&fixed, &remapped}) {
      auto [analytic, sim] = bars_of(*f);
      simulated            = simulated || sim.value || sim.status == "failed";
      data += bar_cells(analytic) + bar_cells(sim);
    }
    data += "\n";
  };
  row("baseline", study.baseline, study.baseline);
  for (const auto& r : study.rows)
    row(r.variant, r.fixed, r.remapped);
  return {data, simulated};
}

GnuplotPlot whatif_bar_plot(const WhatIfStudy& study, const std::string& name, const std::string& what,
                            const std::string& description, BarsOf bars_of)
{
  auto [rows, simulated] = whatif_bar_data(study, bars_of);
  GnuplotPlot plot{name, "", "", 800, 560};
  plot.data = fmt::format("# {}.dat: {} of the baseline and each variant\n# variant, "
                          "then value and status of: fixed analytic, fixed simulated, re-mapped analytic, re-mapped "
                          "simulated\n# value ? = no figure; status ok, failed (the simulated run failed), removed, "
                          "unreachable, infeasible, n/a, or - (not simulated)\n{}",
                          name, description, rows);
  std::vector<std::pair<int, std::string>> series = {{2, "baseline mapping kept, analytic"},
                                                     {6, "re-mapped, analytic"}};
  if (simulated)
    series = {{2, "baseline mapping kept, analytic"},
              {4, "baseline mapping kept, simulated"},
              {6, "re-mapped, analytic"},
              {8, "re-mapped, simulated"}};
  double width  = 0.8 / static_cast<double>(series.size());
  auto baseline = bars_of(study.baseline).first.value;
  plot.commands = fmt::format(
      "set title {}\nset ylabel {}\nset yrange [0:*]\nset xrange [-0.6:{}]\nset grid y\n"
      "set key outside top center horizontal box\nset xtics rotate by -20\nset datafile missing '?'\n{}",
      gnuplot_quote(study.scenario + ": what if"), gnuplot_quote(what), static_cast<double>(study.rows.size()) + 0.6,
      baseline ? fmt::format("set arrow from graph 0, first {0} to graph 1, first {0} nohead "
                             "dt 2\n",
                             *baseline)
               : "");
  std::string plots;
  for (std::size_t j = 0; j < series.size(); ++j) {
    double offset        = (static_cast<double>(j) - static_cast<double>(series.size() - 1) / 2) * width;
    auto [column, title] = series[j];
    plots += fmt::format("{}'{}.dat' using ($0{:+}):{}:({}){} with boxes {} title {}, \\\n  '' using ($0{:+}):(0):"
                         "(strcol({}) eq 'ok' || strcol({}) eq '-' ? '' : strcol({})) with labels rotate by 90 left "
                         "offset 0,0.4 tc rgb '#c00000' notitle",
                         j == 0 ? "" : ", \\\n  ", name, offset, column, width, j == 0 ? ":xtic(1)" : "",
                         series_style(j).bars(), gnuplot_quote(title), offset, column + 1, column + 1, column + 1);
  }
  plot.commands += "plot " + plots + "\n";
  return plot;
}
} // namespace

GnuplotPlot whatif_period_plot(const WhatIfStudy& study)
{
  return whatif_bar_plot(study, "whatif-period", "period (s)", "analytic and simulated period (s)", period_bars);
}

GnuplotPlot whatif_reliability_plot(const WhatIfStudy& study)
{
  return whatif_bar_plot(study, "whatif-reliability", "1 - F (analytic), survival rate (simulated)",
                         "analytic 1 - F and simulated (Monte Carlo) survival rate", reliability_bars);
}

} // namespace pipesim

// The bar charts of a what-if study: analytic and simulated figures per variant, failures labelled.
#include "validation/studies/whatif_plots.hpp"

#include <fmt/format.h>

namespace pipesim {

namespace {
/// What a chart shows of one evaluation: its analytic and its simulated bar.
using BarsOf = std::pair<BarCell, BarCell> (*)(const WhatIfFigures&);

std::pair<BarCell, BarCell> period_bars(const WhatIfFigures& f)
{
  if (f.status != WhatIfStatus::ok) return {{std::nullopt, to_string(f.status)}, {std::nullopt, to_string(f.status)}};
  BarCell simulated{f.simulated_period, f.simulated_period ? "ok" : "-"};
  if (f.verdict) simulated = {std::nullopt, "failed"};
  return {{f.analytic_period, "ok"}, simulated};
}

std::pair<BarCell, BarCell> reliability_bars(const WhatIfFigures& f)
{
  if (f.status != WhatIfStatus::ok) return {{std::nullopt, to_string(f.status)}, {std::nullopt, to_string(f.status)}};
  BarCell simulated{f.survival_rate, f.survival_rate ? "ok" : "-"};
  if (f.verdict) simulated.status = "failed";
  return {{f.reliability, "ok"}, simulated};
}

/// The groups (the baseline, then each variant) of four cells each and whether any bar is simulated (a value or a
/// failure).
std::pair<std::vector<BarGroup>, bool> whatif_bar_groups(const WhatIfStudy& study, BarsOf bars_of)
{
  std::vector<BarGroup> groups;
  bool simulated = false;
  auto group     = [&](const std::string& label, const WhatIfFigures& fixed, const WhatIfFigures& remapped) {
    BarGroup g{label, {}};
    for (const auto* f : {&fixed, &remapped}) {
      auto [analytic, sim] = bars_of(*f);
      simulated            = simulated || sim.value || sim.status == "failed";
      g.cells.push_back(analytic);
      g.cells.push_back(sim);
    }
    groups.push_back(std::move(g));
  };
  group("baseline", study.baseline, study.baseline);
  for (const auto& r : study.rows)
    group(r.variant, r.fixed, r.remapped);
  return {groups, simulated};
}

GnuplotPlot whatif_bar_plot(const WhatIfStudy& study, const std::string& name, const std::string& what,
                            const std::string& description, BarsOf bars_of)
{
  auto [groups, simulated] = whatif_bar_groups(study, bars_of);
  GnuplotPlot plot{name, "", "", 800, 560};
  plot.data                     = fmt::format("# {}.dat: {} of the baseline and each variant\n# variant, "
                                                                  "then value and status of: fixed analytic, fixed simulated, re-mapped analytic, re-mapped "
                                                                  "simulated\n# value ? = no figure; status ok, failed (the simulated run failed), removed, "
                                                                  "unreachable, infeasible, n/a, or - (not simulated)\n{}",
                                              name, description, bar_chart_rows(groups));
  std::vector<BarSeries> series = {{0, "baseline mapping kept, analytic"}, {2, "re-mapped, analytic"}};
  if (simulated)
    series = {{0, "baseline mapping kept, analytic"},
              {1, "baseline mapping kept, simulated"},
              {2, "re-mapped, analytic"},
              {3, "re-mapped, simulated"}};
  auto baseline = bars_of(study.baseline).first.value;
  plot.commands = fmt::format("set title {}\nset ylabel {}\nset yrange [0:*]\nset grid y\n"
                              "set key outside top center horizontal box\nset xtics rotate by -20\n{}",
                              gnuplot_quote(study.scenario + ": what if"), gnuplot_quote(what),
                              baseline ? fmt::format("set arrow from graph 0, first {0} to graph 1, first {0} nohead "
                                                     "dt 2\n",
                                                     *baseline)
                                       : "");
  plot.commands += bar_chart_plot(name + ".dat", groups, series);
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

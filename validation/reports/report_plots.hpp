// The report's plots as gnuplot scripts and data: scatter, error histogram, per-mapper means, survival, Gantt chart.
#pragma once

#include "validation/reports/gnuplot.hpp"
#include "validation/reports/report_data.hpp"
#include "validation/reports/report_means.hpp"

#include <optional>
#include <string>

namespace pipesim {

/// Simulated period against the analytic and the event-graph periods of the ok rows, with the line y = x; empty
/// when no row has both a simulated and an analytic period.
std::optional<GnuplotPlot> period_scatter_plot(const CampaignResults& results);

/// Histogram of the relative errors of the period (simulated vs analytic, simulated vs event graph); empty when no
/// ok row has a simulated period.
std::optional<GnuplotPlot> error_histogram_plot(const CampaignResults& results);

/// One curve per mapper and family (mapper_means): mean period against x (analytic as lines, simulated as circles
/// when present), in the series styles of gnuplot.hpp. Data blocks, one per curve in mapper_means' order, start with
/// "# mapper NAME" (" KEY=VALUE ..." appended when the curves are split by family) and hold rows
/// "x p runs mean_analytic mean_simulated" (NaN when absent). Empty when there is no x key or no ok row with a
/// numeric x.
std::optional<GnuplotPlot> mean_period_plot(const CampaignResults& results, const std::string& x_key);

/// Survival rate with its Wilson interval against 1 - F, one series per mapper, with y = x; empty when no ok row
/// has survival_rate and failure_probability.
std::optional<GnuplotPlot> survival_plot(const CampaignResults& results);

/// The time window of the Gantt chart: `periods` periods from the first event of the middle data set.
struct GanttWindow {
  double start = 0;
  double end   = 0;
};
GanttWindow gantt_window(const RunTrace& trace, int periods);

/// Receive / compute / send bars per processor over the window; empty when the trace has no event in it.
std::optional<GnuplotPlot> gantt_plot(const RunTrace& trace, int periods);

} // namespace pipesim

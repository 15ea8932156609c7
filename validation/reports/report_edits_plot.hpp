// The report's what-if chart (docs/reports.md, docs/whatif.md): the mean period of each mapper per list of platform
// edits of a campaign that sweeps `platform.edits`, the cells without figure (failed runs) labelled with the reason.
#pragma once

#include "validation/reports/gnuplot.hpp"
#include "validation/reports/report_data.hpp"

#include <optional>

namespace pipesim {

/// edits_period: one group of bars per edit list (in order of first appearance among all the rows, whatever their
/// status), in it per mapper (in order of first appearance) the mean analytic period over its runs and, when the
/// campaign simulated, the mean simulated period. A bar's runs are the rows of its edit list and mapper; a run without
/// the figure gives its reason: its status when not ok (error, timeout, crashed, infeasible), `failed` for an ok row
/// whose simulation failed (CampaignRow::simulation_failed: a link went off during the run), else `n/a`. A bar none of
/// whose runs has the figure is no bar but the red label of the reasons (joined by ","); one where only some have it
/// is the mean over those with the label "REASON k of n" on top; the label never becomes a bar equal to the baseline.
/// Data rows (bar_chart_rows): `"edits" value status` for each mapper's analytic then simulated bar, value `?`
/// without figure, status `ok`, the label, or `-` (the campaign did not simulate). Empty without the sweep.
/// Complexity: O(rows x (edit lists + mappers)).
std::optional<GnuplotPlot> edits_bar_plot(const CampaignResults& results);

} // namespace pipesim

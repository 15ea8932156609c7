// The bar charts of a what-if study (docs/whatif.md): the period and the reliability of the baseline and of each
// variant, analytic and simulated, with the evaluations that have no figure marked with the reason.
#pragma once

#include "validation/reports/gnuplot.hpp"
#include "validation/studies/whatif.hpp"

namespace pipesim {

/// whatif-period: one group of bars per row (the baseline, then each variant): the analytic period of the fixed
/// (baseline's) mapping, its simulated period, then the same for the re-mapped mapping; the simulated bars only when
/// the study simulated. A bar without a figure is labelled, in red, with the reason: `failed` (the simulated run
/// failed: a link went off during it), or the evaluation's status (removed, unreachable, infeasible, n/a); it is
/// never drawn as a bar. Data rows: `"variant" value status` for each of the four bars, value `?` without figure,
/// status `ok`, the reason, or `-` (not simulated). The dashed line is the baseline's analytic period.
GnuplotPlot whatif_period_plot(const WhatIfStudy& study);

/// whatif-reliability: the same with 1 - F (analytic) and the Monte Carlo survival rate (simulated, with a failure
/// model and simulation.runs > 1); a run whose fault-free simulation failed is labelled `failed` above its survival
/// rate.
GnuplotPlot whatif_reliability_plot(const WhatIfStudy& study);

} // namespace pipesim

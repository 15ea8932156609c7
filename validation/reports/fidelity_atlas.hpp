// The fidelity atlas of a campaign (docs/fidelity.md): how far each formula is from the simulation under each
// condition, and whether the formula's ranking of the mappings of an instance survives in simulation.
#pragma once

#include "validation/reports/gnuplot.hpp"
#include "validation/reports/report_data.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// A swept key is a condition when it changes how a mapping is simulated or evaluated, not the instance or the
/// mapping: `simulation.*`, `analytic.*` and `pipeline.variability`.
bool is_condition_key(const std::string& key);

/// Statistics of the signed relative errors (simulated - analytic) / analytic of one condition's ok rows.
struct AtlasErrors {
  int runs          = 0;
  double mean       = 0; // signed
  double median_abs = 0;
  double p95_abs    = 0; // nearest-rank quantiles of |error|
  double max_abs    = 0;
  std::vector<double> abs_quantiles; // |error| at 5, 25, 50, 75, 95 %
};

/// The rankings of one condition: per instance (the rows that share every swept value but the mapper keys `mapper`
/// and `mapper_options.seed`), Kendall's tau-b between the analytic and the simulated periods of its mappings (ties:
/// relative difference at most 1e-9), and whether the formula's best mapping is also best in simulation.
struct AtlasRankings {
  int instances     = 0; // instances with at least two ok mappings
  double mean_tau   = 0; // over the instances whose tau is defined (not every period tied)
  double min_tau    = 1;
  int tau_defined   = 0;
  int best_kept     = 0; // instances where the formula's first best is within 1e-9 of the simulated best
  double max_regret = 0; // largest simulated period of the formula's choice over the simulated best, minus 1
};

struct AtlasCondition {
  std::string label; // "key=value key=value" over the condition keys (null values left out)
  AtlasErrors errors;
  AtlasRankings rankings;
};

/// One value of one condition key, over every other condition: the main effects.
struct AtlasEffect {
  std::string key;
  std::string value;
  AtlasErrors errors;
};

struct FidelityAtlas {
  std::vector<std::string> condition_keys;
  std::vector<AtlasCondition> conditions; // in order of first appearance
  std::vector<AtlasEffect> effects;
  int excluded = 0; // rows not ok or without both periods
};

/// Kendall's tau-b of two samples of equal size (pairs tied within relative 1e-9 in either sample count as ties);
/// nullopt when one sample is entirely tied or there are fewer than two values.
std::optional<double> kendall_tau_b(const std::vector<double>& x, const std::vector<double>& y);

/// The atlas of a simulated campaign; empty conditions when it sweeps no condition key.
FidelityAtlas fidelity_atlas(const CampaignResults& results);

/// The atlas as markdown tables (conditions numbered from 1 as in the plots).
std::string fidelity_atlas_markdown(const FidelityAtlas& atlas);

/// Candlesticks of |error| per condition (5-25-50-75-95 %, log scale), and Kendall's tau per condition (mean, and the
/// share of instances whose best mapping is kept); nullopt without conditions.
std::optional<GnuplotPlot> fidelity_error_plot(const FidelityAtlas& atlas);
std::optional<GnuplotPlot> fidelity_ranking_plot(const FidelityAtlas& atlas);

} // namespace pipesim

// What-if studies (issue 7, docs/whatif.md): a scenario's baseline against edited platforms, with the baseline's
// mapping kept fixed and re-mapped by the scenario's mapper.
#pragma once

#include "base/progress.hpp"
#include "platforms/platform_edits.hpp"
#include "scenarios/scenario.hpp"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// One edited platform: a name and the edits applied after the scenario's own platform.edits.
struct WhatIfVariant {
  std::string name;
  std::vector<PlatformEdit> edits;
  std::optional<YamlNode> node; // its `edits` in the edits file (the place of a refusal about them)
};

/// An edits file: `variants: [{name: ..., edits: [...]}, ...]` (or the list alone). Errors name file, line and key.
std::vector<WhatIfVariant> load_whatif_variants(const std::string& path);
std::vector<WhatIfVariant> parse_whatif_variants(const std::string& text, const std::string& label);

/// Whether an evaluation has figures, or why not: the mapper found none, the mapping needs a pair without route, a
/// host of the baseline's mapping was removed, or nothing to do (re-mapping an explicit mapping).
enum class WhatIfStatus { ok, infeasible, unreachable, removed, not_applicable };
PIPESIM_ENUM_NAMES(WhatIfStatus, {ok, "ok"}, {infeasible, "infeasible"}, {unreachable, "unreachable"},
                   {removed, "removed"}, {not_applicable, "n/a"});

/// The figures of one evaluation (baseline, fixed or re-mapped), or the status saying why there are none, with
/// `note` saying more.
struct WhatIfFigures {
  WhatIfStatus status = WhatIfStatus::ok;
  std::string note;
  std::string mapping; // compact text
  double analytic_period  = 0;
  double analytic_latency = 0;
  double reliability      = 1; // 1 - F
  std::optional<double> simulated_period;
  std::optional<double> simulated_latency;
  std::optional<std::string> verdict;  // fault-free run's verdict when a link fails during it ("failed at t")
  std::optional<double> survival_rate; // Monte Carlo (simulation.runs > 1 with a failure model)
  std::optional<double> survival_low;  // Wilson 95 %
  std::optional<double> survival_high;
};

struct WhatIfRow {
  std::string variant;
  std::vector<AppliedEdit> edits; // the variant's edits as applied (what each matched)
  WhatIfFigures fixed;
  WhatIfFigures remapped;
};

struct WhatIfStudy {
  std::string scenario;
  std::string scenario_file;
  std::string mapper;
  std::uint64_t seed = 0;
  WhatIfFigures baseline;
  std::vector<WhatIfRow> rows;
  std::string command_line;
};

struct WhatIfOptions {
  bool simulate = true;
  int jobs      = 2;
  std::string mapper; // re-mapping mapper; default: the scenario's (required when the scenario has a mapping:)
  ProgressMode progress = ProgressMode::off; // evaluations done on stderr, in "variants" (the baseline counts as one)
};

/// Evaluates the baseline, then each variant with the baseline's mapping (by host names) and re-mapped. A variant
/// whose edits are bad (a pattern that matches nothing) is an InputError naming the edits file and line.
WhatIfStudy run_whatif(const Scenario& scenario, const std::vector<WhatIfVariant>& variants,
                       const WhatIfOptions& options);

/// `nlohmann::json j = study;` Non-finite numbers are null (validation/evaluation/result_output.hpp).
void to_json(nlohmann::json& j, const WhatIfStudy& study);
std::string whatif_table(const WhatIfStudy& study);
/// Writes DIR/whatif.json, whatif.csv, whatif.md and the bar charts whatif-period.{gp,dat,svg} and
/// whatif-reliability.{...} (SVG only when gnuplot is installed). Returns whether the SVGs were written.
bool write_whatif_files(const std::string& dir, const WhatIfStudy& study);

} // namespace pipesim

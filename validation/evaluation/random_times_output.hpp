// How a scenario run shows random operation times (DESIGN.md §3.10, docs/random-times.md): the simulated period's
// interval, the `stochastic` object (the period of the means, the max-plus run, the exponential period, the N.B.U.E.
// bracket) in the JSON documents, the table rows (the campaign columns: random_times_columns.hpp).
#pragma once

#include "base/period_estimate.hpp"
#include "base/table.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// The `stochastic` object of `pipesim map` and `simulate` (null members where a figure is missing, with its reason);
/// nothing when the run has neither a summary nor a note (deterministic laws).
std::optional<nlohmann::json> stochastic_json(const ScenarioRun& run);

/// Adds to the `simulated` object the simulated period's interval: period_ci [lo, hi] (null without an interval),
/// confidence, datasets_used, warmup_detected, batches, batch_datasets, estimate (how it was obtained or why not),
/// precision and max_datasets (with a precision). Nothing when the run has no estimate.
void add_simulated_estimate(nlohmann::json& simulated, const ScenarioRun& run);

/// The figures table's rows: period of the means, max-plus and exponential periods, each against the simulated
/// period when there is one.
void add_stochastic_rows(Table& t, const ScenarioRun& run, std::optional<double> simulated);
/// The lines under the figures table: the simulated interval, the max-plus interval, why the exponential period is
/// missing or not this execution's, the bracket (and whether the simulated interval meets it).
std::string stochastic_text(const ScenarioRun& run);

/// The simulated interval if there is one, else the max-plus one: what the N.B.U.E. bracket is checked against.
const PeriodEstimate* checked_estimate(const ScenarioRun& run);

} // namespace pipesim

// The campaign columns of random operation times (DESIGN.md §3.10, docs/random-times.md): a scenario run's simulated
// interval, max-plus and exponential periods and N.B.U.E. bracket in its campaign row.
#pragma once

#include "validation/campaigns/campaign_row.hpp"
#include "validation/evaluation/scenario_run.hpp"

namespace pipesim {

/// Campaign columns (empty cells without random times): simulated_period_ci_low/high, simulated_datasets,
/// simulated_warmup, deterministic_period, maxplus_period, maxplus_ci_low/high, exponential_period,
/// exponential_states, nbue_applies, nbue_holds (validation/campaigns/campaign_row.hpp).
void add_stochastic_columns(CampaignRow& row, const ScenarioRun& run);

} // namespace pipesim

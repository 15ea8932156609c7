// The campaign columns of a run that re-maps during the stream (issue 34 item 5, docs/dynamic.md "The experiment"):
// its policy, re-maps, downtime, the load changes it saw and the data sets it output by a horizon.
#pragma once

#include "validation/campaigns/campaign_row.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// The horizon H of a scenario's text: platform.profiles.generate.horizon (the date until which load epochs are
/// drawn), or nullopt when the scenario draws none.
std::optional<double> generated_horizon(const std::string& scenario_yaml);

/// How many of the output times are <= h (output times increase: the outputs are in order).
std::uint64_t datasets_by(const std::vector<double>& output_times, double h);

/// For a simulated run of a scenario with `dynamic:`: policy, dynamic_mapper, remaps, downtime (the sum of the
/// re-maps'), load_changes (the dates in (0, H) at which some profile changes a value; H = `horizon` or, without
/// one, the makespan), makespan and, with a horizon, horizon, datasets_by_horizon and mean_period = H over them.
/// Nothing for other runs.
void fill_dynamic_columns(CampaignRow& row, const ScenarioRun& run, std::optional<double> horizon);

} // namespace pipesim

// One campaign run executed (in a worker process) and its result row, as JSON and as CSV.
#pragma once

#include "validation/campaign.hpp"
#include "validation/run_status.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pipesim {

/// Maps (and in simulate mode simulates) one run and returns its row. Never throws for bad input: an InputError
/// becomes status "error" with the message; an infeasible mapper result becomes status "infeasible". When
/// `trace_file` is not empty the simulation records its event trace there.
nlohmann::json execute_run(const Campaign& campaign, const CampaignRun& run, const std::string& trace_file);

/// The row of a run that produced none: status "crashed" or "timeout" with the reason.
nlohmann::json failed_row(const Campaign& campaign, const CampaignRun& run, RunStatus status, const std::string& reason,
                          double wall_seconds);

/// CSV: fixed columns (in elections mode followed by elections_columns()), the timing columns
/// (timing.mapper_seconds, timing.wall_seconds, in elections mode elections_timing_columns(): row["timing"]), then one
/// "param:<key>" column per swept key.
std::vector<std::string> csv_columns(const std::vector<std::string>& swept, CampaignMode mode = CampaignMode::simulate);
std::string csv_header(const std::vector<std::string>& columns);
std::string csv_line(const nlohmann::json& row, const std::vector<std::string>& columns);

/// A row written before the timing rule (docs/reports.md "Determinism") had mapper_seconds, wall_seconds,
/// milp_seconds and heuristics_seconds at its top level: moves them under row["timing"] (rows already in the current
/// form are left as they are). Resume and merge read old results.jsonl files through it (result_files.hpp).
void upgrade_legacy_timing(nlohmann::json& row);

} // namespace pipesim

// The campaign table of bbr10's period after crashes (issue 36): the rows' Monte Carlo series against P_max, pooled by
// worst case and platform size (period_after_crashes.hpp measures one series).
#pragma once

#include "validation/reports/report_data.hpp"

#include <string>

namespace pipesim {

/// Contract.
/// - Rows: the campaign's rows with a Monte Carlo series against P_max (after_crash_measured), grouped by whether
///   the mapping's worst-case bound (`worst_case_bound`, what the heuristics' worst-case test compares; else
///   `worst_case_period`) is above P_max (accepted only by the paper's all-alive test: the worst-case test refuses
///   it) or not, and by the swept `platform.generate.p`.
/// - Per group: mappings, measured runs, runs above P_max with the Wilson 95 % interval of their share, the runs
///   ending with an interval down to one replica and those of them above P_max (Wilson 95 %), the largest period /
///   P_max. The runs of a group's mappings are pooled: the share is over runs, each mapping counting by its runs.
/// - Returns the Markdown table with a title; empty when no row has such a series.
std::string period_after_crashes_markdown(const CampaignResults& results);

} // namespace pipesim

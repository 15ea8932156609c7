// One campaign run executed (in a worker process, or in the runner's own for analytic runs) into its row.
#pragma once

#include "scenarios/campaign.hpp"
#include "validation/campaigns/campaign_row.hpp"
#include "validation/campaigns/run_status.hpp"

#include <string>

namespace pipesim {

/// Maps (and in simulate mode simulates) one run and returns its row. Never throws for bad input: an InputError
/// becomes status "error" with the message; an infeasible mapper result becomes status "infeasible". When
/// `trace_file` is not empty the simulation records its event trace there.
CampaignRow execute_run(const Campaign& campaign, const CampaignRun& run, const std::string& trace_file);

/// The row of a run that produced none: status "crashed" or "timeout" with the reason.
CampaignRow failed_row(const Campaign& campaign, const CampaignRun& run, RunStatus status, const std::string& reason,
                       double wall_seconds);

} // namespace pipesim

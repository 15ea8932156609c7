// What refuses a scenario before anything runs: its mapper, the analytic evaluators and the simulator, each on what it
// cannot handle, in `map`, `simulate`, `hedpm-trace` and `campaign` alike (issue 31: `map` exited 2 on a problem a
// campaign ran to an `error` row per run and exit 0).
#pragma once

#include "mappers/mapper.hpp"
#include "model/mapping.hpp"
#include "scenarios/campaign.hpp"
#include "scenarios/scenario.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// InputError about `mapper` (keyed: its line, or the option that chose it, from Scenario::sources; "key 'mapper':
/// value 'NAME': mapper 'NAME' cannot handle this problem: ...") when the mapper refuses the problem
/// (Mapper::refuses: the registry's metadata, mappers/mapper_info.hpp, then the mapper's own limits).
void check_mapper(const Scenario& scenario, const Problem& problem);

/// The re-mapping policy's own mapper (`dynamic.mapper`, when given and the policy re-maps), checked as check_mapper
/// before the simulation starts: unknown or refusing `problem`, an InputError about `dynamic.mapper`.
void check_dynamic_mapper(const Scenario& scenario, const Problem& problem);

/// What the evaluators cannot handle, found before they run, as InputError at the scenario's line: in `mapping` (the
/// explicit one before any mapper runs, or the one a mapper returned) data-parallel groups outside a task chain (the
/// pipeline's formulas, event graph and simulator take one processor per replica); with `simulate`, failures with a
/// task chain (modules and programs are simulated without failures) and, in `mapping`, deal replication with an
/// election policy other than `first` (the policies elect among active replicas).
void check_evaluators(const Scenario& scenario, const std::optional<Mapping>& mapping, bool simulate);

/// Runs `ids` of `campaign` checked as their workers would check them before mapping and simulating (the problem
/// built on the run's platform, check_mapper, check_evaluators with the explicit mapping; simulator checks in mode
/// simulate), before any worker starts: InputError naming the campaign file, the first refused run (id and swept
/// values), the reason, and how a sweep leaves combinations out (docs/campaigns.md, "Combinations a mapper does not
/// take"). Platforms are built once per distinct `platform` section (an XML file is loaded in a child process).
void check_campaign_runs(const Campaign& campaign, const std::vector<int>& ids);

} // namespace pipesim

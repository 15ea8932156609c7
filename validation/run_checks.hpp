// What refuses a scenario before anything runs: its mapper, the analytic evaluators and the simulator, each on what it
// cannot handle, in `map`, `simulate`, `hedpm-trace` and `campaign` alike (issue 31: `map` exited 2 on a problem a
// campaign ran to an `error` row per run and exit 0).
#pragma once

#include "mappers/mapper.hpp"
#include "model/mapping.hpp"
#include "scenarios/scenario.hpp"
#include "validation/campaign.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// Why mapper `name` does not take `problem`, or nullopt (InputError for an unknown name). The one place that asks a
/// mapper (mapper metadata will replace its body, issue 32): the mapper's own Mapper::refuses, and a problem with a
/// task chain for a mapper that does not read it. A task chain's problem carries a stand-in pipeline of w = 0 and
/// delta = 0 (task_chain_pipeline); a mapper that maps it without the chain maps a problem of zeros, which the
/// chain's evaluator (seed 001 §2.2) then prices (issue 31: `map --mapper hedpm` printed 2.24 on a chain whose
/// HeDPM trace was all zeros). Until the registry knows it, a mapper reads the chain when it refuses the same
/// problem without it; the `explicit` mapper evaluates a chain's mapping by seed 001.
std::optional<std::string> mapper_refusal(const std::string& name, const Problem& problem);

/// InputError at `scenario`'s mapper line ("key 'mapper': value 'NAME': mapper 'NAME' cannot handle this problem:
/// ...") when mapper_refusal(scenario.mapper, problem) refuses.
void check_mapper(const Scenario& scenario, const Problem& problem);

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

// The refusals of a scenario before anything runs (run_checks.hpp).
#include "validation/evaluation/run_checks.hpp"

#include "base/input_error.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <fmt/format.h>
#include <map>
#include <set>
#include <yaml-cpp/yaml.h>

namespace pipesim {

void check_mapper(const Scenario& scenario, const Problem& problem)
{
  // the mapper's metadata and its own limits (Mapper::refuses), about `mapper` (its line, or the --mapper option that
  // chose it: Scenario::sources), or `mapping` for the explicit mapper
  auto why = MapperRegistry::instance().create(scenario.mapper)->refuses(problem);
  if (!why) return;
  const std::string message = fmt::format("mapper '{}' cannot handle this problem: {}", scenario.mapper, *why);
  throw scenario.mapper == explicit_mapper_name ? InputError::keyed("mapping", message)
                                                : InputError::keyed("mapper", scenario.mapper, message);
}

void check_dynamic_mapper(const Scenario& scenario, const Problem& problem)
{
  if (!scenario.dynamic || scenario.dynamic->mapper.empty() ||
      scenario.dynamic->policy == RemapPolicyKind::static_mapping)
    return;
  const std::string& name = scenario.dynamic->mapper;
  std::optional<std::string> why;
  try {
    why = mapper_refusal(name, problem);
  } catch (const InputError& e) { // an unknown name: the registry's refusal is about `mapper`, this one the policy's
    throw InputError::keyed("dynamic.mapper", name, e.message());
  }
  if (why) throw InputError::keyed("dynamic.mapper", name, *why);
}

void check_evaluators(const Scenario& scenario, const std::optional<Mapping>& mapping, bool simulate)
{
  const SimulationSettings& s = scenario.simulation;
  if (simulate && scenario.task_chain && (s.failures.enabled() || !s.crashes.empty()))
    throw InputError::keyed("simulation.failures", s.failures.model,
                            "seed 001's modules (task_chain) are simulated without failures; remove "
                            "simulation.failures");
  if (!mapping) return;
  if (!scenario.task_chain && mapping->data_parallel()) // a mapper's mapping: at the mapper (SourceMap's stand-in)
    throw InputError::keyed(first_group_key(*mapping),
                            "a data-parallel processor group is a seed 001 module instance, which only a task_chain "
                            "has; the pipeline's formulas, event graph and simulator take one processor per replica");
  const ElectionPolicy election = s.failures.election;
  if (simulate && mapping->has_deal() && election != ElectionPolicy::first && election != ElectionPolicy::first_alive)
    throw InputError::keyed("simulation.failures.election", election,
                            fmt::format("this policy elects among active replicas only (seed 004), and {} deals its "
                                        "data sets (replication: deal); use 'first'",
                                        first_deal_key(*mapping)));
}

namespace {
/// The run's platform: a YAML one as parsed, an XML file loaded once per distinct `platform` section of the runs.
Platform run_platform(Scenario& s, const CampaignRun& run, std::map<std::string, Platform>& loaded)
{
  if (s.platform.kind == PlatformSpec::Kind::model && s.platform.options.empty())
    return std::move(s.platform.model); // no copy: the check needs the scenario's platform no more
  if (s.platform.kind == PlatformSpec::Kind::model) return model_platform(s.platform);
  YAML::Emitter key;
  key << YAML::Load(run.scenario_yaml)["platform"];
  auto it = loaded.find(key.c_str());
  if (it == loaded.end()) it = loaded.emplace(key.c_str(), load_platform(s)).first;
  return it->second;
}
} // namespace

void check_campaign_runs(const Campaign& campaign, const std::vector<int>& ids)
{
  std::map<std::string, Platform> platforms;
  std::set<int> selected(ids.begin(), ids.end());
  for (const CampaignRun& run : campaign.runs) {
    if (!selected.count(run.id)) continue;
    try {
      Scenario s = run_scenario(campaign, run); // its refusals: the campaign's (or base scenario's) lines
      for_scenario(s, [&] {
        Problem problem = scenario_problem(s, run_platform(s, run, platforms));
        check_mapper(s, problem);
        check_evaluators(s, problem.explicit_mapping, campaign.mode == CampaignMode::simulate);
        if (campaign.mode == CampaignMode::simulate) check_dynamic_mapper(s, problem);
      });
    } catch (InputError& e) {
      InputError::Fields f         = e.fields();
      const std::string parameters = run.describe(); // empty for the one run of a campaign without a sweep
      f.message = fmt::format("run {}{} cannot run: {}; every run of a campaign must be one its mapper and evaluators "
                              "take: leave the others out of the sweep, e.g. with a `zip` of the values that go "
                              "together (docs/campaigns.md, \"Combinations a mapper does not take\")",
                              run.id, parameters.empty() ? "" : " (" + parameters + ")", f.message);
      e.reset(std::move(f));
      throw;
    }
  }
}

} // namespace pipesim

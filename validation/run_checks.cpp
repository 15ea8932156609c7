// The refusals of a scenario before anything runs (run_checks.hpp).
#include "validation/run_checks.hpp"

#include "base/input_error.hpp"
#include "validation/scenario_run.hpp"

#include <fmt/format.h>
#include <map>
#include <set>
#include <yaml-cpp/yaml.h>

namespace pipesim {

void check_mapper(const Scenario& scenario, const Problem& problem)
{
  // the mapper's metadata and its own limits (Mapper::refuses); the reason alone, placed at the mapper's line
  auto why = MapperRegistry::instance().create(scenario.mapper)->refuses(problem);
  if (!why) return;
  if (!scenario.mapper_option.empty())
    throw InputError(fmt::format("{} {} (command line): mapper '{}' cannot handle the problem of {}: {}",
                                 scenario.mapper_option, scenario.mapper, scenario.mapper, scenario.file, *why));
  const char* key   = scenario.mapper == explicit_mapper_name ? "mapping" : "mapper";
  std::string value = scenario.mapper == explicit_mapper_name ? "" : fmt::format("value '{}': ", scenario.mapper);
  throw InputError(located(
      scenario.file, scenario.mapper_line,
      fmt::format("key '{}': {}mapper '{}' cannot handle this problem: {}", key, value, scenario.mapper, *why)));
}

namespace {
[[noreturn]] void refuse(const Scenario& scenario, int line, const std::string& message)
{
  throw InputError(located(scenario.file, line, message));
}

/// The first replica of several processors, as "interval j (stages a-b): replica r".
std::optional<std::string> first_group(const Mapping& mapping)
{
  for (int j = 0; j < mapping.m(); ++j)
    for (std::size_t r = 0; r < mapping.interval(j).replicas.size(); ++r)
      if (mapping.interval(j).replicas[r].size() > 1)
        return fmt::format("interval {} (stages {}-{}) has replica {} of {} processors", j + 1,
                           mapping.interval(j).first, mapping.interval(j).last, r + 1,
                           mapping.interval(j).replicas[r].size());
  return std::nullopt;
}
} // namespace

void check_evaluators(const Scenario& scenario, const std::optional<Mapping>& mapping, bool simulate)
{
  const SimulationSettings& s = scenario.simulation;
  if (simulate && scenario.task_chain && (s.failures.enabled() || !s.crashes.empty()))
    refuse(scenario, scenario.failures_line,
           fmt::format("key 'simulation.failures': value '{}': seed 001's modules (task_chain) are simulated without "
                       "failures; remove simulation.failures",
                       s.failures.model));
  if (!mapping) return;
  if (!scenario.task_chain)
    if (auto group = first_group(*mapping))
      refuse(scenario, scenario.mapper_line,
             fmt::format("key '{}': {}: a data-parallel group is a seed 001 module instance, which only a task_chain "
                         "has; the pipeline's formulas, event graph and simulator take one processor per replica",
                         scenario.mapper == explicit_mapper_name ? "mapping" : "mapper", *group));
  const ElectionPolicy election = s.failures.election;
  if (simulate && mapping->has_deal() && election != ElectionPolicy::first && election != ElectionPolicy::first_alive)
    refuse(scenario, scenario.failures_line,
           fmt::format("key 'simulation.failures.election': value '{}': the policies elect among active replicas (seed "
                       "004), and this mapping deals its data sets (replication: deal); use 'first'",
                       election));
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
      Scenario s =
          parse_scenario(run.scenario_yaml, fmt::format("{} (run {})", campaign.file, run.id), campaign.scenario_dir);
      Problem problem = scenario_problem(s, run_platform(s, run, platforms));
      check_mapper(s, problem);
      check_evaluators(s, problem.explicit_mapping, campaign.mode == CampaignMode::simulate);
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: run {} ({}) cannot run: {}; every run of a campaign must be one its mapper and "
                                   "evaluators take: leave the others out of the sweep, e.g. with a `zip` of the "
                                   "values that go together (docs/campaigns.md, \"Combinations a mapper does not "
                                   "take\")",
                                   campaign.file, run.id, run.describe(), e.what()));
    }
  }
}

} // namespace pipesim

// The re-mapping columns of a campaign row, from a simulated run and its scenario's horizon.
#include "validation/campaigns/dynamic_columns.hpp"

#include "platforms/profile.hpp"

#include <algorithm>
#include <yaml-cpp/yaml.h>

namespace pipesim {

std::optional<double> generated_horizon(const std::string& scenario_yaml)
{
  try {
    YAML::Node h = YAML::Load(scenario_yaml)["platform"]["profiles"]["generate"]["horizon"];
    if (h && h.IsScalar()) return h.as<double>();
  } catch (const YAML::Exception&) { // the scenario's own parse reports bad input; here: no horizon
  }
  return std::nullopt;
}

std::uint64_t datasets_by(const std::vector<double>& output_times, double h)
{
  return static_cast<std::uint64_t>(std::upper_bound(output_times.begin(), output_times.end(), h) -
                                    output_times.begin());
}

void fill_dynamic_columns(CampaignRow& row, const ScenarioRun& run, std::optional<double> horizon)
{
  if (!run.scenario.dynamic || !run.simulated) return;
  const DynamicSpec& d        = *run.scenario.dynamic;
  const SimulationResult& sim = *run.simulated;
  row.policy                  = std::string(to_string(d.policy));
  row.dynamic_mapper          = d.mapper.empty() ? run.scenario.mapper : d.mapper;
  row.remaps                  = static_cast<int>(sim.remaps.size());
  double downtime             = 0;
  for (const RemapRecord& r : sim.remaps)
    downtime += r.downtime;
  row.downtime     = downtime;
  row.makespan     = sim.makespan;
  const double end = horizon.value_or(sim.makespan);
  row.load_changes = static_cast<int>(profile_change_dates(run.platform, end).size());
  if (!horizon) return;
  row.horizon             = *horizon;
  row.datasets_by_horizon = datasets_by(sim.output_times, *horizon);
  row.mean_period = *row.datasets_by_horizon > 0 ? RowNumber(*horizon / static_cast<double>(*row.datasets_by_horizon))
                                                 : RowNumber::null();
}

} // namespace pipesim

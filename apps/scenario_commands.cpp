// `pipesim map`, `simulate`, `hedpm-trace` and `mappers`.
#include "apps/scenario_commands.hpp"

#include "apps/cli_options.hpp"
#include "base/input_error.hpp"
#include "mappers/mapper.hpp"
#include "validation/evaluation/run_checks.hpp"
#include "validation/evaluation/scenario_run.hpp"
#include "validation/studies/hedpm_trace.hpp"

#include <climits>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace pipesim {

Command add_map_command(CLI::App& app, const Invocation& invocation)
{
  auto o    = std::make_shared<MapOptions>();
  auto* map = app.add_subcommand("map", "Map a scenario: mapping, status, analytic period, latency, F, event graph");
  add_scenario_argument(map, o->scenario);
  add_mapper_option(map, o->overrides.mapper);
  add_precision_option(map, o->overrides.precision,
                       "With pipeline.variability: run the max-plus recurrence until its period's 95 % interval has "
                       "this relative half-width (overrides simulation.precision)");
  add_format_option(map, o->format);
  return {map, [o, &invocation] { return run_map(*o, invocation); }};
}

int run_map(const MapOptions& o, const Invocation& invocation)
{
  ScenarioRun run  = map_scenario(scenario_with_overrides(o.scenario, o.overrides, invocation.simgrid_args));
  run.command_line = invocation.command_line;
  print(run, o.format, std::cout);
  return 0;
}

Command add_simulate_command(CLI::App& app, const Invocation& invocation)
{
  auto o    = std::make_shared<SimulateOptions>();
  auto* sim = app.add_subcommand(
      "simulate", "Map, then simulate in SimGrid and compare with the analytic figures; with simulation.failures, also "
                  "a crash run (verdict, crashes, periods before and after) and, with simulation.runs > 1, the Monte "
                  "Carlo survival rate against 1 - F");
  ScenarioOverrides& v = o->overrides;
  add_scenario_argument(sim, o->scenario);
  add_mapper_option(sim, v.mapper);
  add_datasets_option(sim, v.datasets);
  sim->add_option("--warmup", v.warmup, "Warm-up K (default N/2)")->check(integer_in(0, INT_MAX));
  add_precision_option(sim, v.precision,
                       "Simulate until the period's 95 % interval (batch means after the detected warm-up) has this "
                       "relative half-width, N data sets first, then doubling, up to simulation.max_datasets "
                       "(overrides simulation.precision)");
  add_enum_option<NetworkMode>(sim, "--network", v.network, "Network mode");
  add_seed_option(sim, v.seed);
  sim->add_flag("--trace", v.trace, "Record the event trace (in the JSON output: needs --format json)");
  add_runs_option(sim, v.runs);
  add_jobs_option(sim, o->jobs);
  add_quiet_option(sim, o->quiet);
  add_format_option(sim, o->format);
  return {sim, [o, &invocation] { return run_simulate(*o, invocation); }};
}

int run_simulate(const SimulateOptions& o, const Invocation& invocation)
{
  if (o.overrides.trace && o.format != OutputFormat::json)
    throw InputError::option("--trace", "the event trace is printed in the JSON output only; add --format json");
  Scenario s = scenario_with_overrides(o.scenario, o.overrides, invocation.simgrid_args);
  require_work_for_jobs(o.jobs, s);
  s.simulation.progress = progress_mode(o.quiet); // data sets of each run, then Monte Carlo runs
  ScenarioRun run       = map_scenario(s);
  run.command_line      = invocation.command_line;
  simulate_run(run, jobs_or_cores(o.jobs));
  print(run, o.format, std::cout);
  return 0;
}

Command add_hedpm_trace_command(CLI::App& app)
{
  auto o      = std::make_shared<HedpmTraceOptions>();
  auto* trace = app.add_subcommand(
      "hedpm-trace", "HeDPM on a scenario's instance, iteration by iteration as seed 002 Table 2 (sorted lists, "
                     "Tideal, matches, Tmatch), then HeDPM-scan's runs and the one it keeps (docs/hedpm.md)");
  add_scenario_argument(trace, o->scenario, "Scenario YAML file (its mapper is not used)");
  add_format_option(trace, o->format);
  return {trace, [o] { return run_hedpm_trace(*o); }};
}

int run_hedpm_trace(const HedpmTraceOptions& o)
{
  Scenario s        = load_scenario(o.scenario);
  Platform platform = load_platform(s);
  Problem problem; // HeDPM on the scenario's own problem: its model, objective and task chain
  problem.pipeline  = s.pipeline;
  problem.platform  = platform;
  problem.model     = s.simulation.model;
  problem.objective = s.objective;
  if (s.task_chain) problem.task_chain = s.task_chain->chain;
  for_scenario(s, [&] {
    // the refusal is about the task chain when there is one, else about the model (HeDPM is one-port)
    if (auto why = mapper_refusal("hedpm", problem))
      throw s.task_chain
          ? InputError::keyed("task_chain", fmt::format("hedpm-trace: {}", *why))
          : InputError::keyed("simulation.model", s.simulation.model, fmt::format("hedpm-trace: {}", *why));
    if (o.format == OutputFormat::json)
      std::cout << hedpm_trace_json(s.pipeline, platform).dump(2) << "\n";
    else
      std::cout << hedpm_trace_table(s.pipeline, platform);
  });
  return 0;
}

Command add_mappers_command(CLI::App& app)
{
  auto o        = std::make_shared<MappersOptions>();
  auto* mappers = app.add_subcommand("mappers", "List the registered mappers by paper and family, with what each one "
                                                "accepts, whether it is exact and its complexity");
  add_format_option(mappers, o->format);
  return {mappers, [o] { return run_mappers(*o); }};
}

int run_mappers(const MappersOptions& o)
{
  std::vector<MapperInfo> infos = MapperRegistry::instance().infos(); // in listing order
  if (o.format != OutputFormat::json) {
    std::cout << mapper_listing(infos);
    return 0;
  }
  nlohmann::json list = nlohmann::json::array();
  for (const MapperInfo& info : infos)
    list.push_back(to_json(info));
  std::cout << list.dump(2) << "\n";
  return 0;
}

} // namespace pipesim

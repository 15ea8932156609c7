// `pipesim pareto` and `whatif`.
#include "apps/study_commands.hpp"

#include "base/input_error.hpp"
#include "validation/campaigns/output_directory.hpp"
#include "validation/evaluation/scenario_run.hpp"
#include "validation/studies/pareto.hpp"
#include "validation/studies/whatif.hpp"

#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace pipesim {

namespace {

/// The period bounds to sweep: --bounds, else --from/--to/--steps, else the scenario's own period_bound.
std::vector<double> pareto_bounds(const ParetoCommandOptions& o, const Scenario& s)
{
  if (!o.bounds.empty()) return o.bounds;
  if (o.sweep) return pareto_linear_bounds(o.from, o.to, o.steps); // refuses what it cannot sweep, never ignores it
  if (s.objective.kind == Objective::Kind::min_failure_probability) return {s.objective.period_bound};
  throw InputError::keyed("objective.period_bound", "missing: no period bound to sweep: give --bounds or --from, --to "
                                                    "and --steps, or a period_bound in the scenario's objective");
}

/// pareto's --bounds, --from, --to and --steps: --from needs --to and --steps and excludes --bounds; --steps is an
/// integer in [1, max_pareto_bounds] (pareto_linear_bounds checks the rest once all three are read).
void add_pareto_bound_options(CLI::App* pareto, ParetoCommandOptions& o)
{
  auto* bounds =
      pareto->add_option("--bounds", o.bounds, "Period bounds P_max, comma-separated (each > 0)")->delimiter(',');
  auto* from = pareto->add_option("--from", o.from, "First P_max of an evenly spaced sweep");
  from->each([&o](const std::string&) { o.sweep = true; });
  auto* to    = pareto->add_option("--to", o.to, "Last P_max of the sweep");
  auto* steps = pareto
                    ->add_option("--steps", o.steps,
                                 "Number of bounds from --from to --to inclusive (1 when --from equals --to; default "
                                 "without --bounds: the scenario's period_bound alone)")
                    ->check(integer_in(1, max_pareto_bounds, "each bound runs every mapper"));
  from->needs(to)->needs(steps)->excludes(bounds);
  to->needs(from);
  steps->needs(from);
}

} // namespace

Command add_pareto_command(CLI::App& app, const Invocation& invocation)
{
  auto o       = std::make_shared<ParetoCommandOptions>();
  auto* pareto = app.add_subcommand(
      "pareto", "Sweep the period bound P_max (seed 004): the failure probability F each mapper reaches at each bound, "
                "with the exact fronts of bbr10.exhaustive and bbr10.exhaustive.interval when the instance is within "
                "their limits (docs/pareto.md)");
  add_scenario_argument(
      pareto, o->scenario,
      "Scenario YAML file (multi-port; its mapper is not used, its period_bound is the default bound)");
  pareto
      ->add_option("--mappers", o->mappers,
                   "Mappers to compare, comma-separated (default: every registered mapper that accepts the problem, "
                   "except explicit and debug.*); the exact mappers are always added when they accept it")
      ->delimiter(',');
  add_pareto_bound_options(pareto, *o);
  add_seed_option(pareto, o->seed, "Mapper seed (overrides mapper_options.seed)");
  add_quiet_option(pareto, o->quiet);
  add_out_option(pareto, o->out_dir, "Also write DIR/pareto.json, pareto.dat, pareto.gp and, with gnuplot, pareto.svg");
  add_format_option(pareto, o->format);
  return {pareto, [o, &invocation] { return run_pareto(*o, invocation); }};
}

int run_pareto(const ParetoCommandOptions& o, const Invocation& invocation)
{
  if (!o.out_dir.empty()) // before the sweep: its results must have somewhere to go
    require_output_directory(o.out_dir,
                             {.option = "--out", .command = "pipesim pareto", .writes = DirectoryKind::pareto});
  require_distinct("--mappers", o.mappers);
  Scenario s = load_scenario(o.scenario);
  if (o.seed >= 0) {
    s.mapper_options.seed = static_cast<std::uint64_t>(o.seed);
    s.sources.add_option("mapper_options.seed", "--seed", std::to_string(o.seed));
  }
  ParetoOptions po;
  po.mappers      = o.mappers;
  po.command_line = invocation.command_line;
  po.bounds       = for_scenario(s, [&] { return pareto_bounds(o, s); });
  po.progress     = progress_mode(o.quiet);
  check_pareto_bounds(po.bounds);
  ParetoSweep sweep = pareto_sweep(s, load_platform(s), po);
  if (o.format == OutputFormat::json)
    std::cout << nlohmann::json(sweep).dump(2) << "\n";
  else
    std::cout << pareto_table(sweep);
  if (!o.out_dir.empty()) {
    bool svg = write_pareto_files(o.out_dir, sweep);
    std::cerr << fmt::format("pipesim: wrote {0}/pareto.json, {0}/pareto.dat, {0}/pareto.gp{1}\n", o.out_dir,
                             svg ? fmt::format(" and {}/pareto.svg", o.out_dir) : " (gnuplot not found: no SVG)");
  }
  return 0;
}

Command add_whatif_command(CLI::App& app, const Invocation& invocation)
{
  auto o       = std::make_shared<WhatIfCommandOptions>();
  auto* whatif = app.add_subcommand(
      "whatif", "What-if study (docs/whatif.md): evaluate the scenario, then each variant of its platform from the "
                "edits file, with the baseline's mapping kept and re-mapped: analytic and simulated period, latency, "
                "1 - F and survival, and the change from the baseline");
  ScenarioOverrides& v = o->overrides;
  add_scenario_argument(whatif, o->scenario);
  whatif->add_option("--edits", o->edits_file, "Edits file: variants: [{name: ..., edits: [...]}, ...]")->required();
  add_mapper_option(whatif, v.mapper,
                    "Mapper of the re-mapping (needed when the scenario gives its mapping); it also maps the baseline "
                    "unless the scenario gives its mapping");
  auto* no_simulate = whatif->add_flag("--no-simulate", o->no_simulate, "Analytic figures only");
  // what only the simulations use has no effect without them
  no_simulate->excludes(add_datasets_option(whatif, v.datasets));
  no_simulate->excludes(add_runs_option(whatif, v.runs));
  add_seed_option(whatif, v.seed);
  no_simulate->excludes(add_jobs_option(whatif, o->jobs));
  add_quiet_option(whatif, o->quiet);
  add_out_option(whatif, o->out_dir, "Also write DIR/whatif.json, whatif.csv, whatif.md and bar charts (gnuplot SVG)");
  add_format_option(whatif, o->format);
  return {whatif, [o, &invocation] { return run_whatif_command(*o, invocation); }};
}

int run_whatif_command(const WhatIfCommandOptions& o, const Invocation& invocation)
{
  if (!o.out_dir.empty()) // before the study: its results must have somewhere to go
    require_output_directory(o.out_dir,
                             {.option = "--out", .command = "pipesim whatif", .writes = DirectoryKind::whatif});
  ScenarioOverrides base = o.overrides;
  base.mapper.clear(); // --mapper re-maps the variants; the baseline keeps the scenario's mapping or mapper
  Scenario s = scenario_with_overrides(o.scenario, base, invocation.simgrid_args);
  require_work_for_jobs(o.jobs, s);
  WhatIfOptions wo;
  wo.mapper   = o.overrides.mapper;
  wo.simulate = !o.no_simulate;
  wo.jobs     = jobs_or_cores(o.jobs);
  wo.progress = progress_mode(o.quiet);
  if (!wo.mapper.empty() && !s.mapping) { // the baseline is mapped by --mapper too, unless it gives its mapping
    s.mapper = wo.mapper;
    s.sources.add_option("mapper", "--mapper", wo.mapper);
  }
  WhatIfStudy study  = run_whatif(s, load_whatif_variants(o.edits_file), wo);
  study.command_line = invocation.command_line;
  if (o.format == OutputFormat::json)
    std::cout << nlohmann::json(study).dump(2) << "\n";
  else
    std::cout << whatif_table(study);
  if (!o.out_dir.empty()) {
    bool svg = write_whatif_files(o.out_dir, study);
    std::cerr << fmt::format("pipesim: wrote {0}/whatif.json, whatif.csv, whatif.md{1}\n", o.out_dir,
                             svg ? " and the bar charts whatif-period.svg, whatif-reliability.svg"
                                 : " (gnuplot not found: no SVG)");
  }
  return 0;
}

} // namespace pipesim

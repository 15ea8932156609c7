// The `pipesim` command line: map, simulate, list mappers, inspect and export platforms, campaigns, what-if.
#include "apps/campaign_slurm.hpp"
#include "apps/cli_enums.hpp"
#include "apps/platform_command.hpp"
#include "base/input_error.hpp"
#include "mappers/mapper.hpp"
#include "scenarios/scenario.hpp"
#include "validation/campaign.hpp"
#include "validation/campaign_runner.hpp"
#include "validation/hedpm_trace.hpp"
#include "validation/pareto.hpp"
#include "validation/report.hpp"
#include "validation/scenario_run.hpp"
#include "validation/slurm_scripts.hpp"
#include "validation/whatif.hpp"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <xbt/base.h> // before simgrid/version.h, which uses its SG_BEGIN_DECL without including it

#include <simgrid/version.h>

using namespace pipesim;

namespace {

struct Options {
  std::string scenario;
  OutputFormat format = OutputFormat::table;
  std::string mapper;
  int datasets = 0;
  int warmup   = -1;
  std::optional<NetworkMode> network;
  long long seed = -1;
  int runs       = 0; // Monte Carlo runs (overrides simulation.runs)
  bool trace     = false;
  std::string file;
  std::string in_name  = "io";
  std::string out_name = "io";
  std::vector<std::string> hosts; // platform info --hosts
  std::string output;
  std::vector<std::string> simgrid_args;
  std::string command_line;
  // campaigns
  std::string campaign;
  std::string out_dir;
  int jobs    = 0;
  bool resume = false;
  std::string shard;
  std::vector<int> only;
  bool quiet = false;
  std::vector<std::string> dirs;
  std::string x_axis;
  // pareto
  std::vector<std::string> mapper_list;
  std::vector<double> bounds;
  double from = 0, to = 0;
  int steps = 0;
  // whatif
  std::string edits_file;
  bool no_simulate = false;
};

Scenario scenario_with_overrides(const Options& o)
{
  Scenario s = load_scenario(o.scenario);
  if (!o.mapper.empty()) {
    s.mapper = o.mapper;
    s.mapping.reset();
  }
  if (o.datasets > 0) {
    s.simulation.datasets = o.datasets;
    if (s.simulation.warmup >= o.datasets) s.simulation.warmup = -1;
  }
  if (o.warmup >= 0) {
    if (o.warmup >= s.simulation.datasets)
      throw InputError(
          fmt::format("--warmup {}: must be below the number of data sets ({})", o.warmup, s.simulation.datasets));
    s.simulation.warmup = o.warmup;
  }
  if (o.network) s.simulation.network = *o.network;
  if (o.seed >= 0) s.simulation.seed = static_cast<std::uint64_t>(o.seed);
  if (o.trace) s.simulation.record_trace = true;
  if (o.runs > 0) {
    if (!s.simulation.failures.enabled())
      throw InputError(fmt::format("--runs {}: {} has no failure model (simulation.failures): every run would be the "
                                   "same",
                                   o.runs, s.file));
    s.simulation.runs = o.runs;
  }
  s.simulation.simgrid_args.insert(s.simulation.simgrid_args.end(), o.simgrid_args.begin(), o.simgrid_args.end());
  return s;
}

/// --jobs, or the number of cores when not given.
int jobs_or_cores(int jobs)
{
  return jobs > 0 ? jobs : static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
}

int run_map(const Options& o)
{
  ScenarioRun run  = map_scenario(scenario_with_overrides(o));
  run.command_line = o.command_line;
  print(run, o.format == OutputFormat::json ? ResultFormat::json : ResultFormat::table, std::cout);
  return 0;
}

int run_simulate(const Options& o)
{
  ScenarioRun run  = map_scenario(scenario_with_overrides(o));
  run.command_line = o.command_line;
  simulate_run(run, jobs_or_cores(o.jobs));
  print(run, o.format == OutputFormat::json ? ResultFormat::json : ResultFormat::table, std::cout);
  return 0;
}

/// Seed 002 Table 2 for the scenario's instance (its mapper and mapping are not used).
int run_hedpm_trace(const Options& o)
{
  Scenario s        = load_scenario(o.scenario);
  Platform platform = load_platform(s);
  if (o.format == OutputFormat::json)
    std::cout << hedpm_trace_json(s.pipeline, platform).dump(2) << "\n";
  else
    std::cout << hedpm_trace_table(s.pipeline, platform);
  return 0;
}

int run_mappers(const Options& o)
{
  auto& registry      = MapperRegistry::instance();
  nlohmann::json list = nlohmann::json::array();
  for (const auto& name : registry.names()) {
    auto mapper = registry.create(name);
    if (o.format == OutputFormat::json)
      list.push_back({{"name", name}, {"description", mapper->description()}});
    else
      std::cout << fmt::format("{:<24} {}\n", name, mapper->description());
  }
  if (o.format == OutputFormat::json) std::cout << list.dump(2) << "\n";
  return 0;
}

int run_campaign_command(const Options& o)
{
  require_campaign_arguments(o.campaign, o.out_dir);
  if (!o.simgrid_args.empty())
    throw InputError("campaign: --cfg/--log options go in the campaign's base scenario (simulation.simgrid)");
  Campaign campaign = load_campaign(o.campaign);
  RunnerOptions r;
  r.out_dir      = o.out_dir;
  r.jobs         = o.jobs;
  r.resume       = o.resume;
  r.only         = o.only;
  r.quiet        = o.quiet;
  r.command_line = o.command_line;
  if (!o.shard.empty()) {
    auto slash = o.shard.find('/');
    try {
      if (slash == std::string::npos) throw std::invalid_argument("no slash");
      r.shard_index = std::stoi(o.shard.substr(0, slash)) - 1;
      r.shard_count = std::stoi(o.shard.substr(slash + 1));
    } catch (const std::logic_error&) {
      throw InputError(fmt::format("--shard {}: expected i/N, e.g. 3/10", o.shard));
    }
  }
  RunnerSummary s = run_campaign(campaign, r);
  std::cerr << fmt::format("pipesim: campaign '{}': {} runs, {} selected, {} already done, {} run now, {} failed; "
                           "results in {}/results.csv\n",
                           campaign.name, s.total, s.selected, s.skipped, s.executed, s.failures, o.out_dir);
  return 0;
}

int run_pareto(const Options& o)
{
  Scenario s = load_scenario(o.scenario);
  if (o.seed >= 0) s.mapper_options.seed = static_cast<std::uint64_t>(o.seed);
  ParetoOptions po;
  po.mappers      = o.mapper_list;
  po.command_line = o.command_line;
  if (!o.bounds.empty())
    po.bounds = o.bounds;
  else if (o.steps > 0)
    po.bounds = pareto_linear_bounds(o.from, o.to, o.steps);
  else if (s.objective.kind == Objective::Kind::min_failure_probability)
    po.bounds = {s.objective.period_bound};
  else
    throw InputError(fmt::format("{}: no period bound to sweep: give --bounds or --from, --to and --steps (the "
                                 "scenario's objective has no period_bound)",
                                 s.file));
  check_pareto_bounds(po.bounds);
  ParetoSweep sweep = pareto_sweep(s, load_platform(s), po);
  if (o.format == OutputFormat::json)
    std::cout << pareto_json(sweep).dump(2) << "\n";
  else
    std::cout << pareto_table(sweep);
  if (!o.out_dir.empty()) {
    bool svg = write_pareto_files(o.out_dir, sweep);
    std::cerr << fmt::format("pipesim: wrote {0}/pareto.json, {0}/pareto.dat, {0}/pareto.gp{1}\n", o.out_dir,
                             svg ? fmt::format(" and {}/pareto.svg", o.out_dir) : " (gnuplot not found: no SVG)");
  }
  return 0;
}

int run_whatif_command(const Options& o)
{
  Options base = o;
  base.mapper.clear(); // --mapper re-maps the variants; the baseline keeps the scenario's mapping or mapper
  Scenario s = scenario_with_overrides(base);
  WhatIfOptions wo;
  wo.mapper   = o.mapper;
  wo.simulate = !o.no_simulate;
  wo.jobs     = jobs_or_cores(o.jobs);
  if (!wo.mapper.empty() && !s.mapping) { // the baseline is mapped by --mapper too, unless it gives its mapping
    s.mapper = wo.mapper;
  }
  WhatIfStudy study  = run_whatif(s, load_whatif_variants(o.edits_file), wo);
  study.command_line = o.command_line;
  if (o.format == OutputFormat::json)
    std::cout << whatif_json(study).dump(2) << "\n";
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

/// The command line as a shell reads it back (each word quoted when needed), for the files that record it.
std::string join(int argc, char** argv)
{
  std::string out;
  for (int i = 0; i < argc; ++i)
    out += (i ? " " : "") + shell_quote(argv[i]);
  return out;
}

/// `pipesim --version`: pipesim's version, the git commit it was configured from, the SimGrid library it runs with.
std::string version_text()
{
  int major = 0;
  int minor = 0;
  int patch = 0;
  sg_version_get(&major, &minor, &patch);
  return fmt::format("pipesim {} (git commit {})\nSimGrid {}.{}.{}", PIPESIM_VERSION, PIPESIM_GIT_COMMIT, major, minor,
                     patch);
}

} // namespace

int main(int argc, char** argv)
{
  Options o;
  o.command_line = join(argc, argv);
  // SimGrid's own --cfg= and --log= options pass through to every simulation.
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (i > 0 && (a.rfind("--cfg=", 0) == 0 || a.rfind("--log=", 0) == 0))
      o.simgrid_args.push_back(a);
    else
      args.push_back(argv[i]);
  }

  CLI::App app{"pipesim: map pipelined applications onto heterogeneous platforms, compute their analytic period, "
               "latency and failure probability, and check them by SimGrid simulation.\n"
               "SimGrid options --cfg=... and --log=... are passed to every simulation.\n"
               "Exit codes: 0 success, 2 bad input, 1 internal error."};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text);
  auto format = [&](CLI::App* c) { add_enum_option<OutputFormat>(c, "--format", o.format, "Output format"); };
  auto* map   = app.add_subcommand("map", "Map a scenario: mapping, status, analytic period, latency, F, event graph");
  map->add_option("scenario", o.scenario, "Scenario YAML file")->required();
  map->add_option("--mapper", o.mapper, "Use this mapper instead of the scenario's");
  format(map);

  auto* sim = app.add_subcommand(
      "simulate", "Map, then simulate in SimGrid and compare with the analytic figures; with simulation.failures, also "
                  "a crash run (verdict, crashes, periods before and after) and, with simulation.runs > 1, the Monte "
                  "Carlo survival rate against 1 - F");
  sim->add_option("scenario", o.scenario, "Scenario YAML file")->required();
  sim->add_option("--mapper", o.mapper, "Use this mapper instead of the scenario's");
  sim->add_option("--datasets", o.datasets, "Number of data sets N (overrides simulation.datasets)")
      ->check(CLI::PositiveNumber);
  sim->add_option("--warmup", o.warmup, "Warm-up K (default N/2)")->check(CLI::NonNegativeNumber);
  add_enum_option<NetworkMode>(sim, "--network", o.network, "Network mode");
  sim->add_option("--seed", o.seed, "Seed (overrides simulation.seed)")->check(CLI::NonNegativeNumber);
  sim->add_flag("--trace", o.trace, "Record the event trace (JSON output)");
  sim->add_option("--runs", o.runs, "Monte Carlo crash runs (overrides simulation.runs; needs a failure model)")
      ->check(CLI::PositiveNumber);
  sim->add_option("--jobs", o.jobs, "Processes running Monte Carlo runs at once (default: the number of cores)")
      ->check(CLI::PositiveNumber);
  format(sim);

  auto* trace = app.add_subcommand(
      "hedpm-trace", "HeDPM on a scenario's instance, iteration by iteration as seed 002 Table 2 (sorted lists, "
                     "Tideal, matches, Tmatch), then HeDPM-scan's runs and the one it keeps (docs/hedpm.md)");
  trace->add_option("scenario", o.scenario, "Scenario YAML file (its mapper is not used)")->required();
  format(trace);

  auto* mappers = app.add_subcommand("mappers", "List the registered mappers");
  format(mappers);

  auto* platform = app.add_subcommand("platform", "Inspect or export platforms");
  platform->require_subcommand(1);
  auto* info = platform->add_subcommand("info", "Show a platform: a SimGrid XML file or a scenario's platform");
  info->add_option("file", o.file, "SimGrid XML file or scenario YAML file")->required();
  info->add_option("--in", o.in_name, "XML: host acting as P_in (default io)");
  info->add_option("--out", o.out_name, "XML: host acting as P_out (default io)");
  info->add_option("--hosts", o.hosts,
                   "XML: select the processors (platform.hosts), one item per option: a glob over host names "
                   "('ash1-*'), zone:NAME (the hosts of a zone) or regex:EXPR (whole host name)");
  format(info);
  auto* exp = platform->add_subcommand("export", "Write a scenario's platform as SimGrid XML");
  exp->add_option("scenario", o.scenario, "Scenario YAML file")->required();
  exp->add_option("-o,--output", o.output, "Output XML file")->required();

  auto* camp = app.add_subcommand("campaign", "Run a campaign: sweeps of scenarios in worker processes");
  camp->add_option("file", o.campaign, "Campaign YAML file (required)");
  camp->add_option("--out", o.out_dir, "Output directory (required)");
  camp->add_option("--jobs,-j", o.jobs, "Worker processes (default: number of cores)")->check(CLI::PositiveNumber);
  camp->add_flag("--resume", o.resume, "Continue an interrupted campaign: skip completed runs");
  camp->add_option("--shard", o.shard, "Run shard i of N (i/N, 1 <= i <= N): runs whose id mod N is i-1");
  camp->add_option("--only", o.only, "Run only these run ids (rerun single rows)")->delimiter(',');
  camp->add_flag("--quiet,-q", o.quiet, "No progress on stderr");
  CampaignSlurmOptions slurm;
  add_campaign_slurm_options(camp, slurm);

  auto* merge =
      app.add_subcommand("merge", "Join shard outputs of one campaign, checking no run is missing or doubled");
  merge->add_option("dirs", o.dirs, "Shard output directories")->required();
  merge->add_option("--out", o.out_dir, "Merged output directory")->required();

  auto* pareto = app.add_subcommand(
      "pareto", "Sweep the period bound P_max (seed 004): the failure probability F each mapper reaches at each bound, "
                "with the exact fronts of bbr10.exhaustive and bbr10.exhaustive.interval when the instance is within "
                "their limits (docs/pareto.md)");
  pareto
      ->add_option("scenario", o.scenario,
                   "Scenario YAML file (multi-port; its mapper is not used, its period_bound is the default bound)")
      ->required();
  pareto
      ->add_option("--mappers", o.mapper_list,
                   "Mappers to compare, comma-separated (default: every registered mapper that accepts the problem, "
                   "except explicit and debug.*); the exact mappers are always added when they accept it")
      ->delimiter(',');
  auto* bounds =
      pareto->add_option("--bounds", o.bounds, "Period bounds P_max, comma-separated (each > 0)")->delimiter(',');
  auto* from  = pareto->add_option("--from", o.from, "First P_max of an evenly spaced sweep");
  auto* to    = pareto->add_option("--to", o.to, "Last P_max of the sweep");
  auto* steps = pareto->add_option("--steps", o.steps,
                                   "Number of bounds from --from to --to (default without --bounds: the "
                                   "scenario's period_bound alone)");
  from->needs(to)->needs(steps)->excludes(bounds);
  to->needs(from);
  steps->needs(from);
  pareto->add_option("--seed", o.seed, "Mapper seed (overrides mapper_options.seed)")->check(CLI::NonNegativeNumber);
  pareto->add_option("--out", o.out_dir,
                     "Also write DIR/pareto.json, pareto.dat, pareto.gp and, with gnuplot, pareto.svg");
  format(pareto);

  auto* whatif = app.add_subcommand(
      "whatif", "What-if study (docs/whatif.md): evaluate the scenario, then each variant of its platform from the "
                "edits file, with the baseline's mapping kept and re-mapped: analytic and simulated period, latency, "
                "1 - F and survival, and the change from the baseline");
  whatif->add_option("scenario", o.scenario, "Scenario YAML file")->required();
  whatif->add_option("--edits", o.edits_file, "Edits file: variants: [{name: ..., edits: [...]}, ...]")->required();
  whatif->add_option("--mapper", o.mapper,
                     "Mapper of the re-mapping (needed when the scenario gives its mapping); it also maps the baseline "
                     "unless the scenario gives its mapping");
  whatif->add_flag("--no-simulate", o.no_simulate, "Analytic figures only");
  whatif->add_option("--datasets", o.datasets, "Number of data sets N (overrides simulation.datasets)")
      ->check(CLI::PositiveNumber);
  whatif->add_option("--runs", o.runs, "Monte Carlo crash runs (overrides simulation.runs; needs a failure model)")
      ->check(CLI::PositiveNumber);
  whatif->add_option("--seed", o.seed, "Seed (overrides simulation.seed)")->check(CLI::NonNegativeNumber);
  whatif->add_option("--jobs", o.jobs, "Processes running Monte Carlo runs at once (default: the number of cores)")
      ->check(CLI::PositiveNumber);
  whatif->add_option("--out", o.out_dir,
                     "Also write DIR/whatif.json, whatif.csv, whatif.md and bar charts (gnuplot SVG)");
  format(whatif);

  auto* report = app.add_subcommand("report", "Write DIR/report.html with SVG plots (gnuplot) of a campaign");
  report->add_option("dir", o.out_dir, "Campaign output directory")->required();
  report->add_option("--x", o.x_axis, "Swept key for the x axis of the per-mapper curves");

  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    if (*map) return run_map(o);
    if (*sim) return run_simulate(o);
    if (*trace) return run_hedpm_trace(o);
    if (*mappers) return run_mappers(o);
    if (*info) return platform_info(o.file, o.in_name, o.out_name, o.format, o.hosts);
    if (*exp) return platform_export(o.scenario, o.output);
    if (*camp && *slurm.status) return run_campaign_status(slurm);
    if (*camp && slurm.slurm) return run_campaign_slurm(slurm, o.campaign, o.out_dir, o.command_line);
    if (*camp) return run_campaign_command(o);
    if (*pareto) return run_pareto(o);
    if (*whatif) return run_whatif_command(o);
    if (*merge) {
      merge_campaign_outputs(o.dirs, o.out_dir);
      std::cerr << fmt::format("pipesim: merged {} directories into {}\n", o.dirs.size(), o.out_dir);
      return 0;
    }
    if (*report) {
      ReportOptions ro;
      ro.x_key = o.x_axis;
      write_report(o.out_dir, ro);
      std::cerr << fmt::format("pipesim: wrote {}/report.html\n", o.out_dir);
      if (std::filesystem::exists(o.out_dir + "/elections-table.md"))
        std::cerr << fmt::format("pipesim: wrote {0}/elections-table.md and {0}/elections-table.csv\n", o.out_dir);
      if (std::filesystem::exists(o.out_dir + "/reliability-tables.md"))
        std::cerr << fmt::format("pipesim: wrote {}/reliability-tables.md (seed 004 Tables 2 and 3)\n", o.out_dir);
      if (std::filesystem::exists(o.out_dir + "/hedpm-tables.md"))
        std::cerr << fmt::format("pipesim: wrote {}/hedpm-tables.md (seed 002 Figs. 1-3)\n", o.out_dir);
      return 0;
    }
  } catch (const InputError& e) {
    std::cerr << "pipesim: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "pipesim: internal error: " << e.what() << "\n";
    return 1;
  }
  return 1;
}

// The `pipesim` command line: map, simulate, list mappers, inspect and export platforms.
#include "apps/platform_command.hpp"
#include "mappers/mapper.hpp"
#include "platforms/input_error.hpp"
#include "scenarios/scenario.hpp"
#include "validation/scenario_run.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <nlohmann/json.hpp>

using namespace pipesim;

namespace {

struct Options {
  std::string scenario;
  std::string format = "table";
  std::string mapper;
  int datasets = 0;
  int warmup   = -1;
  std::string network;
  long long seed = -1;
  bool trace     = false;
  std::string file;
  std::string in_name  = "io";
  std::string out_name = "io";
  std::string output;
  std::vector<std::string> simgrid_args;
  std::string command_line;
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
  if (!o.network.empty()) s.simulation.network = o.network == "exact" ? NetworkMode::exact : NetworkMode::simgrid;
  if (o.seed >= 0) s.simulation.seed = static_cast<std::uint64_t>(o.seed);
  if (o.trace) s.simulation.record_trace = true;
  s.simulation.simgrid_args.insert(s.simulation.simgrid_args.end(), o.simgrid_args.begin(), o.simgrid_args.end());
  return s;
}

int run_map(const Options& o)
{
  ScenarioRun run  = map_scenario(scenario_with_overrides(o));
  run.command_line = o.command_line;
  if (o.format == "json")
    std::cout << map_json(run).dump(2) << "\n";
  else
    std::cout << map_table(run);
  return 0;
}

int run_simulate(const Options& o)
{
  ScenarioRun run  = map_scenario(scenario_with_overrides(o));
  run.command_line = o.command_line;
  simulate_run(run);
  if (o.format == "json")
    std::cout << simulate_json(run).dump(2) << "\n";
  else
    std::cout << simulate_table(run);
  return 0;
}

int run_mappers(const Options& o)
{
  auto& registry      = MapperRegistry::instance();
  nlohmann::json list = nlohmann::json::array();
  for (const auto& name : registry.names()) {
    auto mapper = registry.create(name);
    if (o.format == "json")
      list.push_back({{"name", name}, {"description", mapper->description()}});
    else
      std::cout << fmt::format("{:<24} {}\n", name, mapper->description());
  }
  if (o.format == "json") std::cout << list.dump(2) << "\n";
  return 0;
}

std::string join(int argc, char** argv)
{
  std::string out;
  for (int i = 0; i < argc; ++i)
    out += (i ? " " : "") + std::string(argv[i]);
  return out;
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
  auto format = [&](CLI::App* c) {
    c->add_option("--format", o.format, "Output format")->check(CLI::IsMember({"table", "json"}));
  };
  auto* map = app.add_subcommand("map", "Map a scenario: mapping, status, analytic period, latency, F, event graph");
  map->add_option("scenario", o.scenario, "Scenario YAML file")->required();
  map->add_option("--mapper", o.mapper, "Use this mapper instead of the scenario's");
  format(map);

  auto* sim = app.add_subcommand("simulate", "Map, then simulate in SimGrid and compare with the analytic figures");
  sim->add_option("scenario", o.scenario, "Scenario YAML file")->required();
  sim->add_option("--mapper", o.mapper, "Use this mapper instead of the scenario's");
  sim->add_option("--datasets", o.datasets, "Number of data sets N (overrides simulation.datasets)")
      ->check(CLI::PositiveNumber);
  sim->add_option("--warmup", o.warmup, "Warm-up K (default N/2)")->check(CLI::NonNegativeNumber);
  sim->add_option("--network", o.network, "Network mode")->check(CLI::IsMember({"exact", "simgrid"}));
  sim->add_option("--seed", o.seed, "Seed (overrides simulation.seed)")->check(CLI::NonNegativeNumber);
  sim->add_flag("--trace", o.trace, "Record the event trace (JSON output)");
  format(sim);

  auto* mappers = app.add_subcommand("mappers", "List the registered mappers");
  format(mappers);

  auto* platform = app.add_subcommand("platform", "Inspect or export platforms");
  platform->require_subcommand(1);
  auto* info = platform->add_subcommand("info", "Show a platform: a SimGrid XML file or a scenario's platform");
  info->add_option("file", o.file, "SimGrid XML file or scenario YAML file")->required();
  info->add_option("--in", o.in_name, "XML: host acting as P_in (default io)");
  info->add_option("--out", o.out_name, "XML: host acting as P_out (default io)");
  format(info);
  auto* exp = platform->add_subcommand("export", "Write a scenario's platform as SimGrid XML");
  exp->add_option("scenario", o.scenario, "Scenario YAML file")->required();
  exp->add_option("-o,--output", o.output, "Output XML file")->required();

  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    if (*map) return run_map(o);
    if (*sim) return run_simulate(o);
    if (*mappers) return run_mappers(o);
    if (*info) return platform_info(o.file, o.in_name, o.out_name, o.format);
    if (*exp) return platform_export(o.scenario, o.output);
  } catch (const InputError& e) {
    std::cerr << "pipesim: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "pipesim: internal error: " << e.what() << "\n";
    return 1;
  }
  return 1;
}

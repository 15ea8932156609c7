// `pipesim map`, `simulate`, `hedpm-trace` and `mappers`: one scenario, mapped, simulated or traced.
#pragma once

#include "apps/cli_options.hpp"

namespace pipesim {

struct MapOptions {
  std::string scenario;
  ScenarioOverrides overrides; // --mapper only
  OutputFormat format = OutputFormat::table;
};
Command add_map_command(CLI::App& app, const Invocation& invocation);
/// Prints the mapping, its status and analytic figures (`print`, validation/evaluation/scenario_run.hpp).
int run_map(const MapOptions& o, const Invocation& invocation);

struct SimulateOptions {
  std::string scenario;
  ScenarioOverrides overrides;
  int jobs            = 0;
  bool quiet          = false; // no progress line on stderr
  OutputFormat format = OutputFormat::table;
};
Command add_simulate_command(CLI::App& app, const Invocation& invocation);
/// Maps, simulates and prints the result (`print`, validation/evaluation/scenario_run.hpp).
int run_simulate(const SimulateOptions& o, const Invocation& invocation);

struct HedpmTraceOptions {
  std::string scenario;
  OutputFormat format = OutputFormat::table;
};
Command add_hedpm_trace_command(CLI::App& app);
/// hedpm Table 2 for the scenario's instance (its mapper and mapping are not used).
int run_hedpm_trace(const HedpmTraceOptions& o);

struct MappersOptions {
  OutputFormat format = OutputFormat::table;
};
Command add_mappers_command(CLI::App& app);
/// Lists the registered mappers with their descriptions.
int run_mappers(const MappersOptions& o);

} // namespace pipesim

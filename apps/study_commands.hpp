// `pipesim pareto` and `whatif`: studies of one scenario over period bounds or platform variants.
#pragma once

#include "apps/cli_options.hpp"

namespace pipesim {

struct ParetoCommandOptions {
  std::string scenario;
  std::vector<std::string> mappers;
  std::vector<double> bounds;
  double from    = 0;
  double to      = 0;
  int steps      = 0;
  bool sweep     = false; // --from given (with --to and --steps): the bounds are the sweep's, whatever its values
  long long seed = -1;    // overrides mapper_options.seed
  bool quiet     = false; // no progress line on stderr
  std::string out_dir;
  OutputFormat format = OutputFormat::table;
};
Command add_pareto_command(CLI::App& app, const Invocation& invocation);
/// Sweeps the period bound and prints the fronts (pareto_table, or its JSON); with --out, also writes the files.
int run_pareto(const ParetoCommandOptions& o, const Invocation& invocation);

struct WhatIfCommandOptions {
  std::string scenario;
  std::string edits_file;
  ScenarioOverrides overrides; // --mapper re-maps the variants (and maps the baseline unless it gives its mapping)
  bool no_simulate = false;
  int jobs         = 0;
  bool quiet       = false; // no progress line on stderr
  std::string out_dir;
  OutputFormat format = OutputFormat::table;
};
Command add_whatif_command(CLI::App& app, const Invocation& invocation);
/// Evaluates the baseline and each variant and prints whatif_table, or its JSON; with --out, also writes the files.
int run_whatif_command(const WhatIfCommandOptions& o, const Invocation& invocation);

} // namespace pipesim

// `pipesim fit`: sv95 §5's response functions fitted from sample executions (validation/studies/fit_run.hpp).
#pragma once

#include "apps/cli_options.hpp"

namespace pipesim {

struct FitCommandOptions {
  std::string scenario;
  ScenarioOverrides overrides; // --mapper, --datasets, --seed
  std::string out;             // the fitted scenario YAML (none when empty)
  int samples         = 8;
  bool no_simulate    = false;
  bool quiet          = false;
  OutputFormat format = OutputFormat::table;
};
Command add_fit_command(CLI::App& app, const Invocation& invocation);
/// Fits, writes --out, maps on the fit, simulates that mapping and prints predicted against simulated.
int run_fit(const FitCommandOptions& o, const Invocation& invocation);

} // namespace pipesim

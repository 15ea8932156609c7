// `pipesim fit` (fit_command.hpp).
#include "apps/fit_command.hpp"

#include "base/input_error.hpp"
#include "validation/campaigns/output_directory.hpp"
#include "validation/studies/fit_run.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace pipesim {

Command add_fit_command(CLI::App& app, const Invocation& invocation)
{
  auto o    = std::make_shared<FitCommandOptions>();
  auto* fit = app.add_subcommand(
      "fit", "Seed 001 section 5: fit each task's f_exec, f_icom and f_ecom (C1 + C2/p + C3 p, and the 5-term f_ecom) "
             "by least squares over sample executions, print coefficients and residuals, write the fitted scenario "
             "(--out), then map on the fit and simulate that mapping: predicted against simulated (docs/sv95.md)");
  add_scenario_argument(fit, o->scenario, "Scenario YAML file with a task_chain");
  add_mapper_option(fit, o->overrides.mapper);
  auto* datasets = add_datasets_option(fit, o->overrides.datasets);
  add_seed_option(fit, o->overrides.seed);
  fit->add_option("--out", o->out, "Write the scenario with the fitted functions to this YAML file");
  fit->add_option("--samples", o->samples,
                  "Sample executions per function, 5 to 64 (default 8, as seed 001; f_ecom has 5 coefficients)")
      ->check(integer_in(5, 64));
  fit->add_flag("--no-simulate", o->no_simulate, "Map on the fit without simulating the mapping")
      ->excludes(datasets); // the samples do not use it: only the simulation of the mapping does
  add_quiet_option(fit, o->quiet);
  add_format_option(fit, o->format);
  return {fit, [o, &invocation] { return run_fit(*o, invocation); }};
}

int run_fit(const FitCommandOptions& o, const Invocation& invocation)
{
  if (!o.out.empty()) { // before the work: a folder that is not there is bad input, not a lost fit
    std::filesystem::path dir = std::filesystem::absolute(o.out).parent_path();
    if (!std::filesystem::is_directory(dir) || ::access(dir.c_str(), W_OK) != 0)
      throw InputError::option(
          "--out", o.out,
          fmt::format("cannot write the fitted scenario there ({} is not a writable folder)", dir.string()));
    require_output_file(o.out, "--out"); // not among a campaign's or a study's files
  }
  Scenario s            = scenario_with_overrides(o.scenario, o.overrides, invocation.simgrid_args);
  s.simulation.progress = progress_mode(o.quiet);
  FitOptions options;
  options.samples  = o.samples;
  options.simulate = !o.no_simulate;
  FitRun run       = fit_scenario(s, options);
  if (!o.out.empty()) write_fitted_scenario(run, o.out);
  print(run, o.format, std::cout);
  return 0;
}

} // namespace pipesim

// `pipesim fit`: sv95 §5's fitting of a task chain's response functions from sample executions, then the mapping
// chosen on the fit, simulated: predicted against simulated throughput (the paper's Table 2; docs/sv95.md, "Fitting").
#pragma once

#include "model/sv95/fit.hpp"
#include "scenarios/scenario.hpp"
#include "validation/evaluation/result_output.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

namespace pipesim {

/// Where the samples come from.
enum class FitSource {
  functions, ///< the chain's own functions (tables or polynomials): fits polynomials to given values
  program    ///< each sample a SimGrid run of the tasks' programs (parallel tasks) on the scenario's platform
};
PIPESIM_ENUM_NAMES(FitSource, {functions, "functions"}, {program, "program"});

struct FitOptions {
  int samples   = 8;    // per function (sv95 §5: "8 executions")
  bool map      = true; // map the fitted chain with the scenario's mapper
  bool simulate = true; // ... and simulate that mapping
};

struct FitRun {
  Scenario scenario; // the scenario as given
  Platform platform;
  FitSource source = FitSource::functions;
  FittedChain fit;
  std::optional<ScenarioRun> mapped; // the scenario with the fitted functions, mapped (and simulated)
};

/// Samples every function of the scenario's task chain (fit_plan on the platform's P), fits them, then maps the
/// scenario with the fitted chain and simulates that mapping (with the programs when there are, so the prediction of
/// the fit meets a measurement). InputError when the scenario has no task_chain.
FitRun fit_scenario(const Scenario& scenario, const FitOptions& options);

/// The scenario YAML with each task's exec, icom and ecom replaced by its fitted [C1, C2, C3] / [C1, ..., C5] (every
/// other key as given; the platform `file` as file_reference writes it: as given when it names the platform from
/// `path`'s folder, else absolute), headed by a
/// comment naming the source and the largest residual. Throws InputError when the file cannot be written.
void write_fitted_scenario(const FitRun& run, const std::string& path);

/// What `pipesim fit` prints: per function its coefficients and residuals, then the predicted and simulated period and
/// throughput of the mapping chosen on the fit.
std::string fit_table(const FitRun& run);
void to_json(nlohmann::json& j, const FitRun& run);
void print(const FitRun& run, ResultFormat format, std::ostream& out);

} // namespace pipesim

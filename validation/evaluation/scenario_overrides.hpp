// Changes to a loaded scenario's mapper and simulation settings, as the command line's options (`map`, `simulate`,
// `whatif`, `fit`) and the Python module's keyword arguments (python/) give them.
#pragma once

#include "scenarios/scenario.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// What may change in a scenario after loading it; an unset member (0, -1, empty) changes nothing. Messages name the
/// command line's options (--datasets, --warmup, --runs, ...), which the Python keywords mirror.
struct ScenarioOverrides {
  std::string mapper;
  int datasets = 0;
  int warmup   = -1;
  std::optional<NetworkMode> network;
  long long seed   = -1;
  int runs         = 0; // Monte Carlo runs (overrides simulation.runs)
  bool trace       = false;
  double precision = 0; // > 0: overrides simulation.precision
};

/// Applies the overrides and SimGrid's --cfg/--log arguments to `s`; InputError when an override does not fit the
/// scenario (--warmup not below N or beside a precision, N above simulation.max_datasets, --runs without a failure
/// model, a malformed SimGrid argument).
void apply_overrides(Scenario& s, const ScenarioOverrides& o, const std::vector<std::string>& simgrid_args);

/// An InputError when --jobs was given (`jobs` > 0) but `s` runs no Monte Carlo series (simulation.runs <= 1 or no
/// failure model): its simulations run one after the other in one process, so --jobs would change nothing.
void require_work_for_jobs(int jobs, const Scenario& s);

} // namespace pipesim

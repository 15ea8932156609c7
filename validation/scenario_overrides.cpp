// Overrides of a loaded scenario (command-line options, Python keyword arguments).
#include "validation/scenario_overrides.hpp"

#include "base/input_error.hpp"
#include "simulator/simgrid_options.hpp"

#include <fmt/format.h>

namespace pipesim {
namespace {

/// --precision and --warmup: a precision detects the warm-up (MSER-5), so the two exclude each other.
void apply_precision_override(Scenario& s, const ScenarioOverrides& o)
{
  if (o.precision > 0) {
    if (o.warmup >= 0)
      throw InputError(fmt::format("--warmup {} and --precision {} do not go together: with a precision the warm-up is "
                                   "detected (MSER-5, docs/random-times.md)",
                                   o.warmup, o.precision));
    s.simulation.precision = o.precision;
    s.simulation.warmup    = -1; // detected
  } else if (o.warmup >= 0 && s.simulation.precision > 0)
    throw InputError(fmt::format("--warmup {}: {} has simulation.precision {}, whose warm-up is detected (MSER-5, "
                                 "docs/random-times.md)",
                                 o.warmup, s.file, s.simulation.precision));
  if (s.simulation.max_datasets > 0 && s.simulation.max_datasets < s.simulation.datasets)
    throw InputError(fmt::format("--datasets {}: above simulation.max_datasets = {} of {} (the run looks at its "
                                 "interval after N data sets first)",
                                 s.simulation.datasets, s.simulation.max_datasets, s.file));
}

} // namespace

void apply_overrides(Scenario& s, const ScenarioOverrides& o, const std::vector<std::string>& simgrid_args)
{
  if (!o.mapper.empty()) {
    s.mapper        = o.mapper;
    s.mapper_option = "--mapper"; // where a refusal of the mapper points
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
  apply_precision_override(s, o);
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
  for (const std::string& arg : simgrid_args)
    if (auto error = simgrid_argument_error(arg)) throw InputError(fmt::format("{} (command line): {}", arg, *error));
  s.simulation.simgrid_args.insert(s.simulation.simgrid_args.end(), simgrid_args.begin(), simgrid_args.end());
}

void require_work_for_jobs(int jobs, const Scenario& s)
{
  if (jobs > 0 && !(s.simulation.failures.enabled() && s.simulation.runs > 1))
    throw InputError(fmt::format("--jobs {}: {} runs no Monte Carlo series (it needs a failure model and "
                                 "simulation.runs > 1, or --runs R): its simulations run one after the other, so "
                                 "--jobs would change nothing",
                                 jobs, s.file));
}

} // namespace pipesim

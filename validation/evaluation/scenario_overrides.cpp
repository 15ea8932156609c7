// Overrides of a loaded scenario (command-line options, Python keyword arguments).
#include "validation/evaluation/scenario_overrides.hpp"

#include "base/input_error.hpp"
#include "simulator/simgrid_options.hpp"

#include <fmt/format.h>

namespace pipesim {
namespace {

/// Each key an option sets is the option's from here on (a refusal about it names the option: SourceMap).
template <class Value>
void set_by_option(Scenario& s, const char* key, const char* option, const Value& value)
{
  s.sources.add_option(key, option, fmt::format("{}", value));
}

/// --precision and --warmup: a precision detects the warm-up (MSER-5), so the two exclude each other.
void apply_precision_override(Scenario& s, const ScenarioOverrides& o)
{
  if (o.precision > 0) {
    if (o.warmup >= 0)
      throw InputError::option("--precision", o.precision,
                               fmt::format("does not go together with --warmup {}: with a precision the warm-up is "
                                           "detected (MSER-5, docs/random-times.md)",
                                           o.warmup));
    s.simulation.precision = o.precision;
    s.simulation.warmup    = -1; // detected
    set_by_option(s, "simulation.precision", "--precision", o.precision);
  } else if (o.warmup >= 0 && s.simulation.precision > 0)
    throw InputError::option("--warmup", o.warmup,
                             fmt::format("{} has simulation.precision {}, whose warm-up is detected (MSER-5, "
                                         "docs/random-times.md)",
                                         s.file, s.simulation.precision));
  if (s.simulation.max_datasets > 0 && s.simulation.max_datasets < s.simulation.datasets)
    throw InputError::option("--datasets", s.simulation.datasets,
                             fmt::format("above simulation.max_datasets = {} of {} (the run looks at its interval "
                                         "after N data sets first)",
                                         s.simulation.max_datasets, s.file));
}

} // namespace

void apply_overrides(Scenario& s, const ScenarioOverrides& o, const std::vector<std::string>& simgrid_args)
{
  auto set_by = [&s](const char* key, const char* option, const auto& value) { set_by_option(s, key, option, value); };
  if (!o.mapper.empty()) {
    s.mapper = o.mapper;
    s.mapping.reset();
    set_by("mapper", "--mapper", o.mapper);
    s.sources.add_stand_in("mapping", "mapper");
  }
  if (o.datasets > 0) {
    s.simulation.datasets = o.datasets;
    if (s.simulation.warmup >= o.datasets) s.simulation.warmup = -1;
    set_by("simulation.datasets", "--datasets", o.datasets);
  }
  if (o.warmup >= 0) {
    if (o.warmup >= s.simulation.datasets)
      throw InputError::option("--warmup", o.warmup,
                               fmt::format("must be below the number of data sets ({})", s.simulation.datasets));
    s.simulation.warmup = o.warmup;
    set_by("simulation.warmup", "--warmup", o.warmup);
  }
  if (o.network) {
    s.simulation.network = *o.network;
    set_by("simulation.network", "--network", *o.network);
  }
  if (o.seed >= 0) {
    s.simulation.seed = static_cast<std::uint64_t>(o.seed);
    set_by("simulation.seed", "--seed", o.seed);
  }
  if (o.trace) {
    s.simulation.record_trace = true;
    s.sources.add_option("simulation.trace", "--trace");
  }
  apply_precision_override(s, o);
  if (o.runs > 0) {
    if (!s.simulation.failures.enabled())
      throw InputError::option("--runs", o.runs,
                               fmt::format("{} has no failure model (simulation.failures): every run would be the "
                                           "same",
                                           s.file));
    s.simulation.runs = o.runs;
    set_by("simulation.runs", "--runs", o.runs);
  }
  for (const std::string& arg : simgrid_args)
    if (auto error = simgrid_argument_error(arg)) throw InputError::option(arg, *error);
  s.simulation.simgrid_args.insert(s.simulation.simgrid_args.end(), simgrid_args.begin(), simgrid_args.end());
}

void require_work_for_jobs(int jobs, const Scenario& s)
{
  if (jobs > 0 && !(s.simulation.failures.enabled() && s.simulation.runs > 1))
    throw InputError::option("--jobs", jobs,
                             fmt::format("{} runs no Monte Carlo series (it needs a failure model and simulation.runs "
                                         "> 1, or --runs R): its simulations run one after the other, so --jobs would "
                                         "change nothing",
                                         s.file));
}

} // namespace pipesim

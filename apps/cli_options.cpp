// Options several `pipesim` subcommands share, and the scenario overrides they set.
#include "apps/cli_options.hpp"

#include "base/input_error.hpp"
#include "simulator/simgrid_options.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <fmt/format.h>
#include <thread>

namespace pipesim {

Scenario scenario_with_overrides(const std::string& file, const ScenarioOverrides& o,
                                 const std::vector<std::string>& simgrid_args)
{
  Scenario s = load_scenario(file);
  if (!o.mapper.empty()) {
    s.mapper        = o.mapper;
    s.mapper_option = "--mapper";
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
  for (const std::string& arg : simgrid_args)
    if (auto error = simgrid_argument_error(arg)) throw InputError(fmt::format("{} (command line): {}", arg, *error));
  s.simulation.simgrid_args.insert(s.simulation.simgrid_args.end(), simgrid_args.begin(), simgrid_args.end());
  return s;
}

int jobs_or_cores(int jobs)
{
  return jobs > 0 ? jobs : static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
}

CLI::Option* add_scenario_argument(CLI::App* command, std::string& file, const std::string& help)
{
  return command->add_option("scenario", file, help)->required();
}

CLI::Option* add_format_option(CLI::App* command, OutputFormat& format)
{
  return add_enum_option<OutputFormat>(command, "--format", format, "Output format");
}

CLI::Option* add_mapper_option(CLI::App* command, std::string& mapper, const std::string& help)
{
  return command->add_option("--mapper", mapper, help);
}

CLI::Validator integer_in(long long minimum, long long maximum, const std::string& why)
{
  // Checked on the text, before CLI11 converts it: its conversion clamps 2^64 - 1 to 2^63 - 1 without a word, and
  // its own range checks print the largest double in full (309 digits).
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        long long value   = 0;
        auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error == std::errc{} && end == text.data() + text.size() && value >= minimum && value <= maximum) return "";
        return fmt::format("{} is not an integer in [{}, {}]{}", text, minimum, maximum, why.empty() ? "" : ": " + why);
      },
      fmt::format(">= {}", minimum));
}

CLI::Option* add_seed_option(CLI::App* command, long long& seed, const std::string& help)
{
  return command->add_option("--seed", seed, help)
      ->check(integer_in(0, LLONG_MAX, "seeds go up to 2^63 - 1, as simulation.seed"));
}

CLI::Option* add_datasets_option(CLI::App* command, int& datasets)
{
  return command->add_option("--datasets", datasets, "Number of data sets N (overrides simulation.datasets)")
      ->check(integer_in(2, max_simulated_datasets,
                         "a period needs at least 2 data sets (the first output is its reference), and "
                         "a run keeps every data set's times"));
}

CLI::Option* add_runs_option(CLI::App* command, int& runs)
{
  return command
      ->add_option("--runs", runs, "Monte Carlo crash runs (overrides simulation.runs; needs a failure model)")
      ->check(integer_in(1, max_monte_carlo_runs, "Monte Carlo runs take about 15 ms each on 2 cores"));
}

CLI::Option* add_jobs_option(CLI::App* command, int& jobs, const std::string& help, const std::string& names)
{
  return command->add_option(names, jobs, help)->check(integer_in(1, INT_MAX));
}

CLI::Option* add_quiet_option(CLI::App* command, bool& quiet, const std::string& help)
{
  return command->add_flag("--quiet,-q", quiet, help);
}

CLI::Option* add_out_option(CLI::App* command, std::string& dir, const std::string& help)
{
  return command->add_option("--out", dir, help);
}

} // namespace pipesim

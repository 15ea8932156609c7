// The `simulation:` section of a scenario, read strictly (scenarios/simulation_spec.hpp).
//
// Choices:
// - `simulation.warmup` absent stays -1 (SimulationSettings::effective_warmup gives N/2).
// - `simulation.runs` (Monte Carlo) is an integer in [1, max_monte_carlo_runs], default 1, whatever the failure model;
//   `simulation.simgrid` arguments are tried by SimGrid (simulator/simgrid_options.hpp) with their lines.
// - `simulation.failures` is read by scenarios/failure_spec.cpp.
#include "scenarios/simulation_spec.hpp"

#include "scenarios/failure_spec.hpp"
#include "simulator/simgrid_options.hpp"

#include <fmt/format.h>
#include <string>
#include <vector>

namespace pipesim {

std::uint64_t parse_seed(const YamlNode& node)
{
  long long v = node.as_integer();
  if (v < 0) node.fail("expected an integer >= 0");
  return static_cast<std::uint64_t>(v);
}

namespace {

std::vector<std::string> parse_simgrid_args(const YamlNode& node)
{
  std::vector<std::string> args;
  for (const YamlNode& item : node.items()) {
    std::string arg = item.as_string();
    if (!arg.starts_with("--cfg=") && !arg.starts_with("--log="))
      item.fail("expected a SimGrid argument starting with --cfg= or --log=");
    if (auto error = simgrid_argument_error(arg)) item.fail(*error);
    args.push_back(std::move(arg));
  }
  return args;
}

/// `precision` and `max_datasets` (DESIGN.md §3.10): the run goes on until the interval is narrow enough; its warm-up
/// is detected, not given.
void parse_precision(const YamlNode& node, SimulationSettings& settings)
{
  if (auto precision = node.find("precision")) {
    double p = precision->as_double();
    if (!(p > 0 && p < 1))
      precision->fail("expected a number in (0, 1): the relative half-width of the 95 % interval of the period "
                      "(0.01: the period within +/- 1 %)");
    if (auto warmup = node.find("warmup"))
      warmup->fail_key("'warmup' and 'precision' do not go together: with precision the warm-up is detected (MSER-5, "
                       "docs/random-times.md)");
    settings.precision = p;
  }
  auto max_datasets = node.find("max_datasets");
  if (!max_datasets) return;
  if (settings.precision <= 0)
    max_datasets->fail_key("'max_datasets' bounds a run with 'precision' (simulation.precision); without it the run "
                           "has N = simulation.datasets data sets");
  long long m = max_datasets->as_integer();
  if (m < settings.datasets || m > max_simulated_datasets)
    max_datasets->fail(fmt::format("expected an integer in [{}, {}]: at least simulation.datasets (N = {}, where the "
                                   "interval is first looked at), and a run keeps every data set's times",
                                   settings.datasets, max_simulated_datasets, settings.datasets));
  settings.max_datasets = static_cast<int>(m);
}

} // namespace

SimulationSettings parse_simulation(const YamlNode& node)
{
  node.require_map();
  node.allow_only({"model", "network", "datasets", "warmup", "cooldown", "seed", "trace", "simgrid", "allocation",
                   "buffer", "failures", "runs", "window", "precision", "max_datasets"});
  SimulationSettings settings;
  if (auto model = node.find("model")) settings.model = model->as_enum<CommModel>();
  if (auto network = node.find("network")) settings.network = network->as_enum<NetworkMode>();
  if (auto datasets = node.find("datasets")) {
    long long n = datasets->as_integer();
    if (n < 2 || n > max_simulated_datasets)
      datasets->fail(fmt::format("expected an integer in [2, {}]: a period needs at least 2 data sets (the first "
                                 "output is its reference), and a run keeps every data set's times",
                                 max_simulated_datasets));
    settings.datasets = static_cast<int>(n);
  }
  if (auto warmup = node.find("warmup")) {
    long long k = warmup->as_integer();
    if (k < 0 || k >= settings.datasets)
      warmup->fail(fmt::format("expected an integer in [0, {}]: the warm-up K must be smaller than datasets N = {}",
                               settings.datasets - 1, settings.datasets));
    settings.warmup = static_cast<int>(k);
  }
  if (auto cooldown = node.find("cooldown")) {
    long long c = cooldown->as_integer();
    if (c < 0 || c + settings.effective_warmup() >= settings.datasets - 1)
      cooldown->fail(fmt::format("expected an integer >= 0 leaving at least two data sets between the warm-up ({}) "
                                 "and the end (N = {})",
                                 settings.effective_warmup(), settings.datasets));
    settings.cooldown = static_cast<int>(c);
  }
  parse_precision(node, settings);
  for (const char* key : {"allocation", "buffer"})
    if (auto k = node.find(key); k && settings.model != CommModel::multi_port)
      k->fail_key(fmt::format("'{}' applies to the multi-port model only (simulation.model: multi-port)", key));
  if (auto allocation = node.find("allocation")) settings.allocation = allocation->as_enum<Allocation>();
  if (auto buffer = node.find("buffer")) settings.buffer = buffer->as_int_at_least(1);
  if (auto window = node.find("window")) settings.window = window->as_int_at_least(1);
  if (auto seed = node.find("seed")) settings.seed = parse_seed(*seed);
  if (auto trace = node.find("trace")) settings.record_trace = trace->as_bool();
  if (auto simgrid = node.find("simgrid")) settings.simgrid_args = parse_simgrid_args(*simgrid);
  if (auto failures = node.find("failures")) settings.failures = parse_failure_settings(*failures);
  if (auto runs = node.find("runs")) {
    long long r = runs->as_integer();
    if (r < 1 || r > max_monte_carlo_runs)
      runs->fail(fmt::format("expected an integer in [1, {}]: Monte Carlo runs take about 15 ms each on 2 cores",
                             max_monte_carlo_runs));
    settings.runs = static_cast<int>(r);
  }
  return settings;
}

} // namespace pipesim

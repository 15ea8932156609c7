// The simulator's entry point: a job's runs, each in a process of its own.
#include "simulator/simulate.hpp"

#include "base/resource_limits.hpp"
#include "simulator/controller.hpp"
#include "simulator/deployment.hpp"
#include "simulator/engine.hpp"
#include "simulator/failures.hpp"
#include "simulator/remap_controller.hpp"
#include "simulator/series.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace pipesim {

namespace {
/// `run` (a simulation that starts this process's SimGrid engine) in a forked child process under the limits of
/// simulation_limits() (base/resource_limits.hpp); the result comes back as JSON, and an InputError of the child is
/// the caller's. A child stopped at a limit is an InputError saying so: `what` it was doing, the limit and how to
/// raise it.
SimulationResult simulate_in_child(const std::function<SimulationResult()>& run, const std::string& what)
{
  std::string text = run_limited(
      [&] {
        nlohmann::json j = run();
        return j.dump();
      },
      what);
  return nlohmann::json::parse(text).get<SimulationResult>();
}

/// "the simulation of N data sets EXECUTION", what a run stopped at a limit was doing.
std::string simulation_what(const SimulationJob& job)
{
  const int n = job.settings.datasets;
  std::string execution;
  switch (execution_kind(job)) {
  case ExecutionKind::one_port:
  case ExecutionKind::multi_port:
    execution = fmt::format("({})", to_string(job.settings.model));
    break;
  case ExecutionKind::modules:
    execution = "through seed 001's modules";
    break;
  case ExecutionKind::programs:
    execution = "through seed 001's programs";
    break;
  }
  return fmt::format("the simulation of {} data set{} {}", n, n == 1 ? "" : "s", execution);
}

/// The settings of the separate one-data-set latency run: one data set, no warm-up, no trace, no progress line, no
/// failures. SimGrid has no per-process trace file name: this run writes <file>.latency so the period run's Paje
/// trace stays.
SimulationSettings latency_run_settings(const SimulationSettings& settings)
{
  SimulationSettings one = without_failures(settings);
  one.datasets           = 1;
  one.warmup             = 0;
  one.precision          = 0;
  one.record_trace       = false;
  one.progress           = ProgressMode::off;
  std::string trace_file = "simgrid.trace"; // SimGrid's default
  bool tracing           = false;
  for (const auto& arg : one.simgrid_args) {
    tracing = tracing || arg.rfind("--cfg=tracing", 0) == 0;
    if (arg.rfind("--cfg=tracing/filename:", 0) == 0)
      trace_file = arg.substr(std::string("--cfg=tracing/filename:").size());
  }
  if (tracing) one.simgrid_args.push_back("--cfg=tracing/filename:" + trace_file + ".latency"); // the last value wins
  return one;
}

/// The job with the settings of its one run in a child process: a latency job's one-data-set run; a period job with a
/// failure model and no crash schedule, run 0 of the series (after the fault-free run when the probability window
/// needs its makespan).
SimulationJob one_run(const SimulationJob& job)
{
  SimulationJob one           = job;
  const SimulationSettings& s = job.settings;
  if (job.kind == RunKind::latency) {
    one.settings = latency_run_settings(s);
    one.policy   = nullptr; // one data set: nothing to re-map
    return one;
  }
  if (!takes_failures(execution_kind(job)) || !s.failures.enabled() || !s.crashes.empty())
    return one; // the modules and programs refuse failures (check_before_engine, in the child)
  double makespan = 0;
  if (s.failures.model == FailureModel::probability) {
    SimulationJob clean = job;
    clean.settings      = without_failures(s);
    makespan            = simulate(clean).run.makespan;
  }
  one.settings = settings_for_run(job.platform, job.mapping, s, 0, makespan);
  return one;
}
} // namespace

SimulationOutput simulate(const SimulationJob& job)
{
  if (job.kind == RunKind::series) return detail::simulate_series(job);
  SimulationJob one = one_run(job);
  one.kind          = RunKind::period; // its settings say what to run
  SimulationOutput output;
  output.run = simulate_in_child([&] { return simulate_here(one).run; }, simulation_what(one));
  return output;
}

SimulationOutput simulate_here(const SimulationJob& job)
{
  if (job.kind == RunKind::series) throw std::logic_error("a series runs in processes of its own: simulate(job)");
  SimulationJob one = job;
  if (job.kind == RunKind::latency) {
    one.settings = latency_run_settings(job.settings);
    one.policy   = nullptr;
  }
  check_before_engine(one);
  PreparedEngine engine = detail::start_run_engine(one);
  SimulationOutput output;
  output.run = detail::run_prepared(engine, one, one.settings);
  return output;
}

namespace detail {
SimulationResult run_prepared(const PreparedEngine& engine, const SimulationJob& job, const SimulationSettings& run)
{
  if (job.policy) return run_remapping(job, run, engine); // segments and decisions (DESIGN.md §3.12)
  RunInputs inputs                       = run_inputs(job, run, engine.size_scale);
  std::unique_ptr<Deployment> deployment = make_deployment(job, run, inputs);
  deployment->deploy();
  NoController no_controller; // the seam of issue 34's re-mapping controller (simulator/controller.hpp)
  run_engine(*deployment, no_controller);
  SimulationResult result = deployment->result();
  result.config           = engine.args;
  finish_result(result, run, inputs);
  return result;
}
} // namespace detail

SimulationSettings without_failures(const SimulationSettings& settings)
{
  SimulationSettings s = settings;
  s.failures           = FailureSettings{};
  s.failures.election  = settings.failures.election; // the senders of the fault-free run
  s.crashes.clear();
  s.runs = 1;
  return s;
}

SimulationSettings settings_for_run(const Platform& platform, const Mapping& mapping,
                                    const SimulationSettings& settings, int run, double fault_free_makespan)
{
  if (!settings.failures.enabled()) return settings;
  SimulationSettings s = settings;
  s.seed               = run_seed(settings.seed, run);
  if (s.crashes.empty()) s.crashes = draw_crash_schedule(s.failures, platform, mapping, fault_free_makespan, s.seed);
  return s;
}

} // namespace pipesim

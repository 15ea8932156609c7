// Monte Carlo series: the fault-free run, then the runs in batches of prepared workers (series.hpp).
#include "simulator/series.hpp"

#include "base/batched_pool.hpp"
#include "base/input_error.hpp"
#include "base/resource_limits.hpp"
#include "simulator/deployment.hpp"
#include "simulator/engine_reuse.hpp"
#include "simulator/failures.hpp"
#include "simulator/simulate.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace pipesim {

int series_batch_size(const Platform& platform, int runs)
{
  constexpr int largest = 32; // a batch that dies is run again run by run: the cost of a crash stays bounded
  return detail::can_run_again(platform) ? std::clamp(runs / 16, 1, largest) : 1;
}

namespace detail {

namespace {

/// Run i of the series, in a process forked from a prepared worker (`engine`): its figures.
nlohmann::json run_figures(const PreparedEngine& engine, const SimulationJob& job, int i, double fault_free_makespan)
{
  SimulationSettings run  = settings_for_run(job.platform, job.mapping, job.settings, i, fault_free_makespan);
  run.record_trace        = false;
  run.progress            = ProgressMode::off; // the series' progress is the parent's, in runs
  SimulationResult r      = run_prepared(engine, job, run);
  const FailureOutcome& f = r.failures;
  return {{"verdict", to_string(f.verdict)}, {"completion", r.makespan},      {"failed_interval", f.failed_interval},
          {"failed_link", f.failed_link},    {"crashes", f.crashes.size()},   {"elections", f.elections},
          {"duplicates", f.duplicates},      {"period_after", f.period_after}};
}

/// Run i's record: its seed and drawn schedule, then what its process gave (figures, or the error of a run without
/// a verdict). A run's InputError is the same for every run: thrown.
SeriesRun run_record(const SimulationJob& job, int i, double fault_free_makespan, const JobOutcome& o)
{
  SeriesRun run;
  run.index    = i;
  run.seed     = run_seed(job.settings.seed, i);
  run.schedule = settings_for_run(job.platform, job.mapping, job.settings, i, fault_free_makespan).crashes;
  if (o.status == JobStatus::bad_input) throw o.input_error(); // bad input, not a statistic
  if (!o.ok()) {
    run.verdict = Verdict::error;
    run.error   = o.text;
    return run;
  }
  auto j      = nlohmann::json::parse(o.text);
  run.verdict = parse_enum<Verdict>(j.at("verdict").get<std::string>(), "verdict");
  j.at("completion").get_to(run.completion);
  j.at("failed_interval").get_to(run.failed_interval);
  j.at("failed_link").get_to(run.failed_link);
  j.at("crashes").get_to(run.crashes);
  j.at("elections").get_to(run.elections);
  j.at("duplicates").get_to(run.duplicates);
  j.at("period_after").get_to(run.period_after);
  return run;
}

} // namespace

SimulationOutput simulate_series(const SimulationJob& job)
{
  const SimulationSettings& settings = job.settings;
  if (!settings.failures.enabled())
    throw InputError::keyed("simulation.failures", "Monte Carlo runs need a failure model (simulation.failures)");
  if (settings.runs < 1) throw InputError::keyed("simulation.runs", settings.runs, "expected at least one run");
  SimulationOutput output;
  SimulationJob clean   = job;
  clean.kind            = RunKind::period;
  clean.settings        = without_failures(settings);
  output.run            = simulate(clean).run;
  const double makespan = output.run.makespan;
  // Each worker process starts SimGrid and builds the platform once; each batch of runs is a child forked from it.
  PreparedEngine engine;
  auto prepare = [&] {
    keep_actor_stacks_in_heap();
    check_before_engine(job);
    engine = start_run_engine(job);
  };
  Progress progress("Monte Carlo", "runs", settings.runs, settings.progress);
  long finished = 0;
  BatchOptions batches{.size     = series_batch_size(job.platform, settings.runs),
                       .between  = reset_engine_for_next_run,
                       .progress = [&](int n) { progress.set(finished += n); }};
  std::vector<JobOutcome> outcomes = run_pool_batched(
      settings.runs, {.jobs = job.processes, .memory_limit = simulation_limits().memory, .prepare = prepare}, batches,
      [&](int i) { return run_figures(engine, job, i, makespan).dump(); });
  progress.finish();
  for (int i = 0; i < settings.runs; ++i)
    output.series.push_back(run_record(job, i, makespan, outcomes[static_cast<std::size_t>(i)]));
  return output;
}

SeriesEngine::SeriesEngine(const SimulationJob& job) : job_(job)
{
  check_before_engine(job);
  engine_ = start_run_engine(job);
}

SimulationResult SeriesEngine::run(const SimulationSettings& settings)
{
  if (runs_++ > 0) reset_engine_for_next_run();
  return run_prepared(engine_, job_, settings);
}

} // namespace detail
} // namespace pipesim

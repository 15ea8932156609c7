// Monte Carlo crash runs.
#include "validation/monte_carlo.hpp"

#include "base/batched_pool.hpp"
#include "base/input_error.hpp"
#include "base/subprocess.hpp"
#include "model/analytic.hpp"
#include "model/multiport_analytic.hpp"
#include "simulator/engine_reuse.hpp"
#include "simulator/failures.hpp"
#include "simulator/run.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace pipesim {

bool MonteCarloSummary::consistent_99() const
{
  return analytic_survival && *analytic_survival >= ci99.low - 1e-12 && *analytic_survival <= ci99.high + 1e-12;
}

namespace {

/// Run i of the series, in a process forked from a prepared worker (`engine`): its figures.
nlohmann::json run_figures(const PreparedEngine& engine, const Pipeline& pipeline, const Platform& platform,
                           const Mapping& mapping, const SimulationSettings& settings, int i,
                           double fault_free_makespan)
{
  SimulationSettings run  = settings_for_run(platform, mapping, settings, i, fault_free_makespan);
  run.record_trace        = false;
  run.progress            = ProgressMode::off; // the series' progress is the parent's, in runs
  SimulationResult r      = simulate_prepared(engine, pipeline, platform, mapping, run);
  const FailureOutcome& f = r.failures;
  return {{"seed", run.seed},
          {"verdict", to_string(f.verdict)},
          {"completion", r.makespan},
          {"failed_interval", f.failed_interval},
          {"failed_link", f.failed_link},
          {"crashes", f.crashes.size()},
          {"elections", f.elections},
          {"duplicates", f.duplicates},
          {"period_after", f.period_after}};
}

/// Run i's record: its drawn schedule (and whether every interval keeps a replica under it), then what its process
/// gave (figures, or the error of a run without a verdict). A run's InputError is the same for every run: thrown.
MonteCarloRun run_record(const Platform& platform, const Mapping& mapping, const SimulationSettings& settings, int i,
                         double fault_free_makespan, const JobOutcome& o)
{
  MonteCarloRun run;
  run.index     = i;
  run.seed      = run_seed(settings.seed, i);
  auto schedule = settings_for_run(platform, mapping, settings, i, fault_free_makespan).crashes;
  auto config   = FailureConfiguration::all_alive(platform);
  for (const Crash& c : schedule)
    if (auto u = platform.find(c.host)) config.alive[static_cast<std::size_t>(*u)] = false;
  run.scheduled         = static_cast<int>(schedule.size());
  run.schedule_survives = mapping_survives(mapping, config);
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

/// Counts the run in the summary's totals; `ok`: its process gave figures.
void tally(MonteCarloSummary& s, const MonteCarloRun& run, bool ok)
{
  if (!ok) {
    ++s.errors;
    return;
  }
  (run.verdict == Verdict::survived ? s.survived : s.failed) += 1;
  if (!run.failed_link.empty()) ++s.failed_on_link;
  if (run.verdict == Verdict::survived && !run.schedule_survives) ++s.survived_late_crash;
}

} // namespace

int monte_carlo_batch_size(const Platform& platform, int runs)
{
  constexpr int largest = 32; // a batch that dies is run again run by run: the cost of a crash stays bounded
  return can_run_again(platform) ? std::clamp(runs / 16, 1, largest) : 1;
}

MonteCarloSummary simulate_monte_carlo(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                       const SimulationSettings& settings, int jobs)
{
  if (!settings.failures.enabled())
    throw InputError::keyed("simulation.failures", "Monte Carlo runs need a failure model");
  if (settings.runs < 1) throw InputError::keyed("simulation.runs", settings.runs, "expected at least one run");
  MonteCarloSummary s;
  s.model                = settings.failures.model;
  s.election             = settings.failures.election;
  s.seed                 = settings.seed;
  s.runs                 = settings.runs;
  SimulationResult clean = simulate(pipeline, platform, mapping, without_failures(settings));
  s.fault_free_makespan  = clean.makespan;
  s.fault_free_period    = clean.period;
  if (s.model == FailureModel::probability) s.analytic_survival = 1 - bbr10_eq2_failure_probability(platform, mapping);
  // Each worker process starts SimGrid and builds the platform once; each batch of runs is a child forked from it.
  PreparedEngine engine;
  auto prepare = [&] {
    keep_actor_stacks_in_heap();
    engine = prepare_engine(pipeline, platform, settings);
  };
  Progress progress("Monte Carlo", "runs", settings.runs, settings.progress);
  long finished = 0;
  BatchOptions batches{.size     = monte_carlo_batch_size(platform, settings.runs),
                       .between  = reset_engine_for_next_run,
                       .progress = [&](int n) { progress.set(finished += n); }};
  std::vector<JobOutcome> outcomes =
      run_pool_batched(settings.runs, {.jobs = jobs, .prepare = prepare}, batches, [&](int i) {
        return run_figures(engine, pipeline, platform, mapping, settings, i, s.fault_free_makespan).dump();
      });
  progress.finish();

  int schedules_surviving = 0;
  for (int i = 0; i < settings.runs; ++i) {
    const JobOutcome& o = outcomes[static_cast<std::size_t>(i)];
    s.details.push_back(run_record(platform, mapping, settings, i, s.fault_free_makespan, o));
    schedules_surviving += s.details.back().schedule_survives ? 1 : 0;
    tally(s, s.details.back(), o.ok());
  }
  s.schedule_survival_rate = static_cast<double>(schedules_surviving) / settings.runs;
  int decided              = s.survived + s.failed;
  s.survival_rate          = decided > 0 ? static_cast<double>(s.survived) / decided : 0;
  s.ci95                   = wilson_interval(s.survived, decided, z_95);
  s.ci99                   = wilson_interval(s.survived, decided, z_99);
  return s;
}

void to_json(nlohmann::json& j, const MonteCarloSummary& s)
{
  j         = {{"failure_model", to_string(s.model)},
               {"election", to_string(s.election)},
               {"runs", s.runs},
               {"seed", s.seed},
               {"survived", s.survived},
               {"failed", s.failed},
               {"failed_on_link", s.failed_on_link},
               {"errors", s.errors},
               {"survival_rate", s.survival_rate},
               {"survival_ci", {s.ci95.low, s.ci95.high}},
               {"survival_ci99", {s.ci99.low, s.ci99.high}},
               {"analytic_survival", s.analytic_survival ? nlohmann::json(*s.analytic_survival) : nullptr},
               {"schedule_survival_rate", s.schedule_survival_rate},
               {"survived_late_crash", s.survived_late_crash},
               {"fault_free_makespan", s.fault_free_makespan},
               {"fault_free_period", s.fault_free_period}};
  auto runs = nlohmann::json::array();
  for (const auto& r : s.details) {
    nlohmann::json d{{"run", r.index},
                     {"seed", r.seed},
                     {"verdict", to_string(r.verdict)},
                     {"completion", r.completion},
                     {"crashes", r.crashes},
                     {"elections", r.elections},
                     {"duplicates", r.duplicates}};
    if (r.failed_interval >= 0) d["failed_interval"] = r.failed_interval + 1;
    if (!r.failed_link.empty()) d["failed_link"] = r.failed_link;
    if (r.period_after >= 0) d["period_after_last_crash"] = r.period_after;
    if (!r.error.empty()) d["error"] = r.error;
    runs.push_back(d);
  }
  j["details"] = runs;
}

} // namespace pipesim

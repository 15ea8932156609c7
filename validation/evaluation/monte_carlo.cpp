// Monte Carlo crash runs.
#include "validation/evaluation/monte_carlo.hpp"

#include "model/analytic.hpp"
#include "model/multiport_analytic.hpp"
#include "simulator/simulate.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace pipesim {

bool MonteCarloSummary::consistent_99() const
{
  return analytic_survival && *analytic_survival >= ci99.low - 1e-12 && *analytic_survival <= ci99.high + 1e-12;
}

namespace {

/// A run of the series as the summary lists it: its record, and whether the mapping survives its drawn schedule
/// (mapping_survives: deal needs all replicas).
MonteCarloRun summary_run(const Platform& platform, const Mapping& mapping, const SeriesRun& r)
{
  MonteCarloRun run;
  run.index           = r.index;
  run.seed            = r.seed;
  run.verdict         = r.verdict;
  run.completion      = r.completion;
  run.failed_interval = r.failed_interval;
  run.failed_link     = r.failed_link;
  run.crashes         = r.crashes;
  run.scheduled       = static_cast<int>(r.schedule.size());
  run.elections       = r.elections;
  run.duplicates      = r.duplicates;
  run.period_after    = r.period_after;
  run.error           = r.error;
  auto config         = FailureConfiguration::all_alive(platform);
  for (const Crash& c : r.schedule)
    if (auto u = platform.find(c.host)) config.alive[static_cast<std::size_t>(*u)] = false;
  run.schedule_survives = mapping_survives(mapping, config);
  return run;
}

/// Counts the run in the summary's totals (a run without a verdict is an error, never a survival or a failure).
void tally(MonteCarloSummary& s, const MonteCarloRun& run)
{
  if (run.verdict == Verdict::error) {
    ++s.errors;
    return;
  }
  (run.verdict == Verdict::survived ? s.survived : s.failed) += 1;
  if (!run.failed_link.empty()) ++s.failed_on_link;
  if (run.verdict == Verdict::survived && !run.schedule_survives) ++s.survived_late_crash;
}

} // namespace

MonteCarloSummary simulate_monte_carlo(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                       const SimulationSettings& settings, int jobs, const VariabilitySpec& variability)
{
  SimulationJob job(pipeline, platform, mapping, settings, RunKind::series);
  job.processes           = jobs;
  job.variability         = variability;
  job.variability.seed    = variability.seed.value_or(settings.seed);
  SimulationOutput series = simulate(job);
  MonteCarloSummary s;
  s.model               = settings.failures.model;
  s.election            = settings.failures.election;
  s.seed                = settings.seed;
  s.runs                = settings.runs;
  s.fault_free_makespan = series.run.makespan;
  s.fault_free_period   = series.run.period;
  if (s.model == FailureModel::probability) s.analytic_survival = 1 - bbr10_eq2_failure_probability(platform, mapping);
  int schedules_surviving = 0;
  for (const SeriesRun& r : series.series) {
    s.details.push_back(summary_run(platform, mapping, r));
    schedules_surviving += s.details.back().schedule_survives ? 1 : 0;
    tally(s, s.details.back());
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

// Monte Carlo crash runs.
#include "validation/monte_carlo.hpp"

#include "base/input_error.hpp"
#include "base/subprocess.hpp"
#include "model/analytic.hpp"
#include "model/multiport_analytic.hpp"
#include "simulator/failures.hpp"
#include "simulator/run.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace pipesim {

bool MonteCarloSummary::consistent_99() const
{
  return analytic_survival && *analytic_survival >= ci99.low - 1e-12 && *analytic_survival <= ci99.high + 1e-12;
}

MonteCarloSummary simulate_monte_carlo(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                       const SimulationSettings& settings, int jobs)
{
  if (!settings.failures.enabled()) throw InputError("Monte Carlo runs need a failure model (simulation.failures)");
  if (settings.runs < 1) throw InputError(fmt::format("simulation.runs = {}: at least one run", settings.runs));
  MonteCarloSummary s;
  s.model                = settings.failures.model;
  s.election             = settings.failures.election;
  s.seed                 = settings.seed;
  s.runs                 = settings.runs;
  SimulationResult clean = simulate(pipeline, platform, mapping, without_failures(settings));
  s.fault_free_makespan  = clean.makespan;
  s.fault_free_period    = clean.period;
  if (s.model == FailureModel::probability) s.analytic_survival = 1 - bbr10_eq2_failure_probability(platform, mapping);
  // Each worker process starts SimGrid and builds the platform once; each run is a child forked from it.
  PreparedEngine engine;
  auto outcomes = run_in_prepared_children(
      settings.runs, jobs, [&] { engine = prepare_engine(pipeline, platform, settings); },
      [&](int i) {
        SimulationSettings run  = settings_for_run(platform, mapping, settings, i, s.fault_free_makespan);
        run.record_trace        = false;
        SimulationResult r      = simulate_prepared(engine, pipeline, platform, mapping, run);
        const FailureOutcome& f = r.failures;
        nlohmann::json j{{"seed", run.seed},
                         {"verdict", to_string(f.verdict)},
                         {"completion", r.makespan},
                         {"failed_interval", f.failed_interval},
                         {"failed_link", f.failed_link},
                         {"crashes", f.crashes.size()},
                         {"elections", f.elections},
                         {"duplicates", f.duplicates},
                         {"period_after", f.period_after}};
        return j.dump();
      });
  int schedules_surviving = 0;
  for (int i = 0; i < settings.runs; ++i) {
    const ChildOutcome& o = outcomes[static_cast<std::size_t>(i)];
    MonteCarloRun run;
    run.index     = i;
    run.seed      = run_seed(settings.seed, i);
    auto schedule = settings_for_run(platform, mapping, settings, i, s.fault_free_makespan).crashes;
    auto config   = FailureConfiguration::all_alive(platform);
    for (const Crash& c : schedule)
      if (auto u = platform.find(c.host)) config.alive[static_cast<std::size_t>(*u)] = false;
    run.scheduled         = static_cast<int>(schedule.size());
    run.schedule_survives = every_interval_survives(mapping, config);
    schedules_surviving += run.schedule_survives ? 1 : 0;
    if (!o.ok) {
      if (o.input_error) throw InputError(o.text); // the same for every run: bad input, not a statistic
      run.verdict = Verdict::error;
      run.error   = o.text;
      ++s.errors;
      s.details.push_back(run);
      continue;
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
    (run.verdict == Verdict::survived ? s.survived : s.failed) += 1;
    if (!run.failed_link.empty()) ++s.failed_on_link;
    if (run.verdict == Verdict::survived && !run.schedule_survives) ++s.survived_late_crash;
    s.details.push_back(run);
  }
  s.schedule_survival_rate = settings.runs > 0 ? static_cast<double>(schedules_surviving) / settings.runs : 0;
  int decided              = s.survived + s.failed;
  s.survival_rate          = decided > 0 ? static_cast<double>(s.survived) / decided : 0;
  s.ci95                   = wilson_interval(s.survived, decided, z_95);
  s.ci99                   = wilson_interval(s.survived, decided, z_99);
  return s;
}

nlohmann::json monte_carlo_json(const MonteCarloSummary& s, bool with_details)
{
  nlohmann::json j{{"failure_model", to_string(s.model)},
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
  if (!with_details) return j;
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
  return j;
}

} // namespace pipesim

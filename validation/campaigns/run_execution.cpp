// Executing one campaign run into its row: map (and simulate) its scenario, fill the row's columns.
#include "validation/campaigns/run_execution.hpp"

#include "base/input_error.hpp"
#include "scenarios/scenario.hpp"
#include "simulator/simulation.hpp"
#include "validation/campaigns/dynamic_columns.hpp"
#include "validation/campaigns/elections_run.hpp"
#include "validation/campaigns/random_times_columns.hpp"
#include "validation/evaluation/compare.hpp"
#include "validation/evaluation/result_output.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>

namespace pipesim {

namespace {

/// A swept scalar as a JSON number when it is one, else as a string.
nlohmann::json scalar_json(const std::string& s)
{
  try {
    std::size_t used = 0;
    long long i      = std::stoll(s, &used);
    if (used == s.size()) return i;
    double d = std::stod(s, &used);
    if (used == s.size() && std::isfinite(d)) return d;
  } catch (const std::logic_error&) {
  }
  return s;
}

CampaignRow base_row(const Campaign& campaign, const CampaignRun& run)
{
  CampaignRow row;
  row.campaign = campaign.name;
  row.run_id   = run.id;
  row.seed     = run.seed;
  for (const auto& [key, value] : run.params) {
    YAML::Emitter e;
    e << YAML::Flow << value;
    row.params[key] = value.IsScalar() ? scalar_json(value.Scalar()) : nlohmann::json(std::string(e.c_str()));
  }
  row.scenario_yaml = run.scenario_yaml;
  try { // the scenario's mapper, also for rows of runs that crash before saying it
    row.mapper = YAML::Load(run.scenario_yaml)["mapper"].as<std::string>(explicit_mapper_name);
  } catch (const YAML::Exception&) {
    row.mapper = "";
  }
  return row;
}

/// The Monte Carlo series' columns, and its period after crashes against P_max.
void fill_monte_carlo(CampaignRow& row, const ScenarioRun& r)
{
  if (r.monte_carlo) {
    const MonteCarloSummary& mc = *r.monte_carlo;
    row.runs                    = mc.runs;
    row.survival_rate           = mc.survival_rate;
    row.survival_ci_low         = mc.ci95.low;
    row.survival_ci_high        = mc.ci95.high;
    row.survival_ci99_low       = mc.ci99.low;
    row.survival_ci99_high      = mc.ci99.high;
    row.run_errors              = mc.errors;
    row.schedule_survival_rate  = mc.schedule_survival_rate;
    row.survived_late_crash     = mc.survived_late_crash;
  }
  if (r.after_crashes) { // the steady state of each run's last configuration (Algorithm 1), then as simulated
    const PeriodAfterCrashes& a    = *r.after_crashes;
    row.after_crash_measured       = a.measured;
    row.after_crash_over_bound     = a.analytic.over;
    row.after_crash_over_ci_low    = a.analytic.ci95.low;
    row.after_crash_over_ci_high   = a.analytic.ci95.high;
    row.after_crash_max_ratio      = a.analytic.max_ratio;
    row.one_left_runs              = a.one_left;
    row.one_left_over_bound        = a.analytic.one_left_over;
    row.after_crash_sim_over_bound = a.simulated.over;
    row.after_crash_sim_max_ratio  = a.simulated.max_ratio;
    row.after_crash_sim_max_gap    = a.max_gap;
  }
}

void fill_run(CampaignRow& row, const ScenarioRun& r)
{
  row.mapper        = r.scenario.mapper;
  row.mapper_status = to_string(r.mapper.status);
  if (r.mapper.period_test) row.period_test = to_string(*r.mapper.period_test);
  if (auto bound = r.mapper.statistics.find("worst_case_bound"); bound != r.mapper.statistics.end())
    row.worst_case_bound = bound->second; // what the worst-case period test compares with P_max
  row.n              = r.scenario.pipeline.n();
  row.p              = r.platform.p();
  row.platform_class = to_string(r.platform.classify());
  auto secs          = r.mapper.statistics.find("seconds");
  row.mapper_seconds = secs == r.mapper.statistics.end() ? 0.0 : secs->second;
  if (r.mapper.lower_bound) { // proved by the mapper (exact mappers stopped by a limit; = the objective if optimal)
    row.mapper_lower_bound = *r.mapper.lower_bound;
    row.mapper_gap         = relative_gap(r.mapper).value_or(0);
  }
  if (!r.has_mapping()) {
    row.status = RunStatus::infeasible;
    return;
  }
  row.mapping = to_text(r.mapper.mapping, r.platform);
  row.rule    = to_string(r.rule);
  if (r.analytic.formula.empty()) return; // mapped without the analytic figures (elections mode)
  row.analytic_period     = r.analytic.period;
  row.analytic_latency    = r.analytic.latency;
  row.failure_probability = r.analytic.failure_probability;
  row.formula             = r.analytic.formula;
  if (r.analytic.worst_case_period > 0) row.worst_case_period = r.analytic.worst_case_period; // bbr10 §4
  if (r.scenario.objective.kind == Objective::Kind::min_failure_probability)
    row.period_bound = r.scenario.objective.period_bound;
  row.event_graph_period = r.deadlock ? RowNumber::null() : RowNumber(r.event_graph_period);
  if (r.hedpm_period) row.hedpm_period = *r.hedpm_period;
  add_stochastic_columns(row, r); // random operation times (empty cells otherwise)
  if (!r.simulated) return;
  row.simulated_latency = r.simulated_latency;
  if (r.simulated->failures.failed()) { // a fail_link edit stopped the run: no period, its verdict
    row.verdict = to_string(r.simulated->failures.verdict);
    row.error   = fmt::format("link '{}' off at t = {:.6g}", r.simulated->failures.failed_link,
                              r.simulated->failures.failure_time);
  } else {
    row.simulated_period      = r.simulated->period;
    row.rel_error_period      = relative_error(r.simulated->period, r.analytic.period);
    row.rel_error_event_graph = relative_error(r.simulated->period, r.event_graph_period);
  }
  if (r.crash_run) {
    const FailureOutcome& f = r.crash_run->failures;
    row.verdict             = to_string(f.verdict);
    row.crashes             = static_cast<int>(f.crashes.size());
    row.period_after_crash  = f.period_after < 0 ? RowNumber::null() : RowNumber(f.period_after);
  }
  fill_monte_carlo(row, r);
}

void write_trace(const std::string& file, const CampaignRun& run, const ScenarioRun& r)
{
  nlohmann::json j = r;
  nlohmann::json out{{"run_id", run.id},
                     {"mapping", to_text(r.mapper.mapping, r.platform)},
                     {"period", r.simulated->period},
                     {"trace", j["simulated"]["trace"]}};
  std::ofstream f(file + ".tmp");
  f << out.dump() << "\n";
  f.close();
  std::rename((file + ".tmp").c_str(), file.c_str());
}

} // namespace

CampaignRow execute_run(const Campaign& campaign, const CampaignRun& run, const std::string& trace_file)
{
  auto t0         = std::chrono::steady_clock::now();
  CampaignRow row = base_row(campaign, run);
  try {
    Scenario s =
        parse_scenario(run.scenario_yaml, fmt::format("{} (run {})", campaign.file, run.id), campaign.scenario_dir);
    row.mapper = s.mapper;
    if (!trace_file.empty()) s.simulation.record_trace = true;
    ScenarioRun r = map_scenario(s, campaign.mode != CampaignMode::elections);
    if (campaign.mode == CampaignMode::simulate) simulate_run(r, 1); // the campaign runs rows in parallel
    fill_run(row, r);
    fill_dynamic_columns(row, r, generated_horizon(run.scenario_yaml));
    if (campaign.mode == CampaignMode::elections && r.has_mapping())
      add_elections_columns(
          row, run_elections(s.pipeline, r.platform, r.mapper.mapping, run.seed, campaign.milp_time_limit));
    if (!trace_file.empty() && r.simulated) write_trace(trace_file, run, r);
  } catch (const InputError& e) {
    row.status = RunStatus::error;
    row.error  = e.what();
  }
  row.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return row;
}

CampaignRow failed_row(const Campaign& campaign, const CampaignRun& run, RunStatus status, const std::string& reason,
                       double wall_seconds)
{
  CampaignRow row  = base_row(campaign, run);
  row.status       = status;
  row.error        = reason;
  row.wall_seconds = wall_seconds;
  return row;
}

} // namespace pipesim

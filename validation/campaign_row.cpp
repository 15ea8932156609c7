// Executing one campaign run and formatting its row.
#include "validation/campaign_row.hpp"

#include "base/table.hpp"

#include "base/input_error.hpp"
#include "scenarios/scenario.hpp"
#include "simulator/run.hpp"
#include "validation/compare.hpp"
#include "validation/elections_run.hpp"
#include "validation/result_output.hpp"
#include "validation/scenario_run.hpp"

#include <chrono>
#include <cmath>
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

nlohmann::json base_row(const Campaign& campaign, const CampaignRun& run)
{
  nlohmann::json row;
  row["campaign"]       = campaign.name;
  row["run_id"]         = run.id;
  row["seed"]           = run.seed;
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [key, value] : run.params) {
    YAML::Emitter e;
    e << YAML::Flow << value;
    params[key] = value.IsScalar() ? scalar_json(value.Scalar()) : nlohmann::json(std::string(e.c_str()));
  }
  row["params"]        = params;
  row["scenario_yaml"] = run.scenario_yaml;
  row["status"]        = to_string(RunStatus::ok);
  row["error"]         = "";
  try { // the scenario's mapper, also for rows of runs that crash before saying it
    row["mapper"] = YAML::Load(run.scenario_yaml)["mapper"].as<std::string>(explicit_mapper_name);
  } catch (const YAML::Exception&) {
    row["mapper"] = "";
  }
  return row;
}

void fill_run(nlohmann::json& row, const ScenarioRun& r)
{
  row["mapper"]                     = r.scenario.mapper;
  row["mapper_status"]              = to_string(r.mapper.status);
  row["n"]                          = r.scenario.pipeline.n();
  row["p"]                          = r.platform.p();
  row["platform_class"]             = to_string(r.platform.classify());
  auto secs                         = r.mapper.statistics.find("seconds");
  row[timing_key]["mapper_seconds"] = secs == r.mapper.statistics.end() ? 0.0 : secs->second;
  if (r.mapper.lower_bound) { // proved by the mapper (exact mappers stopped by a limit; = the objective if optimal)
    row["mapper_lower_bound"] = json_number(*r.mapper.lower_bound);
    row["mapper_gap"]         = json_number(relative_gap(r.mapper).value_or(0));
  }
  if (!r.has_mapping()) {
    row["status"] = to_string(RunStatus::infeasible);
    return;
  }
  row["mapping"] = to_text(r.mapper.mapping, r.platform);
  row["rule"]    = to_string(r.rule);
  if (r.analytic.formula.empty()) return; // mapped without the analytic figures (elections mode)
  row["analytic_period"]     = json_number(r.analytic.period);
  row["analytic_latency"]    = json_number(r.analytic.latency);
  row["failure_probability"] = json_number(r.analytic.failure_probability);
  row["formula"]             = r.analytic.formula;
  row["event_graph_period"]  = r.deadlock ? nlohmann::json(nullptr) : json_number(r.event_graph_period);
  if (r.hedpm_period) row["hedpm_period"] = json_number(*r.hedpm_period);
  if (!r.simulated) return;
  row["simulated_latency"] = json_number(r.simulated_latency);
  if (r.simulated->failures.failed()) { // a fail_link edit stopped the run: no period, its verdict
    row["verdict"] = to_string(r.simulated->failures.verdict);
    row["error"]   = fmt::format("link '{}' off at t = {:.6g}", r.simulated->failures.failed_link,
                                 r.simulated->failures.failure_time);
  } else {
    row["simulated_period"]      = json_number(r.simulated->period);
    row["rel_error_period"]      = json_number(relative_error(r.simulated->period, r.analytic.period));
    row["rel_error_event_graph"] = json_number(relative_error(r.simulated->period, r.event_graph_period));
  }
  if (r.crash_run) {
    const FailureOutcome& f   = r.crash_run->failures;
    row["verdict"]            = to_string(f.verdict);
    row["crashes"]            = f.crashes.size();
    row["period_after_crash"] = f.period_after < 0 ? nlohmann::json(nullptr) : nlohmann::json(f.period_after);
  }
  if (r.monte_carlo) {
    const MonteCarloSummary& mc   = *r.monte_carlo;
    row["runs"]                   = mc.runs;
    row["survival_rate"]          = mc.survival_rate;
    row["survival_ci_low"]        = mc.ci95.low;
    row["survival_ci_high"]       = mc.ci95.high;
    row["survival_ci99_low"]      = mc.ci99.low;
    row["survival_ci99_high"]     = mc.ci99.high;
    row["run_errors"]             = mc.errors;
    row["schedule_survival_rate"] = mc.schedule_survival_rate;
    row["survived_late_crash"]    = mc.survived_late_crash;
  }
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

nlohmann::json execute_run(const Campaign& campaign, const CampaignRun& run, const std::string& trace_file)
{
  auto t0            = std::chrono::steady_clock::now();
  nlohmann::json row = base_row(campaign, run);
  try {
    Scenario s    = run_scenario(campaign, run); // its refusals name the campaign's (or base scenario's) lines
    row["mapper"] = s.mapper;
    if (!trace_file.empty()) s.simulation.record_trace = true;
    ScenarioRun r = map_scenario(s, campaign.mode != CampaignMode::elections);
    if (campaign.mode == CampaignMode::simulate) simulate_run(r, 1); // the campaign runs rows in parallel
    fill_run(row, r);
    if (campaign.mode == CampaignMode::elections && r.has_mapping())
      add_elections_columns(
          row, run_elections(s.pipeline, r.platform, r.mapper.mapping, run.seed, campaign.milp_time_limit));
    if (!trace_file.empty() && r.simulated) write_trace(trace_file, run, r);
  } catch (const InputError& e) {
    row["status"] = to_string(RunStatus::error);
    row["error"]  = e.what();
  }
  row[timing_key]["wall_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return row;
}

nlohmann::json failed_row(const Campaign& campaign, const CampaignRun& run, RunStatus status, const std::string& reason,
                          double wall_seconds)
{
  nlohmann::json row              = base_row(campaign, run);
  row["status"]                   = to_string(status);
  row["error"]                    = reason;
  row[timing_key]["wall_seconds"] = wall_seconds;
  return row;
}

std::vector<std::string> csv_columns(const std::vector<std::string>& swept, CampaignMode mode)
{
  std::vector<std::string> cols{"campaign",
                                "run_id",
                                "seed",
                                "mapper",
                                "status",
                                "mapper_status",
                                "mapper_lower_bound",
                                "mapper_gap",
                                "n",
                                "p",
                                "platform_class",
                                "mapping",
                                "rule",
                                "formula",
                                "analytic_period",
                                "event_graph_period",
                                "hedpm_period",
                                "simulated_period",
                                "rel_error_period",
                                "rel_error_event_graph",
                                "analytic_latency",
                                "simulated_latency",
                                "failure_probability",
                                "verdict",
                                "crashes",
                                "period_after_crash",
                                "runs",
                                "survival_rate",
                                "survival_ci_low",
                                "survival_ci_high",
                                "survival_ci99_low",
                                "survival_ci99_high",
                                "run_errors",
                                "schedule_survival_rate",
                                "survived_late_crash",
                                "error"};
  if (mode == CampaignMode::elections)
    for (auto& column : elections_columns())
      cols.push_back(std::move(column));
  cols.emplace_back("timing.mapper_seconds");
  cols.emplace_back("timing.wall_seconds");
  if (mode == CampaignMode::elections)
    for (auto& column : elections_timing_columns())
      cols.push_back(std::move(column));
  for (const auto& key : swept)
    cols.push_back("param:" + key);
  return cols;
}

void upgrade_legacy_timing(nlohmann::json& row)
{
  for (const char* key : {"mapper_seconds", "wall_seconds", "milp_seconds", "heuristics_seconds"})
    if (auto it = row.find(key); it != row.end()) {
      row[timing_key][key] = *it;
      row.erase(key);
    }
}

namespace {
std::string csv_value(const nlohmann::json& v)
{
  if (v.is_null()) return "";
  if (v.is_string()) return csv_field(v.get<std::string>());
  if (v.is_number_float()) return format_number(v.get<double>(), ".17g");
  return csv_field(v.dump());
}
} // namespace

std::string csv_header(const std::vector<std::string>& columns)
{
  std::string out;
  for (const auto& c : columns) { // appended in two steps: `"," + std::string&&` trips GCC 12's -Wrestrict at -O3
    if (!out.empty()) out += ',';
    out += csv_field(c);
  }
  return out;
}

std::string csv_line(const nlohmann::json& row, const std::vector<std::string>& columns)
{
  std::string out;
  bool first = true;
  for (const auto& c : columns) {
    if (!first) out += ',';
    first = false;
    if (c.rfind("param:", 0) == 0) {
      auto key = c.substr(6);
      if (row.contains("params") && row["params"].contains(key)) out += csv_value(row["params"][key]);
    } else if (is_timing_column(c)) {
      auto key = c.substr(std::string(timing_key).size() + 1);
      if (row.contains(timing_key) && row[timing_key].contains(key)) out += csv_value(row[timing_key][key]);
    } else if (row.contains(c)) {
      out += csv_value(row[c]);
    }
  }
  return out;
}

} // namespace pipesim

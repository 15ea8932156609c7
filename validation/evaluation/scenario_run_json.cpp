// The JSON form of a scenario run (`pipesim map --format json`, `pipesim simulate --format json`, campaign traces).
#include "model/deal.hpp"
#include "simulator/simulation.hpp"
#include "validation/evaluation/compare.hpp"
#include "validation/evaluation/random_times_output.hpp"
#include "validation/evaluation/result_output.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <nlohmann/json.hpp>

namespace pipesim {

nlohmann::json mapping_json(const Mapping& mapping, const Platform& platform)
{
  auto out = nlohmann::json::array();
  for (const auto& in : mapping.intervals) {
    auto replicas = nlohmann::json::array();
    for (const auto& group : in.replicas) {
      auto names = nlohmann::json::array();
      for (int u : group)
        names.push_back(platform.node_name(u));
      replicas.push_back(names);
    }
    out.push_back(
        {{"stages", {in.first, in.last}}, {"replicas", replicas}, {"replication", to_string(in.replication)}});
  }
  return out;
}

namespace {
/// The scenario's failure model as written: model and election, plus the window or the crashes when they apply.
nlohmann::json failure_settings_json(const FailureSettings& f)
{
  nlohmann::json j{{"model", to_string(f.model)}, {"election", to_string(f.election)}};
  if (f.model == FailureModel::probability) j["window"] = {f.window_begin, f.window_end};
  if (f.model == FailureModel::trace) {
    auto crashes = nlohmann::json::array();
    for (const Crash& c : f.trace)
      crashes.push_back({{"host", c.host}, {"time", c.time}});
    j["crashes"] = crashes;
  }
  return j;
}

/// Mapper, platform and run identification: what every document has, mapping or not.
nlohmann::json mapper_json(const ScenarioRun& run)
{
  nlohmann::json j;
  j["scenario"]      = run.scenario.name;
  j["scenario_file"] = run.scenario.file;
  j["mapper"]        = run.scenario.mapper;
  j["status"]        = to_string(run.mapper.status);
  j["objective"]     = json_number(run.mapper.objective);
  auto statistics    = run.mapper.statistics;
  statistics.erase("seconds"); // the mapper's wall-clock time: under "timing"
  j["statistics"]     = statistics;
  j["platform_class"] = to_string(run.platform.classify());
  j["seed"]           = run.scenario.simulation.seed;
  j["mapper_seed"]    = run.scenario.mapper_options.seed;
  if (run.mapper.period_test) j["period_test"] = to_string(*run.mapper.period_test); // bbr10 heuristics' P_max test
  if (!run.command_line.empty()) j["command"] = run.command_line;
  if (auto s = run.mapper.statistics.find("seconds"); s != run.mapper.statistics.end())
    j[timing_key] = {{"mapper_seconds", s->second}};
  if (!run.mapper.note.empty()) j["mapper_note"] = run.mapper.note;
  if (run.mapper.lower_bound) { // proved by the mapper; gap = (objective - lower_bound) / objective, null if none
    j["lower_bound"] = json_number(*run.mapper.lower_bound);
    j["gap"]         = json_number(relative_gap(run.mapper).value_or(0));
  }
  if (!run.platform.applied_edits().empty() || !run.scenario.platform.options.hosts.empty()) {
    auto edits = nlohmann::json::array();
    for (const auto& e : run.platform.applied_edits())
      edits.push_back({{"edit", e.edit}, {"matched", e.matched}});
    j["platform"] = {{"processors", run.platform.p()}, {"edits", edits}};
    if (!run.scenario.platform.options.hosts.empty())
      j["platform"]["hosts"] = run.scenario.platform.options.hosts.describe();
  }
  return j;
}

/// The document of `pipesim map`: mapper_json, then the mapping and its analytic figures.
nlohmann::json map_document(const ScenarioRun& run)
{
  nlohmann::json j = mapper_json(run);
  if (!run.has_mapping()) {
    j["mapping"] = nullptr;
    return j;
  }
  j["mapping"]      = mapping_json(run.mapper.mapping, run.platform);
  j["mapping_text"] = to_text(run.mapper.mapping, run.platform);
  j["rule"]         = to_string(run.rule);
  j["analytic"]     = {{"period", run.analytic.period},
                       {"latency", run.analytic.latency},
                       {"failure_probability", json_number(run.analytic.failure_probability)},
                       {"formula", run.analytic.formula}};
  if (run.scenario.analytic_network != AnalyticNetwork::exact) // analytic.network (docs/fidelity.md)
    j["analytic"]["network"] = to_string(run.scenario.analytic_network);
  if (run.scenario.task_chain) { // sv95's modules: response functions, no event graph (docs/sv95.md)
    j["event_graph"] = {{"period", nullptr},
                        {"deadlock", false},
                        {"critical_cycle", "none for seed 001's data-parallel modules (no event graph)"}};
    return j;
  }
  if (run.analytic.worst_case_period > 0) {
    j["analytic"]["worst_case_period"]  = run.analytic.worst_case_period; // docs/bbr10-periods.md
    j["analytic"]["worst_case_formula"] = run.analytic.worst_case_formula;
  }
  if (run.scenario.simulation.model == CommModel::multi_port) {
    j["event_graph"] = {{"period", run.event_graph_period > 0 ? nlohmann::json(run.event_graph_period) : nullptr},
                        {"deadlock", false},
                        {"critical_cycle", run.event_graph_period > 0 ? "not recorded (multi-port allotted, deal)"
                                                                      : "none for the multi-port model"}};
    if (auto stochastic = stochastic_json(run)) j["stochastic"] = *stochastic; // random operation times
    return j;
  }
  j["event_graph"] = {{"period", run.deadlock ? nlohmann::json(nullptr) : nlohmann::json(run.event_graph_period)},
                      {"deadlock", run.deadlock},
                      {"critical_cycle", run.critical_cycle}};
  if (run.hedpm_period)
    j["hedpm"] = {{"production_time", json_number(*run.hedpm_period)}, {"formula", "seed002-eq1-2"}};
  if (auto stochastic = stochastic_json(run)) j["stochastic"] = *stochastic; // random operation times
  return j;
}

nlohmann::json trace_json(const std::vector<TraceEvent>& trace)
{
  auto out = nlohmann::json::array();
  for (const auto& e : trace)
    out.push_back({{"host", e.host},
                   {"kind", to_string(e.kind)},
                   {"dataset", e.dataset},
                   {"interval", e.interval},
                   {"start", e.start},
                   {"end", e.end}});
  return out;
}

/// The "simulated" object: the fault-free run with its settings, the crash run and the Monte Carlo series.
nlohmann::json simulated_json(const ScenarioRun& run)
{
  const SimulationResult& sim = *run.simulated;
  const SimulationSettings& s = run.scenario.simulation;
  nlohmann::json j            = {
                 {"period", sim.period},           {"latency", run.simulated_latency},  {"datasets", s.datasets},
                 {"warmup", s.effective_warmup()}, {"network", to_string(sim.network)}, {"model", to_string(s.model)},
                 {"makespan", sim.makespan},       {"simgrid_config", sim.config}};
  auto usage = nlohmann::json::array();
  for (const auto& u : sim.usage)
    usage.push_back({{"host", u.host}, {"compute", u.compute}, {"send", u.send}, {"receive", u.receive}});
  j["usage"]    = usage;
  j["cooldown"] = s.effective_cooldown();
  if (int l = deal_round(run.mapper.mapping); l > 1) { // dealt: the period is taken over whole rounds of L data sets
    j["deal_round"] = l;
    j["whole_rounds"] =
        measured_over_whole_rounds(static_cast<int>(sim.output_times.size()), s.effective_cooldown(), l);
  }
  j["failures"] = failure_settings_json(s.failures);
  j["runs"]     = s.runs;
  if (run.crash_run) {
    const SimulationResult& c = *run.crash_run;
    nlohmann::json cj         = failure_json(c.failures);
    cj["seed"]                = c.seed;
    cj["output_times"]        = c.output_times;
    cj["completion_time"]     = c.makespan;
    j["crash_run"]            = cj;
  }
  if (run.monte_carlo) {
    j["survival_rate"] = run.monte_carlo->survival_rate;
    j["survival_ci"]   = {run.monte_carlo->ci95.low, run.monte_carlo->ci95.high};
    j["monte_carlo"]   = *run.monte_carlo;
    if (run.after_crashes) j["period_after_crashes"] = *run.after_crashes;
  }
  if (s.model == CommModel::multi_port) {
    j["allocation"] = to_string(s.allocation);
    j["buffer"]     = s.buffer;
  }
  if (sim.failures.failed()) { // a link that a fail_link edit turns off: no period is measured
    j["period"]       = nullptr;
    j["latency"]      = json_number(run.simulated_latency);
    j["verdict"]      = to_string(sim.failures.verdict);
    j["link_failure"] = failure_json(sim.failures);
  }
  add_simulated_estimate(j, run); // random operation times or a precision: the period's interval
  if (s.record_trace) j["trace"] = trace_json(sim.trace);
  return j;
}

/// Simulated against analytic (and event-graph) figures; null where a side has no value.
nlohmann::json relative_error_json(const ScenarioRun& run)
{
  const SimulationResult& sim = *run.simulated;
  nlohmann::json latency      = json_number(relative_error(run.simulated_latency, run.analytic.latency));
  if (sim.failures.failed()) return {{"period", nullptr}, {"period_vs_event_graph", nullptr}, {"latency", latency}};
  return {{"period", json_number(relative_error(sim.period, run.analytic.period))},
          {"period_vs_event_graph", run.event_graph_period > 0
                                        ? json_number(relative_error(sim.period, run.event_graph_period))
                                        : nlohmann::json(nullptr)},
          {"latency", latency}};
}
} // namespace

void to_json(nlohmann::json& j, const ScenarioRun& run)
{
  j = map_document(run);
  if (!run.simulated) return;
  j["simulated"]      = simulated_json(run);
  j["relative_error"] = relative_error_json(run);
  add_series_json(j, run); // nothing without profiles
  add_remaps_json(j, run); // nothing without `dynamic:`
}

} // namespace pipesim

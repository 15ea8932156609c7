// A scenario run end to end and its JSON and table outputs.
#include "validation/scenario_run.hpp"

#include "base/input_error.hpp"
#include "model/bbr10/election.hpp"
#include "model/deal.hpp"
#include "model/event_graph.hpp"
#include "model/hedpm/production_time.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "simulator/run.hpp"
#include "validation/compare.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace pipesim {

Platform load_platform(const Scenario& scenario)
{
  const PlatformSpec& spec = scenario.platform;
  if (spec.kind == PlatformSpec::Kind::model) return model_platform(spec);
  try {
    return load_xml_platform(spec.xml_file, spec.in_name, spec.out_name, spec.options);
  } catch (const InputError& e) {
    throw InputError(located(scenario.file, spec.line, fmt::format("key 'platform': {}", e.what())));
  }
}

namespace {
/// Each interval's sender under the scenario's election policy with every processor alive, as the simulator elects
/// it; empty for `first` (replica 0, what the evaluators assume by default) and mappings the policies do not take.
std::vector<int> policy_senders(const Scenario& scenario, const Platform& platform, const Mapping& mapping)
{
  const std::string& policy = scenario.simulation.failures.election;
  if (policy == "first" || policy == "first-alive" || mapping.data_parallel() || mapping.has_deal()) return {};
  auto all = FailureConfiguration::all_alive(platform);
  return bbr10_election(policy, scenario.simulation.seed)(scenario.pipeline, platform, mapping, all).sender;
}

/// The mapping with `senders[j]` as the first replica of I_j (Algorithm 1 and the allotment elect replica 0 and do
/// not depend on the order of the others).
Mapping senders_first(const Mapping& mapping, const std::vector<int>& senders)
{
  Mapping out = mapping;
  for (std::size_t j = 0; j < senders.size(); ++j) {
    auto& replicas = out.intervals[j].replicas;
    auto it        = std::ranges::find_if(replicas, [&](const ProcessorGroup& g) { return g.front() == senders[j]; });
    if (it != replicas.end()) std::rotate(replicas.begin(), it, it + 1);
  }
  return out;
}

/// HeDPM's prediction when the model takes the mapping (docs/hedpm.md, "The model on a mapping"): an interval mapping
/// with one processor per replica, every interval with several replicas dealt.
std::optional<double> hedpm_prediction(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  if (mapping.data_parallel() || classify(mapping) == MappingRule::general) return std::nullopt;
  for (const auto& in : mapping.intervals)
    if (in.replicas.size() > 1 && in.replication != Replication::deal) return std::nullopt;
  return hedpm_production_time(pipeline, platform, mapping);
}
} // namespace

ScenarioRun map_scenario(const Scenario& scenario, bool analytic)
{
  ScenarioRun run;
  run.scenario = scenario;
  run.platform = load_platform(scenario);
  Problem problem;
  problem.pipeline  = scenario.pipeline;
  problem.platform  = run.platform;
  problem.model     = scenario.model;
  problem.objective = scenario.objective;
  if (scenario.mapping) problem.explicit_mapping = resolve_mapping(*scenario.mapping, scenario.pipeline, run.platform);
  if (scenario.task_chain) { // seed 001 (docs/sv95.md); P of an XML platform is known from here on
    check_task_chain_spec(*scenario.task_chain, run.platform.p());
    problem.task_chain = scenario.task_chain->chain;
  }
  run.mapper = run_mapper(scenario.mapper, problem, scenario.mapper_options);
  if (!run.has_mapping()) return run;
  run.rule = classify(run.mapper.mapping);
  if (analytic) analyze_run(run);
  return run;
}

void analyze_run(ScenarioRun& run)
{
  if (run.scenario.task_chain) { // seed 001: §2.2's period; the other figures are the mapper's statistics
    run.analytic.period  = run.mapper.objective;
    run.analytic.formula = "seed001-s2.2";
    return;
  }
  const Scenario& scenario = run.scenario;
  const Mapping& mapping   = run.mapper.mapping;
  // the fault-free runs elect by simulation.failures.election: so do the formulas they are compared with
  std::vector<int> senders = policy_senders(scenario, run.platform, mapping);
  if (scenario.model == CommModel::multi_port) { // max-min sharing is not an event graph; allotted with deal is
    run.analytic =
        analyze_multiport(scenario.pipeline, run.platform, senders_first(mapping, senders), scenario.simulation.buffer);
    if (mapping.has_deal()) run.event_graph_period = run.analytic.period; // the allotted execution's graph
    return;
  }
  run.analytic           = analyze_oneport(scenario.pipeline, run.platform, mapping, senders);
  run.hedpm_period       = hedpm_prediction(scenario.pipeline, run.platform, mapping);
  EventGraph graph       = build_oneport_event_graph(scenario.pipeline, run.platform, mapping, senders);
  CycleRatioResult cr    = max_cycle_ratio(graph);
  run.deadlock           = cr.deadlock;
  run.event_graph_period = cr.period;
  run.critical_cycle     = cr.describe(graph);
}

void simulate_run(ScenarioRun& run, int jobs)
{
  if (!run.has_mapping() || run.deadlock) return;
  const Scenario& s      = run.scenario;
  const Mapping& mapping = run.mapper.mapping;
  run.simulated          = simulate(s.pipeline, run.platform, mapping, without_failures(s.simulation));
  run.simulated_latency  = simulate_latency(s.pipeline, run.platform, mapping, s.simulation);
  if (!s.simulation.failures.enabled()) return;
  SimulationSettings first = settings_for_run(run.platform, mapping, s.simulation, 0, run.simulated->makespan);
  run.crash_run            = simulate(s.pipeline, run.platform, mapping, first);
  if (s.simulation.runs > 1)
    run.monte_carlo = simulate_monte_carlo(s.pipeline, run.platform, mapping, s.simulation, jobs);
}

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
nlohmann::json number_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

/// The scenario's failure model as written: model and election, plus the window or the crashes when they apply.
nlohmann::json failure_settings_json(const FailureSettings& f)
{
  nlohmann::json j{{"model", f.model}, {"election", f.election}};
  if (f.model == "probability") j["window"] = {f.window_begin, f.window_end};
  if (f.model == "trace") {
    auto crashes = nlohmann::json::array();
    for (const Crash& c : f.trace)
      crashes.push_back({{"host", c.host}, {"time", c.time}});
    j["crashes"] = crashes;
  }
  return j;
}

nlohmann::json common_json(const ScenarioRun& run)
{
  nlohmann::json j;
  j["scenario"]       = run.scenario.name;
  j["scenario_file"]  = run.scenario.file;
  j["mapper"]         = run.scenario.mapper;
  j["status"]         = to_string(run.mapper.status);
  j["objective"]      = number_or_null(run.mapper.objective);
  j["statistics"]     = run.mapper.statistics;
  j["platform_class"] = to_string(run.platform.classify());
  j["seed"]           = run.scenario.simulation.seed;
  j["mapper_seed"]    = run.scenario.mapper_options.seed;
  if (!run.command_line.empty()) j["command"] = run.command_line;
  if (!run.mapper.note.empty()) j["mapper_note"] = run.mapper.note;
  if (run.mapper.lower_bound) { // proved by the mapper; gap = (objective - lower_bound) / objective, null if none
    j["lower_bound"] = number_or_null(*run.mapper.lower_bound);
    j["gap"]         = number_or_null(relative_gap(run.mapper).value_or(0));
  }
  if (!run.platform.applied_edits().empty() || !run.scenario.platform.options.hosts.empty()) {
    auto edits = nlohmann::json::array();
    for (const auto& e : run.platform.applied_edits())
      edits.push_back({{"edit", e.edit}, {"matched", e.matched}});
    j["platform"] = {{"processors", run.platform.p()}, {"edits", edits}};
    if (!run.scenario.platform.options.hosts.empty())
      j["platform"]["hosts"] = run.scenario.platform.options.hosts.describe();
  }
  if (!run.has_mapping()) {
    j["mapping"] = nullptr;
    return j;
  }
  j["mapping"]      = mapping_json(run.mapper.mapping, run.platform);
  j["mapping_text"] = to_text(run.mapper.mapping, run.platform);
  j["rule"]         = to_string(run.rule);
  j["analytic"]     = {{"period", run.analytic.period},
                       {"latency", run.analytic.latency},
                       {"failure_probability", run.analytic.failure_probability},
                       {"formula", run.analytic.formula}};
  if (run.analytic.worst_case_period > 0) {
    j["analytic"]["worst_case_period"]  = run.analytic.worst_case_period; // docs/bbr10-periods.md
    j["analytic"]["worst_case_formula"] = run.analytic.worst_case_formula;
  }
  if (run.scenario.model == CommModel::multi_port) {
    j["event_graph"] = {{"period", run.event_graph_period > 0 ? nlohmann::json(run.event_graph_period) : nullptr},
                        {"deadlock", false},
                        {"critical_cycle", run.event_graph_period > 0 ? "not recorded (multi-port allotted, deal)"
                                                                      : "none for the multi-port model"}};
    return j;
  }
  j["event_graph"] = {{"period", run.deadlock ? nlohmann::json(nullptr) : nlohmann::json(run.event_graph_period)},
                      {"deadlock", run.deadlock},
                      {"critical_cycle", run.critical_cycle}};
  if (run.hedpm_period)
    j["hedpm"] = {{"production_time", number_or_null(*run.hedpm_period)}, {"formula", "seed002-eq1-2"}};
  return j;
}
} // namespace

nlohmann::json map_json(const ScenarioRun& run) { return common_json(run); }

nlohmann::json simulate_json(const ScenarioRun& run)
{
  nlohmann::json j = common_json(run);
  if (!run.simulated) return j;
  const SimulationResult& sim = *run.simulated;
  const SimulationSettings& s = run.scenario.simulation;
  j["simulated"] = {{"period", sim.period},           {"latency", run.simulated_latency}, {"datasets", s.datasets},
                    {"warmup", s.effective_warmup()}, {"network", sim.network},           {"model", s.model},
                    {"makespan", sim.makespan},       {"simgrid_config", sim.config}};
  auto usage     = nlohmann::json::array();
  for (const auto& u : sim.usage)
    usage.push_back({{"host", u.host}, {"compute", u.compute}, {"send", u.send}, {"receive", u.receive}});
  j["simulated"]["usage"]    = usage;
  j["simulated"]["cooldown"] = s.effective_cooldown();
  j["simulated"]["failures"] = failure_settings_json(s.failures);
  j["simulated"]["runs"]     = s.runs;
  if (run.crash_run) {
    const SimulationResult& c   = *run.crash_run;
    nlohmann::json cj           = failure_json(c.failures);
    cj["seed"]                  = c.seed;
    cj["output_times"]          = c.output_times;
    cj["completion_time"]       = c.makespan;
    j["simulated"]["crash_run"] = cj;
  }
  if (run.monte_carlo) {
    const MonteCarloSummary& mc     = *run.monte_carlo;
    j["simulated"]["survival_rate"] = mc.survival_rate;
    j["simulated"]["survival_ci"]   = {mc.ci95.low, mc.ci95.high};
    j["simulated"]["monte_carlo"]   = monte_carlo_json(mc, true);
  }
  if (s.model == "multi-port") {
    j["simulated"]["allocation"] = s.allocation;
    j["simulated"]["buffer"]     = s.buffer;
  }
  if (sim.failures.failed()) { // a link that a fail_link edit turns off: no period is measured
    j["simulated"]["period"]       = nullptr;
    j["simulated"]["latency"]      = number_or_null(run.simulated_latency);
    j["simulated"]["verdict"]      = "failed";
    j["simulated"]["link_failure"] = failure_json(sim.failures);
    j["relative_error"]            = {{"period", nullptr},
                                      {"period_vs_event_graph", nullptr},
                                      {"latency", number_or_null(relative_error(run.simulated_latency, run.analytic.latency))}};
  } else {
    j["relative_error"] = {
        {"period", number_or_null(relative_error(sim.period, run.analytic.period))},
        {"period_vs_event_graph", run.event_graph_period > 0
                                      ? number_or_null(relative_error(sim.period, run.event_graph_period))
                                      : nlohmann::json(nullptr)},
        {"latency", number_or_null(relative_error(run.simulated_latency, run.analytic.latency))}};
  }
  if (s.record_trace) {
    auto trace = nlohmann::json::array();
    for (const auto& e : sim.trace)
      trace.push_back({{"host", e.host},
                       {"kind", e.kind},
                       {"dataset", e.dataset},
                       {"interval", e.interval},
                       {"start", e.start},
                       {"end", e.end}});
    j["simulated"]["trace"] = trace;
  }
  return j;
}

namespace {
std::string header(const ScenarioRun& run)
{
  std::string out = fmt::format("scenario   {} ({})\n", run.scenario.name, run.scenario.file);
  out += fmt::format("platform   {} processors, {}\n", run.platform.p(), to_string(run.platform.classify()));
  out += fmt::format("mapper     {}: {}\n", run.scenario.mapper, to_string(run.mapper.status));
  if (run.mapper.lower_bound && run.mapper.status != SolveStatus::optimal) // stopped by a limit: what is proved
    out += fmt::format("bound      {:.10g} proved <= the optimum <= {:.10g}, gap {:.3g} %\n", *run.mapper.lower_bound,
                       run.mapper.objective, 100 * relative_gap(run.mapper).value_or(0));
  if (run.scenario.objective.kind == Objective::Kind::min_failure_probability)
    out += fmt::format("objective  minimise F under the period bound P_max = {:.10g}\n",
                       run.scenario.objective.period_bound);
  for (const auto& e : run.platform.applied_edits())
    out += fmt::format("edit       {} ({} matched)\n", e.edit, e.matched.size());
  if (!run.has_mapping())
    return out + (run.mapper.note.empty() ? "mapping    none (infeasible)\n"
                                          : fmt::format("mapping    none (infeasible: {})\n", run.mapper.note));
  out += fmt::format("mapping    {} ({})\n", to_text(run.mapper.mapping, run.platform), to_string(run.rule));
  return out;
}

std::string failures_text(const FailureSettings& f)
{
  if (f.model == "probability") return fmt::format("probability, window [{}, {}]", f.window_begin, f.window_end);
  if (f.model == "trace") return fmt::format("trace, {} crash{}", f.trace.size(), f.trace.size() == 1 ? "" : "es");
  return f.model;
}

std::string crash_text(const ScenarioRun& run)
{
  std::string out;
  if (run.crash_run) {
    const SimulationResult& c = *run.crash_run;
    const FailureOutcome& f   = c.failures;
    out += fmt::format("\ncrash run (seed {}): {}", c.seed, f.verdict);
    if (f.failed() && !f.failed_link.empty())
      out += fmt::format(" at t = {:.6g}: link '{}' is off on a transfer of interval {}", f.failure_time, f.failed_link,
                         f.failed_interval + 1);
    else if (f.failed() && is_dealt(run.mapper.mapping.interval(f.failed_interval)))
      out += fmt::format(" at t = {:.6g}: a replica of interval {} crashed with data sets left (dealt: no redundancy)",
                         f.failure_time, f.failed_interval + 1);
    else if (f.failed())
      out += fmt::format(" at t = {:.6g}: interval {} lost its last replica", f.failure_time, f.failed_interval + 1);
    out += fmt::format(", {} of {} data sets delivered, completion {:.6g}\n", f.delivered,
                       run.scenario.simulation.datasets, c.makespan);
    std::string crashes;
    for (const auto& x : f.crashes)
      crashes += fmt::format("{}{} at {:.6g}", crashes.empty() ? "" : ", ", x.host, x.time);
    out += fmt::format("  crashes     {}\n", crashes.empty() ? "none" : crashes);
    out += fmt::format("  election    {}: {} re-election{}, duplicates dropped {}\n", f.election, f.elections,
                       f.elections == 1 ? "" : "s", f.duplicates);
    auto value = [](double x) { return x < 0 ? std::string("n/a (too few outputs)") : fmt::format("{:.10g}", x); };
    out += fmt::format("  period before the first crash {}   (fault-free {})\n", value(f.period_before),
                       fmt::format("{:.10g}", run.analytic.period));
    double worst          = run.analytic.worst_case_period > 0 ? run.analytic.worst_case_period : run.analytic.period;
    std::string reference = run.analytic.worst_case_period > 0
                                ? fmt::format("worst case {:.10g}, {}", worst, run.analytic.worst_case_formula)
                                : fmt::format("fault-free formula {:.10g}", worst);
    out += fmt::format("  period after the last crash   {}   ({})\n", value(f.period_after), reference);
  }
  if (run.monte_carlo) {
    const MonteCarloSummary& mc = *run.monte_carlo;
    out += fmt::format(
        "\nMonte Carlo: {} runs ({} model, election {}, seeds derived from {}): {} survived, {} failed{}{}\n", mc.runs,
        mc.model, mc.election, mc.seed, mc.survived, mc.failed,
        mc.failed_on_link > 0 ? fmt::format(" ({} on a failed link)", mc.failed_on_link) : "",
        mc.errors > 0 ? fmt::format(", {} WITHOUT A VERDICT", mc.errors) : "");
    out += fmt::format("  survival rate {:.6f}   95% [{:.6f}, {:.6f}]   99% [{:.6f}, {:.6f}]\n", mc.survival_rate,
                       mc.ci95.low, mc.ci95.high, mc.ci99.low, mc.ci99.high);
    if (mc.analytic_survival)
      out += fmt::format("  1 - F (seed004-eq2) {:.6f}   {} the 99% interval\n", *mc.analytic_survival,
                         mc.consistent_99() ? "inside" : "OUTSIDE");
    out += fmt::format("  drawn schedules keeping a replica per interval {:.6f}", mc.schedule_survival_rate);
    out += mc.survived_late_crash > 0
               ? fmt::format("; {} run(s) survived because a fatal crash came after the end\n", mc.survived_late_crash)
               : "\n";
  }
  return out;
}

std::string row(const std::string& what, double analytic, const std::string& source, std::optional<double> simulated)
{
  if (!simulated) return fmt::format("  {:<22} {:>16.10g}   {:<16}\n", what, analytic, source);
  double err = relative_error(*simulated, analytic);
  return fmt::format("  {:<22} {:>16.10g}   {:<16} {:>16.10g}   {:>10.3g}\n", what, analytic, source, *simulated, err);
}
} // namespace

/// The event-graph period (one-port) or eq. (1)'s worst case (multi-port interval mappings).
std::string extra_period_rows(const ScenarioRun& run, std::optional<double> simulated)
{
  if (run.scenario.model == CommModel::multi_port)
    return run.analytic.worst_case_period > 0
               ? row("worst-case period", run.analytic.worst_case_period, run.analytic.worst_case_formula, std::nullopt)
               : "";
  std::string hedpm =
      run.hedpm_period ? row("HeDPM production time", *run.hedpm_period, "seed002-eq1-2", simulated) : "";
  if (run.deadlock) return "  event-graph period     deadlock\n" + hedpm;
  return row("period (event graph)", run.event_graph_period, "event-graph", simulated) + hedpm;
}

std::string map_table(const ScenarioRun& run)
{
  std::string out = header(run);
  if (!run.has_mapping()) return out;
  out += fmt::format("\n  {:<22} {:>16}   {:<16}\n", "figure", "analytic", "source");
  out += row("period", run.analytic.period, run.analytic.formula, std::nullopt);
  out += extra_period_rows(run, std::nullopt);
  out += row("latency", run.analytic.latency, "critical path", std::nullopt);
  out += row("failure probability", run.analytic.failure_probability, "seed004-eq2", std::nullopt);
  return out;
}

std::string simulate_table(const ScenarioRun& run)
{
  if (!run.simulated) return map_table(run);
  const SimulationResult& sim = *run.simulated;
  const SimulationSettings& s = run.scenario.simulation;
  std::string out             = header(run);
  std::string model =
      s.model == "multi-port" ? fmt::format("multi-port ({}, buffer {})", s.allocation, s.buffer) : s.model;
  out += fmt::format("simulation {}, network {}, N = {}, warm-up K = {}, cool-down {}, seed {}\n", model, sim.network,
                     s.datasets, s.effective_warmup(), s.effective_cooldown(), s.seed);
  if (s.failures.enabled() || s.runs > 1)
    out += fmt::format("failures   {}, R = {} runs\n", failures_text(s.failures), s.runs);
  // a fault-free run fails only on a link that a `fail_link` edit turns off: no period is measured then
  const FailureOutcome& f = sim.failures;
  std::optional<double> period;
  std::optional<double> latency;
  if (f.failed())
    out += fmt::format("run        failed at t = {:.6g}: link '{}' is off on a transfer of interval {}; {} of {} data "
                       "sets delivered, no period measured\n",
                       f.failure_time, f.failed_link, f.failed_interval + 1, f.delivered, s.datasets);
  else
    period = sim.period;
  if (std::isfinite(run.simulated_latency)) latency = run.simulated_latency;
  out += fmt::format("\n  {:<22} {:>16}   {:<16} {:>16}   {:>10}\n", "figure", "analytic", "source", "simulated",
                     "rel. error");
  out += row("period", run.analytic.period, run.analytic.formula, period);
  out += extra_period_rows(run, period);
  out += row("latency", run.analytic.latency, "critical path", latency);
  out += row("failure probability", run.analytic.failure_probability, "seed004-eq2", std::nullopt);
  out += fmt::format("\n  {:<10} {:>9} {:>9} {:>9}   (busy fractions of the makespan {:.6g})\n", "processor", "receive",
                     "compute", "send", sim.makespan);
  for (const auto& u : sim.usage)
    out += fmt::format("  {:<10} {:>9.4f} {:>9.4f} {:>9.4f}\n", u.host, u.receive, u.compute, u.send);
  out += crash_text(run);
  return out;
}

} // namespace pipesim

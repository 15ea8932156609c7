// A scenario run end to end: platform, mapper, analytic figures, event-graph period, simulation.
#include "validation/evaluation/scenario_run.hpp"

#include "base/input_error.hpp"
#include "model/bbr10/election_table.hpp"
#include "model/deal.hpp"
#include "model/event_graph.hpp"
#include "model/hedpm/production_time.hpp"
#include "model/multiport_event_graph.hpp"
#include "model/sv95/response.hpp"
#include "platforms/profile_yaml.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "simulator/simulate.hpp"
#include "validation/evaluation/run_checks.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

Platform load_platform(const Scenario& scenario)
{
  const PlatformSpec& spec = scenario.platform;
  return for_scenario(scenario, [&] { // an error of the XML file keeps its own place
    if (spec.kind == PlatformSpec::Kind::model) return model_platform(spec);
    Platform platform = load_xml_platform(spec.xml_file, spec.in_name, spec.out_name, spec.options);
    merge_host_profiles(platform, spec.profiles); // keyed errors: the scenario's lines of platform.profiles
    return platform;
  });
}

namespace {
/// Each interval's sender under the scenario's election policy with every processor alive, as the simulator elects
/// it; empty for `first` (replica 0, what the evaluators assume by default) and mappings the policies do not take.
std::vector<int> policy_senders(const Scenario& scenario, const Platform& platform, const Mapping& mapping)
{
  const ElectionPolicy policy = scenario.simulation.failures.election;
  if (policy == ElectionPolicy::first || policy == ElectionPolicy::first_alive || mapping.data_parallel() ||
      mapping.has_deal())
    return {};
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
/// The mappers' problem of the scenario's pipeline on `platform`: its model and objective, nothing explicit.
Problem pipeline_problem(const Scenario& scenario, Platform platform)
{
  Problem problem;
  problem.pipeline  = scenario.pipeline;
  problem.platform  = std::move(platform);
  problem.model     = scenario.simulation.model;
  problem.objective = scenario.objective;
  return problem;
}

} // namespace

Problem scenario_problem(Scenario& scenario, Platform platform)
{
  Problem problem = pipeline_problem(scenario, std::move(platform));
  if (scenario.mapping)
    problem.explicit_mapping = resolve_mapping(*scenario.mapping, scenario.pipeline, problem.platform);
  if (scenario.task_chain) { // sv95 (docs/sv95.md); P and the speeds of an XML platform are known from here on
    complete_task_chain_spec(*scenario.task_chain, problem.platform);
    check_task_chain_spec(*scenario.task_chain, problem.platform.p());
    require_task_chain_functions(*scenario.task_chain, problem.platform);
    problem.task_chain = scenario.task_chain->chain;
  }
  return problem;
}

namespace {
/// The analytic side of random operation times (DESIGN.md §3.10) on the graph of the run's model: the max-plus run
/// has the simulation's N, precision and draws (seed), so in the exact network it gives the simulated output times.
void analyze_stochastic(ScenarioRun& run, const std::vector<int>& senders)
{
  const Scenario& s = run.scenario;
  if (s.variability.deterministic()) return;
  const Mapping& mapping = run.mapper.mapping;
  try {
    EventGraph graph = s.simulation.model == CommModel::multi_port
                           ? build_multiport_event_graph(s.pipeline, run.platform, senders_first(mapping, senders),
                                                         s.simulation.buffer)
                           : build_oneport_event_graph(s.pipeline, run.platform, mapping, senders);
    Variability variability(s.pipeline, s.variability, s.variability.seed.value_or(s.simulation.seed));
    RandomTimesOptions options;
    options.maxplus.datasets     = s.simulation.datasets;
    options.maxplus.precision    = s.simulation.precision;
    options.maxplus.max_datasets = s.simulation.effective_max_datasets();
    options.maxplus.cooldown     = [settings = s.simulation](long long n) { // the simulation's (deployment.cpp)
      return static_cast<long long>(settings.cooldown_of(static_cast<int>(n)));
    };
    if (s.analytic_max_states > 0) options.exponential.max_states = s.analytic_max_states;
    run.stochastic = analyze_random_times(graph, variability, options);
  } catch (const InputError& e) { // a mapping without event graph (data-parallel groups, two intervals on a card)
    run.stochastic_note = fmt::format("no event graph for this mapping: {}", e.what());
  }
}
} // namespace

ScenarioRun map_scenario(const Scenario& scenario, bool analytic)
{
  return for_scenario(scenario, [&] { return detail::map_scenario(scenario, analytic); });
}

void analyze_run(ScenarioRun& run)
{
  for_scenario(run.scenario, [&] { detail::analyze_run(run); });
}

void simulate_run(ScenarioRun& run, int jobs)
{
  for_scenario(run.scenario, [&] { detail::simulate_run(run, jobs); });
}

namespace detail { // the entry points above, before their errors get the places of their keys

ScenarioRun map_scenario(const Scenario& scenario, bool analytic)
{
  ScenarioRun run;
  run.scenario    = scenario;
  run.platform    = load_platform(scenario);
  Problem problem = scenario_problem(run.scenario, run.platform);
  check_mapper(run.scenario, problem); // before the mapper runs, with the mapper's line
  check_evaluators(run.scenario, problem.explicit_mapping, false);
  run.mapper = run_mapper(scenario.mapper, problem, scenario.mapper_options);
  if (!run.has_mapping()) return run;
  check_evaluators(run.scenario, run.mapper.mapping, false);
  run.rule = classify(run.mapper.mapping);
  if (analytic) detail::analyze_run(run);
  return run;
}

void analyze_run(ScenarioRun& run)
{
  if (run.scenario.task_chain) { // sv95: §2.2's period and §2.1's latency; no event graph, no failures
    Sv95Evaluation e                 = sv95_evaluate(run.scenario.task_chain->chain, sv95_modules(run.mapper.mapping));
    run.analytic.period              = e.period;
    run.analytic.latency             = e.latency;
    run.analytic.formula             = "seed001-s2.2";
    run.analytic.failure_probability = std::numeric_limits<double>::quiet_NaN();
    run.event_graph_period           = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  const Scenario& scenario = run.scenario;
  const Mapping& mapping   = run.mapper.mapping;
  // the fault-free runs elect by simulation.failures.election: so do the formulas they are compared with (the
  // election is made on the platform as given, as the simulator makes it)
  std::vector<int> senders = policy_senders(scenario, run.platform, mapping);
  // analytic.network: the formulas and the event graph on the network the simulation is meant to be compared with
  const bool lv08          = scenario.analytic_network == AnalyticNetwork::lv08;
  const Pipeline& pipeline = lv08 ? lv08_pipeline(scenario.pipeline) : scenario.pipeline;
  const Platform& platform = lv08 ? lv08_platform(run.platform) : run.platform;
  const std::string suffix = lv08 ? "+lv08" : "";
  auto mark                = [&] {
    run.analytic.formula += suffix;
    if (!run.analytic.worst_case_formula.empty()) run.analytic.worst_case_formula += suffix;
  };
  if (scenario.simulation.model ==
      CommModel::multi_port) { // max-min sharing is not an event graph; allotted with deal is
    run.analytic = analyze_multiport(pipeline, platform, senders_first(mapping, senders), scenario.simulation.buffer);
    if (mapping.has_deal()) run.event_graph_period = run.analytic.period; // the allotted execution's graph
    mark();
    analyze_stochastic(run, senders);
    return;
  }
  run.analytic = analyze_oneport(pipeline, platform, mapping, senders);
  mark();
  run.hedpm_period       = hedpm_prediction(pipeline, platform, mapping);
  EventGraph graph       = build_oneport_event_graph(pipeline, platform, mapping, senders);
  CycleRatioResult cr    = max_cycle_ratio(graph);
  run.deadlock           = cr.deadlock;
  run.event_graph_period = cr.period;
  run.critical_cycle     = cr.describe(graph);
  if (!run.deadlock) analyze_stochastic(run, senders);
}

} // namespace detail

std::vector<Epoch> mapping_series(const ScenarioRun& run, const Mapping& mapping, double horizon)
{
  const Scenario& s        = run.scenario;
  std::vector<int> senders = policy_senders(s, run.platform, mapping);
  const bool multiport     = s.simulation.model == CommModel::multi_port;
  // the multi-port evaluators take their elected senders first
  return analytic_series(s.pipeline, run.platform, multiport ? senders_first(mapping, senders) : mapping,
                         s.simulation.model, s.simulation.buffer, senders, horizon);
}

namespace {
/// The series of a run that re-mapped: each segment's mapping from its decision date to the next one's.
std::vector<Epoch> remapped_series(const ScenarioRun& run)
{
  const SimulationResult& sim = *run.simulated;
  std::vector<Epoch> out;
  for (std::size_t i = 0; i <= sim.remaps.size(); ++i) {
    const Mapping m = i == 0 ? dynamic_initial_mapping(run) : run.remap_mappings[i - 1];
    double from     = i == 0 ? 0 : sim.remaps[i - 1].time;
    double to       = i == sim.remaps.size() ? sim.makespan : sim.remaps[i].time;
    if (to <= from) continue;
    for (Epoch e : mapping_series(run, m, to)) {
      if (e.end <= from) continue;
      e.start = std::max(e.start, from);
      out.push_back(std::move(e));
    }
  }
  return out;
}
} // namespace

void compare_series_run(ScenarioRun& run)
{
  if (!run.simulated || run.platform.profiles().empty() || run.scenario.task_chain) return;
  const Scenario& s = run.scenario;
  EpochSeries series;
  series.window     = s.simulation.window > 0
                          ? s.simulation.window
                          : default_throughput_window(s.simulation.datasets, deal_round(run.mapper.mapping));
  series.throughput = throughput_series(run.simulated->output_times, series.window);
  // a re-mapping run's windows follow several mappings: the series of the running one, without comparison
  series.remapped = s.dynamic && s.dynamic->policy != RemapPolicyKind::static_mapping;
  try {
    if (series.remapped) {
      if (run.remap_mappings.size() == run.simulated->remaps.size()) series.analytic = remapped_series(run);
    } else {
      series.analytic = mapping_series(run, run.mapper.mapping, run.simulated->makespan);
      series.epochs   = compare_series(series.analytic, series.throughput, run.simulated->output_times);
    }
  } catch (const InputError& e) { // the mapping has no event graph of this model: the windows are still shown
    series.note = e.what();
  }
  run.series = std::move(series);
}

namespace detail {

void simulate_run(ScenarioRun& run, int jobs)
{
  if (!run.has_mapping() || run.deadlock) return;
  const Scenario& s      = run.scenario;
  const Mapping& mapping = run.mapper.mapping;
  check_evaluators(s, mapping, true); // before any simulation process starts
  // its policy's mapper maps the pipeline (a dynamic scenario has no task chain)
  if (s.dynamic) check_dynamic_mapper(s, pipeline_problem(s, run.platform));
  // sv95's modules (DESIGN.md §3.8, programs when the tasks have them) or the pipeline: simulate picks the
  // execution from the job. Random operation times draw with the simulation's seed unless the spec has its own, in
  // every run of the scenario (the crash and Monte Carlo runs too): they differ by their crashes only.
  VariabilitySpec variability = s.variability;
  variability.seed            = variability.seed.value_or(s.simulation.seed);
  auto job                    = [&](const SimulationSettings& settings, RunKind kind) {
    if (s.task_chain) return SimulationJob(s.task_chain->chain, run.platform, mapping, settings, kind);
    SimulationJob pipeline_job(s.pipeline, run.platform, mapping, settings, kind);
    pipeline_job.variability = variability;
    return pipeline_job;
  };
  if (s.task_chain) {
    run.simulated         = simulate(job(s.simulation, RunKind::period)).run;
    run.simulated_latency = simulate(job(s.simulation, RunKind::latency)).latency();
    return;
  }
  SimulationJob period = job(without_failures(s.simulation), RunKind::period);
  if (s.dynamic) {
    period.mapping = dynamic_initial_mapping(run);
    configure_dynamic(run, period);
  }
  run.simulated = simulate(period).run;
  if (s.dynamic) run.remap_mappings = remap_mappings(run.simulated->remaps, run.platform);
  run.simulated_latency = simulate(job(s.simulation, RunKind::latency)).latency();
  pipesim::compare_series_run(run);
  if (!s.simulation.failures.enabled()) return;
  if (s.dynamic && s.dynamic->remap.repair) { // on_crash: remap: the crashes of every processor (a repair may use any)
    Mapping every;
    every.intervals.push_back(Interval{1, s.pipeline.n(), {}, Replication::active});
    for (int u = 0; u < run.platform.p(); ++u)
      every.intervals.front().replicas.push_back({u});
    SimulationJob crash =
        job(settings_for_run(run.platform, every, s.simulation, 0, run.simulated->makespan), RunKind::period);
    crash.mapping = period.mapping;
    configure_dynamic(run, crash);
    run.crash_run = simulate(crash).run;
    return;
  }
  SimulationSettings first = settings_for_run(run.platform, mapping, s.simulation, 0, run.simulated->makespan);
  run.crash_run            = simulate(job(first, RunKind::period)).run;
  if (s.simulation.runs <= 1) return;
  run.monte_carlo = simulate_monte_carlo(s.pipeline, run.platform, mapping, s.simulation, jobs, variability);
  bool bbr10      = s.simulation.model == CommModel::multi_port && !mapping.data_parallel() && !mapping.has_deal();
  if (bbr10 && s.objective.kind == Objective::Kind::min_failure_probability)
    run.after_crashes = period_after_crashes(s.pipeline, run.platform, mapping, s.simulation, *run.monte_carlo,
                                             s.objective.period_bound);
}

} // namespace detail

} // namespace pipesim

// A scenario run end to end: platform, mapper, analytic figures, event-graph period, simulation.
#include "validation/scenario_run.hpp"

#include "base/input_error.hpp"
#include "model/bbr10/election.hpp"
#include "model/deal.hpp"
#include "model/event_graph.hpp"
#include "model/hedpm/production_time.hpp"
#include "model/sv95/response.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "simulator/module_actors.hpp"
#include "simulator/program_actors.hpp"
#include "simulator/run.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

Platform load_platform(const Scenario& scenario)
{
  const PlatformSpec& spec = scenario.platform;
  return for_scenario(scenario, [&] { // an error of the XML file keeps its own place
    return spec.kind == PlatformSpec::Kind::model
               ? model_platform(spec)
               : load_xml_platform(spec.xml_file, spec.in_name, spec.out_name, spec.options);
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
  run.scenario = scenario;
  run.platform = load_platform(scenario);
  Problem problem;
  problem.pipeline  = scenario.pipeline;
  problem.platform  = run.platform;
  problem.model     = scenario.simulation.model;
  problem.objective = scenario.objective;
  if (scenario.mapping) problem.explicit_mapping = resolve_mapping(*scenario.mapping, scenario.pipeline, run.platform);
  if (run.scenario.task_chain) { // sv95 (docs/sv95.md); P and the speeds of an XML platform are known from here on
    complete_task_chain_spec(*run.scenario.task_chain, run.platform);
    check_task_chain_spec(*run.scenario.task_chain, run.platform.p());
    require_task_chain_functions(*run.scenario.task_chain, run.platform);
    problem.task_chain = run.scenario.task_chain->chain;
  }
  run.mapper = run_mapper(scenario.mapper, problem, scenario.mapper_options);
  if (!run.has_mapping()) return run;
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
  // the fault-free runs elect by simulation.failures.election: so do the formulas they are compared with
  std::vector<int> senders = policy_senders(scenario, run.platform, mapping);
  if (scenario.simulation.model ==
      CommModel::multi_port) { // max-min sharing is not an event graph; allotted with deal is
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
  // Until the simulator draws them (issue 33's integration), a simulation of random times would print the means'.
  if (!s.variability.deterministic())
    throw InputError::keyed("pipeline.variability", "the simulator does not draw random operation times yet "
                                                    "(docs/random-times.md); without it the run simulates the means");
  if (s.task_chain && s.task_chain->chain.has_programs()) { // sv95's programs as SimGrid parallel tasks
    run.simulated         = simulate_program(s.task_chain->chain, run.platform, mapping, s.simulation);
    run.simulated_latency = simulate_program_latency(s.task_chain->chain, run.platform, mapping, s.simulation);
    return;
  }
  if (s.task_chain) { // sv95's modules, charged with their response functions (DESIGN.md §3.8)
    run.simulated         = simulate_modules(s.task_chain->chain, run.platform, mapping, s.simulation);
    run.simulated_latency = simulate_modules_latency(s.task_chain->chain, run.platform, mapping, s.simulation);
    return;
  }
  run.simulated         = simulate(s.pipeline, run.platform, mapping, without_failures(s.simulation));
  run.simulated_latency = simulate_latency(s.pipeline, run.platform, mapping, s.simulation);
  if (!s.simulation.failures.enabled()) return;
  SimulationSettings first = settings_for_run(run.platform, mapping, s.simulation, 0, run.simulated->makespan);
  run.crash_run            = simulate(s.pipeline, run.platform, mapping, first);
  if (s.simulation.runs > 1)
    run.monte_carlo = simulate_monte_carlo(s.pipeline, run.platform, mapping, s.simulation, jobs);
}

} // namespace detail

} // namespace pipesim

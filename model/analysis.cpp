// The analytic figures of a mapping (analysis.hpp): which formula applies, then the formula.
#include "model/analysis.hpp"

#include "base/input_error.hpp"
#include "model/analytic.hpp"
#include "model/bbr10/worst_case_period.hpp"
#include "model/event_graph.hpp"
#include "model/multiport_analytic.hpp"
#include "model/multiport_event_graph.hpp"

#include <algorithm>

namespace pipesim {

AnalyticSummary analyze_oneport(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                const std::vector<int>& senders)
{
  if (mapping.data_parallel())
    throw InputError::keyed(first_group_key(mapping),
                            "one-port analysis: data-parallel processor groups are not supported yet");
  AnalyticSummary s;
  MappingRule rule      = classify(mapping);
  s.failure_probability = bbr10_eq2_failure_probability(platform, mapping);
  if (!mapping.replicated() && rule != MappingRule::general) {
    s.period  = br07_eq2_period(pipeline, platform, mapping);
    s.latency = interval_latency(pipeline, platform, mapping);
    s.formula = rule == MappingRule::one_to_one ? "seed000-eq1" : "seed000-eq2";
    return s;
  }
  EventGraph graph = build_oneport_event_graph(pipeline, platform, mapping, senders);
  s.latency        = event_graph_output_times(graph, 1).front();
  if (!mapping.replicated()) {
    s.period  = br07_eq45_period(pipeline, platform, mapping);
    s.formula = "seed000-eq4-5";
  } else if (rule != MappingRule::general && !mapping.has_deal()) {
    // the elected replica first: its cycle-time sums its sends, whatever their order
    Mapping elected_first = mapping;
    for (std::size_t j = 0; j < senders.size(); ++j) {
      auto& replicas = elected_first.intervals.at(j).replicas;
      auto it        = std::ranges::find_if(replicas, [&](const ProcessorGroup& g) { return g.front() == senders[j]; });
      if (it != replicas.end()) std::rotate(replicas.begin(), it, it + 1);
    }
    s.period  = oneport_active_period(pipeline, platform, elected_first);
    s.formula = "oneport-active";
  } else {
    CycleRatioResult r = max_cycle_ratio(graph);
    if (r.deadlock)
      throw InputError::keyed("mapping", "one-port analysis: the mapping deadlocks: " + r.describe(graph));
    s.period  = r.period;
    s.formula = "event-graph";
  }
  return s;
}

AnalyticSummary analyze_multiport(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                  int buffer)
{
  AnalyticSummary s;
  if (mapping.has_deal() && !mapping.data_parallel()) { // no paper's formula: the allotted execution's event graph
    EventGraph graph   = build_multiport_event_graph(pipeline, platform, mapping, buffer);
    CycleRatioResult r = max_cycle_ratio(graph);
    if (r.deadlock)
      throw InputError::keyed("mapping", "multi-port analysis: the mapping deadlocks: " + r.describe(graph));
    s.period              = r.period;
    s.formula             = "event-graph";
    s.latency             = event_graph_output_times(graph, 1).front();
    s.failure_probability = bbr10_eq2_failure_probability(platform, mapping);
    return s; // no worst case: deal replicas are not fault tolerant
  }
  auto all              = FailureConfiguration::all_alive(platform);
  s.period              = bbr10_period(pipeline, platform, mapping, all, first_alive_election(mapping, all));
  s.formula             = "seed004-alg1";
  s.latency             = multiport_latency(pipeline, platform, mapping);
  s.failure_probability = bbr10_eq2_failure_probability(platform, mapping);
  if (mapping.data_parallel() || mapping.has_deal()) return s; // no worst case: deal replicas are not fault tolerant
  if (classify(mapping) != MappingRule::general) {
    s.worst_case_period  = bbr10_eq1_period(pipeline, platform, mapping);
    s.worst_case_formula = "seed004-eq1";
    return s;
  }
  WorstCaseOptions options;
  options.max_processors = 12; // 4,096 configurations at most: tens of milliseconds
  WorstCasePeriod worst  = bbr10_worst_case_period(pipeline, platform, mapping, options);
  s.worst_case_period    = worst.period;
  s.worst_case_formula   = worst.enumerated ? "worst-case-enumeration" : "worst-case-bound";
  return s;
}

} // namespace pipesim

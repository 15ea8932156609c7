// The analytic figures of a mapping as the CLI reports them: which formula the literature gives for this mapping and
// communication model, above the formulas themselves (model/analytic.hpp, model/multiport_analytic.hpp, the event
// graphs, model/bbr10/worst_case_period.hpp).
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// What the CLI reports as "analytic": the formula the literature gives for this mapping and model.
struct AnalyticSummary {
  double period              = 0;
  double latency             = 0;
  double failure_probability = 0;
  std::string formula;            // e.g. "seed000-eq2", "seed000-eq4-5", "oneport-active", "seed004-alg1"
  double worst_case_period = 0;   // multi-port: pipesim's worst-case period (docs/bbr10-periods.md), 0 if none
  std::string worst_case_formula; // "seed004-eq1" (interval mappings, exact), "worst-case-enumeration" (general
                                  // mappings on <= 12 used processors, best election: an upper bound) or
                                  // "worst-case-bound" (beyond: bbr10_worst_case_upper_bound)
};

/// One-port: `senders[j]` is the elected replica of I_j (replica 0 when empty; see plan_oneport). Deal replication:
/// the period and the latency of the event graph (formula "event-graph").
/// Complexity: O(n + m) for an interval mapping without replication (br07 eqs. (1)-(2)); otherwise the one-port
/// event graph's building and max_cycle_ratio (model/event_graph.hpp), F by bbr10 eq. (2) (exponential in the
/// number of distinct overlapping processor sets of a general mapping: inclusion-exclusion).
AnalyticSummary analyze_oneport(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                const std::vector<int>& senders = {});

/// Multi-port with overlap, no failure (DESIGN.md §3.2): the period is bbr10 Algorithm 1 with every processor
/// alive and replica 0 elected (formula "seed004-alg1"; what the `allotted` simulation reaches); interval mappings
/// get eq. (1)'s worst case, general mappings with active replication pipesim's worst-case period
/// (bbr10_worst_case_period: enumeration with the `best` election up to 12 used processors, the bound beyond; no worst
/// case with deal or data-parallel replicas). Latency: multiport_latency. Deal replication: the period and latency of
/// the allotted execution's event graph with buffers of `buffer` data sets (formula "event-graph"; with deal the
/// buffer size can change the period), InputError when a processor holds two intervals.
/// Complexity: Algorithm 1 and the allotment, O(p + T log T) for T transfers; a general mapping's worst case 2^k
/// configurations of its k <= 12 used processors (bbr10_worst_case_period); deal: the multi-port event graph's
/// building and max_cycle_ratio.
AnalyticSummary analyze_multiport(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                  int buffer = 1);

} // namespace pipesim

// The analytic side of random operation times in one call (DESIGN.md §3.10, docs/random-times.md): the period of the
// means, the event graph executed with the drawn times (max-plus, with its interval), the exact exponential period
// from the chain of markings and the N.B.U.E. bracket. What `pipesim simulate` reports as `stochastic` beside the
// simulation; no SimGrid.
// Accepts: the graphs of build_oneport_event_graph and build_multiport_event_graph (the caller builds the one of its
// model, buffer and election), any Variability of the same pipeline. Complexity: max_cycle_ratio, plus the max-plus
// run (model/maxplus.hpp), plus the chain (model/exponential_period.hpp, bounded by its max_states).
#pragma once

#include "model/event_graph.hpp"
#include "model/exponential_period.hpp"
#include "model/maxplus.hpp"
#include "model/variability.hpp"

#include <optional>
#include <string>

namespace pipesim {

/// The period of the means: the maximum cycle ratio of the graph over L (DESIGN.md §3.6); empty on a deadlock.
std::optional<double> deterministic_period(const EventGraph& graph);

struct RandomTimesOptions {
  MaxPlusOptions maxplus;         // N, precision, confidence and batches of maxplus_period
  ExponentialOptions exponential; // the chain's state limit and tolerance
  bool keep_output_times = false; // keep maxplus.output_times (N doubles)
};

struct RandomTimesSummary {
  std::optional<double> deterministic_period; // empty: deadlock
  MaxPlusPeriod maxplus;                      // period, interval, warm-up, data sets
  ExponentialPeriod exponential;              // every timed transition exponential with its mean
  /// Why exponential.period is not the period of this execution (exponential_mismatch), empty when it is exact.
  std::optional<std::string> exponential_mismatch;
  NbueBracket bracket;
  /// Several lines: "deterministic period ...", "max-plus period ...", "exponential period ...", "N.B.U.E. ...".
  std::string to_string() const;
};

/// Everything above for the execution of `graph` under `variability`. The chain is explored only when some law is
/// random and the laws are N.B.U.E. or exponential_period is exact for them (otherwise it bounds nothing and is not
/// the period: its reason says so); with deterministic laws the max-plus run stops at its periodic state, so the
/// call costs about one max_cycle_ratio. InputError on a deadlock (as maxplus_period).
RandomTimesSummary analyze_random_times(const EventGraph& graph, const Variability& variability,
                                        const RandomTimesOptions& options = {});

} // namespace pipesim

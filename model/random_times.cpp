// Deterministic, max-plus and exponential periods of an execution with random times, and the bracket they give.
#include "model/random_times.hpp"

#include <fmt/format.h>

namespace pipesim {

std::optional<double> deterministic_period(const EventGraph& graph)
{
  const auto ratio = max_cycle_ratio(graph);
  if (ratio.deadlock) return std::nullopt;
  return ratio.period;
}

RandomTimesSummary analyze_random_times(const EventGraph& graph, const Variability& variability,
                                        const RandomTimesOptions& options)
{
  RandomTimesSummary s;
  s.deterministic_period = deterministic_period(graph);
  s.maxplus              = maxplus_period(graph, variability, options.maxplus);
  if (!options.keep_output_times) s.maxplus.output_times = {};
  s.exponential_mismatch = exponential_mismatch(graph, variability);
  const bool useful      = !variability.first_not_nbue() || !s.exponential_mismatch;
  if (variability.deterministic())
    s.exponential.reason = "not computed: every law is deterministic (the period is the deterministic one)";
  else if (useful)
    s.exponential = exponential_period(graph, options.exponential);
  else
    s.exponential.reason = fmt::format("not computed: {} is not N.B.U.E. and the chain is not this execution ({})",
                                       *variability.first_not_nbue(), *s.exponential_mismatch);
  s.bracket = nbue_bracket(graph, variability, s.deterministic_period.value_or(0), s.exponential);
  return s;
}

std::string RandomTimesSummary::to_string() const
{
  std::string out =
      fmt::format("deterministic period  {}\n", deterministic_period ? fmt::format("{:.10g}", *deterministic_period)
                                                                     : std::string("none (deadlock)"));
  out += fmt::format("max-plus period       {} over {} data sets\n", maxplus.estimate.to_string(), maxplus.datasets);
  out += fmt::format("exponential period    {}{}\n", exponential.to_string(),
                     exponential.period
                         ? (exponential_mismatch ? fmt::format(" (not this execution's: {})", *exponential_mismatch)
                                                 : std::string(" (exact for these laws)"))
                         : std::string());
  out += fmt::format("N.B.U.E. bracket      {}\n", bracket.to_string());
  return out;
}

} // namespace pipesim

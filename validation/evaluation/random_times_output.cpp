// The outputs of random operation times: JSON, table rows and lines (random_times_output.hpp).
#include "validation/evaluation/random_times_output.hpp"

#include "validation/evaluation/compare.hpp"
#include "validation/evaluation/result_output.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace pipesim {

namespace {
/// [lo, hi] of an estimate with an interval, else null.
nlohmann::json interval_json(const PeriodEstimate& e)
{
  if (!e.ok) return nullptr;
  return {json_number(e.ci_lo), json_number(e.ci_hi)};
}

nlohmann::json bracket_json(const NbueBracket& b)
{
  return {{"applies", b.applies},
          {"lower", json_number(b.lower)},
          {"upper", json_number(b.upper)},
          {"independent", b.independent},
          {"reason", b.reason}};
}
} // namespace

const PeriodEstimate* checked_estimate(const ScenarioRun& run)
{
  if (run.simulated && run.simulated->estimate && run.simulated->estimate->ok) return &*run.simulated->estimate;
  if (run.stochastic && run.stochastic->maxplus.estimate.ok) return &run.stochastic->maxplus.estimate;
  return nullptr;
}

std::optional<nlohmann::json> stochastic_json(const ScenarioRun& run)
{
  if (!run.stochastic) {
    if (run.stochastic_note.empty()) return std::nullopt;
    return nlohmann::json{{"note", run.stochastic_note}};
  }
  const RandomTimesSummary& r = *run.stochastic;
  const PeriodEstimate& m     = r.maxplus.estimate;
  nlohmann::json j{
      {"deterministic_period", json_number(r.deterministic_period)},
      {"maxplus_period", m.ok ? json_number(m.period) : nlohmann::json(nullptr)},
      {"maxplus_ci", interval_json(m)},
      {"maxplus_confidence", m.confidence},
      {"maxplus_datasets", r.maxplus.datasets},
      {"maxplus_warmup", m.warmup},
      {"maxplus_estimate", m.reason},
      {"exponential_period", json_number(r.exponential.period)},
      {"exponential_states", r.exponential.states},
      {"exponential_reason", r.exponential.period ? nlohmann::json(nullptr) : nlohmann::json(r.exponential.reason)},
      {"exponential_exact", r.exponential.period.has_value() && !r.exponential_mismatch},
      {"exponential_mismatch",
       r.exponential_mismatch ? nlohmann::json(*r.exponential_mismatch) : nlohmann::json(nullptr)},
      {"nbue", bracket_json(r.bracket)}};
  if (const PeriodEstimate* e = checked_estimate(run); e && r.bracket.applies)
    j["nbue"]["holds"] = r.bracket.contains(e->ci_lo, e->ci_hi);
  return j;
}

void add_simulated_estimate(nlohmann::json& simulated, const ScenarioRun& run)
{
  if (!run.simulated || !run.simulated->estimate) return;
  const PeriodEstimate& e      = *run.simulated->estimate;
  const SimulationSettings& s  = run.scenario.simulation;
  simulated["period_ci"]       = interval_json(e);
  simulated["confidence"]      = e.confidence;
  simulated["datasets_used"]   = run.simulated->output_times.size();
  simulated["warmup_detected"] = e.warmup;
  simulated["batches"]         = e.batches;
  simulated["batch_datasets"]  = e.batch_datasets;
  simulated["estimate"]        = e.reason;
  if (e.ok) simulated["warmup"] = e.warmup; // the period is the estimate's, after its detected warm-up
  if (s.precision > 0) {
    simulated["precision"]    = s.precision;
    simulated["max_datasets"] = s.effective_max_datasets();
  }
}

void add_stochastic_rows(Table& t, const ScenarioRun& run, std::optional<double> simulated)
{
  if (!run.stochastic) return;
  const RandomTimesSummary& r = *run.stochastic;
  auto row = [&](const std::string& what, std::optional<double> analytic, const std::string& source) {
    if (!analytic) {
      t.add_row({what, "none", source});
      return;
    }
    std::vector<std::string> cells{what, format_number(*analytic, ".10g"), source};
    if (simulated) {
      cells.push_back(format_number(*simulated, ".10g"));
      cells.push_back(format_number(relative_error(*simulated, *analytic), ".3g"));
    }
    t.add_row(std::move(cells));
  };
  row("period (means)", r.deterministic_period, "event graph");
  const PeriodEstimate& m = r.maxplus.estimate;
  row("period (max-plus)", m.ok ? std::optional<double>(m.period) : std::nullopt, "max-plus");
  row("period (exponential)", r.exponential.period,
      r.exponential.period ? fmt::format("CTMC, {} states", r.exponential.states) : "CTMC");
}

std::string stochastic_text(const ScenarioRun& run)
{
  std::string out;
  if (run.simulated && run.simulated->estimate) {
    const PeriodEstimate& e = *run.simulated->estimate;
    out +=
        fmt::format("  simulated period  {}{}\n", e.to_string(), e.ok ? std::string() : fmt::format(": {}", e.reason));
    if (run.scenario.simulation.precision > 0)
      out += fmt::format("                    precision {}: {} data sets simulated (at most {})\n",
                         run.scenario.simulation.precision, run.simulated->output_times.size(),
                         run.scenario.simulation.effective_max_datasets());
  }
  if (!run.stochastic) {
    if (!run.stochastic_note.empty()) out += fmt::format("  random times      {}\n", run.stochastic_note);
    return out;
  }
  const RandomTimesSummary& r = *run.stochastic;
  out += fmt::format("  max-plus period   {} over {} data sets\n", r.maxplus.estimate.to_string(), r.maxplus.datasets);
  if (!r.exponential.period)
    out += fmt::format("  exponential       {}\n", r.exponential.reason);
  else if (r.exponential_mismatch)
    out += fmt::format("  exponential       the upper end of the bracket, not this execution's period: {}\n",
                       *r.exponential_mismatch);
  out += fmt::format("  N.B.U.E. bracket  {}", r.bracket.to_string());
  if (const PeriodEstimate* e = checked_estimate(run); e && r.bracket.applies)
    out += fmt::format(" ({} interval {})", &*e == &r.maxplus.estimate ? "max-plus" : "simulated",
                       r.bracket.contains(e->ci_lo, e->ci_hi) ? "inside" : "OUTSIDE");
  return out + "\n";
}

} // namespace pipesim

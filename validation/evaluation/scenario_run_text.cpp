// The tables of a scenario run for a person (`pipesim map`, `pipesim simulate`) and the one print entry of both.
#include "base/table.hpp"
#include "model/deal.hpp"
#include "model/sv95/response.hpp"
#include "validation/evaluation/compare.hpp"
#include "validation/evaluation/random_times_output.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>

namespace pipesim {

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
    out += fmt::format("objective  minimise F under the period bound P_max = {:.10g}{}\n",
                       run.scenario.objective.period_bound,
                       run.mapper.period_test ? fmt::format(", period test {}", *run.mapper.period_test) : "");
  for (const auto& e : run.platform.applied_edits())
    out += fmt::format("edit       {} ({} matched)\n", e.edit, e.matched.size());
  if (!run.has_mapping())
    return out + (run.mapper.note.empty() ? "mapping    none (infeasible)\n"
                                          : fmt::format("mapping    none (infeasible: {})\n", run.mapper.note));
  out += fmt::format("mapping    {} ({})\n", to_text(run.mapper.mapping, run.platform), to_string(run.rule));
  if (run.scenario.task_chain) // sv95's triplets (T, r, p) with the tasks' names
    out += fmt::format("modules    {}\n", to_text(sv95_modules(run.mapper.mapping), run.scenario.task_chain->chain));
  return out;
}

std::string failures_text(const FailureSettings& f)
{
  if (f.model == FailureModel::probability)
    return fmt::format("probability, window [{}, {}]", f.window_begin, f.window_end);
  if (f.model == FailureModel::trace)
    return fmt::format("trace, {} crash{}", f.trace.size(), f.trace.size() == 1 ? "" : "es");
  return to_string(f.model);
}

std::string crash_run_text(const ScenarioRun& run)
{
  std::string out;
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
  return out;
}

std::string monte_carlo_text(const ScenarioRun& run)
{
  std::string out;
  const MonteCarloSummary& mc = *run.monte_carlo;
  out +=
      fmt::format("\nMonte Carlo: {} runs ({} model, election {}, seeds derived from {}): {} survived, {} failed{}{}\n",
                  mc.runs, mc.model, mc.election, mc.seed, mc.survived, mc.failed,
                  mc.failed_on_link > 0 ? fmt::format(" ({} on a failed link)", mc.failed_on_link) : "",
                  mc.errors > 0 ? fmt::format(", {} WITHOUT A VERDICT", mc.errors) : "");
  out += fmt::format("  survival rate {:.6f}   95% [{:.6f}, {:.6f}]   99% [{:.6f}, {:.6f}]\n", mc.survival_rate,
                     mc.ci95.low, mc.ci95.high, mc.ci99.low, mc.ci99.high);
  if (mc.analytic_survival)
    out += fmt::format("  1 - F (seed004-eq2) {:.6f}   {} the 99% interval\n", *mc.analytic_survival,
                       mc.consistent_99() ? "inside" : "OUTSIDE");
  out += fmt::format("  drawn schedules {} {:.6f}",
                     run.mapper.mapping.has_deal() ? "crashing no dealt replica and keeping a replica per interval"
                                                   : "keeping a replica per interval",
                     mc.schedule_survival_rate);
  out += mc.survived_late_crash > 0
             ? fmt::format("; {} run(s) survived because a fatal crash came after the end\n", mc.survived_late_crash)
             : "\n";
  return out;
}

std::string crash_text(const ScenarioRun& run)
{
  std::string out;
  if (run.crash_run) out += crash_run_text(run);
  if (run.monte_carlo) out += monte_carlo_text(run);
  if (run.after_crashes) {
    const PeriodAfterCrashes& a = *run.after_crashes;
    auto line                   = [&](const char* what, const OverBound& o) {
      return fmt::format("  {} above P_max = {:.10g}: {} of {} runs   95% [{:.6f}, {:.6f}]   largest / P_max {:.6f}; "
                                                             "with an interval down to one replica: {} of {}\n",
                                           what, a.bound, o.over, a.measured, o.ci95.low, o.ci95.high, o.max_ratio, o.one_left_over,
                                           a.one_left);
    };
    out += line("steady state after the last crash (Algorithm 1)", a.analytic);
    out += line("period measured after the last crash", a.simulated);
    out += fmt::format("  measured against the steady state: largest gap {:.2g} (the crashes' transient)\n", a.max_gap);
  }

  return out;
}

/// The figures table: analytic value and source, and with a simulation the measured value and the relative error.
Table figures_table(bool simulated)
{
  Table t;
  t.add_column("figure", Align::left, 22)
      .add_column("analytic", Align::right, 16)
      .add_column("source", Align::left, 16, 3);
  if (simulated) t.add_column("simulated", Align::right, 16).add_column("rel. error", Align::right, 10, 3);
  return t;
}

void add_figure(Table& t, const std::string& what, double analytic, const std::string& source,
                std::optional<double> simulated)
{
  if (!simulated) {
    t.add_row({what, format_number(analytic, ".10g"), source});
    return;
  }
  t.add_row({what, format_number(analytic, ".10g"), source, format_number(*simulated, ".10g"),
             format_number(relative_error(*simulated, analytic), ".3g")});
}

/// The event-graph period (one-port) or eq. (1)'s worst case (multi-port interval mappings).
void add_extra_periods(Table& t, const ScenarioRun& run, std::optional<double> simulated)
{
  if (run.scenario.simulation.model == CommModel::multi_port) {
    if (run.analytic.worst_case_period > 0)
      add_figure(t, "worst-case period", run.analytic.worst_case_period, run.analytic.worst_case_formula, std::nullopt);
    return;
  }
  if (run.deadlock)
    t.add_row({"event-graph period", "deadlock"});
  else
    add_figure(t, "period (event graph)", run.event_graph_period, "event-graph", simulated);
  if (run.hedpm_period) add_figure(t, "HeDPM production time", *run.hedpm_period, "seed002-eq1-2", simulated);
}

/// Every figure of the run; `period` and `latency` are the simulated ones (none for map, or when not measured).
std::string figures_text(const ScenarioRun& run, bool simulated, std::optional<double> period,
                         std::optional<double> latency)
{
  Table t = figures_table(simulated);
  add_figure(t, "period", run.analytic.period, run.analytic.formula, period);
  if (run.scenario.task_chain) { // sv95's modules: no event graph and no failure model (docs/sv95.md)
    add_figure(t, "latency", run.analytic.latency, "seed001-s2.1", latency);
    return t.text(2);
  }
  add_extra_periods(t, run, period);
  add_stochastic_rows(t, run, period); // random operation times
  add_figure(t, "latency", run.analytic.latency, "critical path", latency);
  add_figure(t, "failure probability", run.analytic.failure_probability, "seed004-eq2", std::nullopt);
  return t.text(2) + stochastic_text(run);
}

/// Busy fractions per processor (the last column's name is the note on the makespan; its cells are empty).
std::string usage_text(const SimulationResult& sim)
{
  Table t;
  t.add_column("processor", Align::left, 10).add_column("receive", Align::right, 9);
  t.add_column("compute", Align::right, 9).add_column("send", Align::right, 9);
  t.add_column(fmt::format("(busy fractions of the makespan {})", format_number(sim.makespan, ".6g")), Align::left, 0,
               3);
  for (const auto& u : sim.usage)
    t.add_row({u.host, format_number(u.receive, ".4f"), format_number(u.compute, ".4f"), format_number(u.send, ".4f")});
  return t.text(2);
}
} // namespace

std::string map_table(const ScenarioRun& run)
{
  std::string out = header(run);
  if (!run.has_mapping()) return out;
  return out + "\n" + figures_text(run, false, std::nullopt, std::nullopt);
}

std::string simulate_table(const ScenarioRun& run)
{
  if (!run.simulated) return map_table(run);
  const SimulationResult& sim = *run.simulated;
  const SimulationSettings& s = run.scenario.simulation;
  std::string out             = header(run);
  std::string model           = s.model == CommModel::multi_port
                                    ? fmt::format("{} ({}, buffer {})", s.model, s.allocation, s.buffer)
                                    : to_string(s.model);
  if (run.scenario.task_chain && run.scenario.task_chain->chain.has_programs()) // sv95's programs (docs/sv95.md)
    out += fmt::format("simulation data-parallel modules running their programs as SimGrid parallel tasks (ptask_L07), "
                       "network {}, N = {}, warm-up K = {}, whole rounds of L = {} data sets\n",
                       sim.network, s.datasets, s.effective_warmup(), deal_round(run.mapper.mapping));
  else if (run.scenario.task_chain) // sv95's modules: the response functions are charged as they are
    out += fmt::format("simulation data-parallel modules charged with their response functions, N = {}, warm-up K = "
                       "{}, whole rounds of L = {} data sets\n",
                       s.datasets, s.effective_warmup(), deal_round(run.mapper.mapping));
  else if (s.precision > 0) // N data sets first, then doubling (simulator/stopping_rule.hpp)
    out +=
        fmt::format("simulation {}, network {}, precision {} (N = {} first, at most {}), warm-up detected, seed {}\n",
                    model, sim.network, s.precision, s.datasets, s.effective_max_datasets(), s.seed);
  else
    out += fmt::format("simulation {}, network {}, N = {}, warm-up K = {}, cool-down {}, seed {}\n", model, sim.network,
                       s.datasets, s.effective_warmup(), s.effective_cooldown(), s.seed);
  if (s.failures.enabled() || s.runs > 1)
    out += fmt::format("failures   {}, R = {} runs\n", failures_text(s.failures), s.runs);
  // a fault-free run fails only on a link that a `fail_link` edit turns off: no period is measured then
  const FailureOutcome& f = sim.failures;
  std::optional<double> period;
  std::optional<double> latency;
  if (f.failed() && f.failed_link.empty()) { // a host state profile of the platform turned processors off
    std::string crashes;
    for (const auto& x : f.crashes)
      crashes += fmt::format("{}{} at {:.6g}", crashes.empty() ? "" : ", ", x.host, x.time);
    out += fmt::format("run        failed at t = {:.6g}: interval {} lost its last replica (state profiles turned off "
                       "{}); {} of {} data sets delivered, no period measured\n",
                       f.failure_time, f.failed_interval + 1, crashes, f.delivered, s.datasets);
  } else if (f.failed())
    out += fmt::format("run        failed at t = {:.6g}: link '{}' is off on a transfer of interval {}; {} of {} data "
                       "sets delivered, no period measured\n",
                       f.failure_time, f.failed_link, f.failed_interval + 1, f.delivered, s.datasets);
  else
    period = sim.period;
  if (std::isfinite(run.simulated_latency)) latency = run.simulated_latency;
  out += "\n" + figures_text(run, true, period, latency);
  if (int l = deal_round(run.mapper.mapping);
      period && !measured_over_whole_rounds(s.datasets, s.effective_cooldown(), l))
    out +=
        fmt::format("  note: the dealt mapping repeats every L = {} data sets and N = {} holds fewer than two rounds: "
                    "the simulated period is taken over part of a round, not the steady state; simulate at least "
                    "2 L = {} data sets\n",
                    l, s.datasets, 2 * l);
  out += "\n" + usage_text(sim);
  out += series_text(run); // empty without profiles
  out += remaps_text(run); // empty without `dynamic:`
  out += crash_text(run);
  return out;
}

void print(const ScenarioRun& run, ResultFormat format, std::ostream& out)
{
  if (format == ResultFormat::json)
    out << nlohmann::json(run).dump(2) << "\n";
  else
    out << simulate_table(run);
}

} // namespace pipesim

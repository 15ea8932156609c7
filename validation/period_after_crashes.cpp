#include "validation/period_after_crashes.hpp"

#include "base/input_error.hpp"
#include "model/bbr10/election.hpp"
#include "model/multiport_analytic.hpp"
#include "simulator/run.hpp"

#include "base/table.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>

namespace pipesim {

namespace {

/// The configuration run `run` of the series ended in: its schedule's first `crashes` crashes.
FailureConfiguration last_configuration(const Platform& platform, const Mapping& mapping,
                                        const SimulationSettings& settings, const MonteCarloSummary& mc,
                                        const MonteCarloRun& run)
{
  auto schedule = settings_for_run(platform, mapping, settings, run.index, mc.fault_free_makespan).crashes;
  auto config   = FailureConfiguration::all_alive(platform);
  for (int c = 0; c < run.crashes && c < static_cast<int>(schedule.size()); ++c)
    if (auto u = platform.find(schedule[static_cast<std::size_t>(c)].host))
      config.alive[static_cast<std::size_t>(*u)] = false;
  return config;
}

bool some_interval_has_one_replica(const Mapping& mapping, const FailureConfiguration& config)
{
  for (const Interval& in : mapping.intervals) {
    auto alive = std::count_if(in.replicas.begin(), in.replicas.end(),
                               [&](const ProcessorGroup& g) { return config.is_alive(g.front()); });
    if (alive == 1) return true;
  }
  return false;
}

} // namespace

PeriodAfterCrashes period_after_crashes(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                        const SimulationSettings& settings, const MonteCarloSummary& mc, double bound)
{
  if (settings.model != CommModel::multi_port || mapping.data_parallel() || mapping.has_deal())
    throw InputError("the period after crashes against P_max needs seed 004's model: multi-port, active replication "
                     "on single processors");
  PeriodAfterCrashes out;
  out.bound    = bound;
  double limit = bound * (1 + 1e-9);
  for (const MonteCarloRun& run : mc.details) {
    if (run.verdict != Verdict::survived || run.period_after < 0) continue;
    FailureConfiguration config = last_configuration(platform, mapping, settings, mc, run);
    // what the simulator settles at: Algorithm 1 with its election policy (simulator/replication.cpp)
    Election election = bbr10_election(settings.failures.election, run.seed)(pipeline, platform, mapping, config);
    double analytic   = bbr10_period(pipeline, platform, mapping, config, election);
    bool over         = run.period_after > limit;
    bool one_left     = some_interval_has_one_replica(mapping, config);
    ++out.measured;
    out.over += over ? 1 : 0;
    out.one_left += one_left ? 1 : 0;
    out.one_left_over += one_left && over ? 1 : 0;
    out.analytic_over += analytic > limit ? 1 : 0;
    out.max_ratio = std::max(out.max_ratio, run.period_after / bound);
    out.max_gap   = std::max(out.max_gap, std::abs(run.period_after - analytic) / analytic);
  }
  out.over_ci95     = wilson_interval(out.over, out.measured, z_95);
  out.one_left_ci95 = wilson_interval(out.one_left_over, out.one_left, z_95);
  return out;
}

void to_json(nlohmann::json& j, const PeriodAfterCrashes& p)
{
  j = {{"period_bound", p.bound},
       {"measured_runs", p.measured},
       {"over_bound_runs", p.over},
       {"over_bound_ci95", {p.over_ci95.low, p.over_ci95.high}},
       {"max_period_ratio", p.max_ratio},
       {"one_left_runs", p.one_left},
       {"one_left_over_bound_runs", p.one_left_over},
       {"one_left_over_bound_ci95", {p.one_left_ci95.low, p.one_left_ci95.high}},
       {"analytic_over_bound_runs", p.analytic_over},
       {"max_gap_to_algorithm1", p.max_gap}};
}

namespace {

struct Pooled {
  int mappings = 0, measured = 0, over = 0, one_left = 0, one_left_over = 0;
  double max_ratio = 0;
};

std::string rate(int k, int n)
{
  if (n == 0) return "-";
  ProportionInterval ci = wilson_interval(k, n, z_95);
  return fmt::format("{}/{} = {:.1f}% [{:.1f}, {:.1f}]", k, n, 100.0 * k / n, 100 * ci.low, 100 * ci.high);
}

} // namespace

std::string period_after_crashes_markdown(const CampaignResults& results)
{
  std::map<std::pair<bool, std::string>, Pooled> groups; // (worst case above P_max, p)
  for (const ResultRow& row : results.rows) {
    if (!row.after_crash_measured || !row.period_bound) continue;
    bool above = row.worst_case_period && *row.worst_case_period > *row.period_bound * (1 + 1e-9);
    auto p     = row.params.find("platform.generate.p");
    Pooled& g  = groups[{above, p == row.params.end() ? "all" : p->dump()}];
    ++g.mappings;
    g.measured += *row.after_crash_measured;
    g.over += row.after_crash_over_bound;
    g.one_left += row.one_left_runs;
    g.one_left_over += row.one_left_over_bound;
    g.max_ratio = std::max(g.max_ratio, row.after_crash_max_ratio);
  }
  if (groups.empty()) return "";
  Table t;
  for (const char* name : {"worst case", "p", "mappings", "runs above P_max (95% Wilson)",
                           "one replica left: above P_max (95% Wilson)", "largest period / P_max"})
    t.add_column(name);
  for (const auto& [key, g] : groups)
    t.add_row({key.first ? "above P_max" : "within P_max", key.second, std::to_string(g.mappings),
               rate(g.over, g.measured), rate(g.one_left_over, g.one_left), format_number(g.max_ratio, ".4g")});
  return "Period after the last crash against P_max (survived Monte Carlo runs with a steady state after their last "
         "crash; mappings whose worst-case period is above P_max are accepted only by the paper's all-alive "
         "test)\n\n" +
         t.markdown();
}

} // namespace pipesim

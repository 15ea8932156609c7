#include "validation/evaluation/period_after_crashes.hpp"

#include "base/input_error.hpp"
#include "model/bbr10/election_table.hpp"
#include "model/multiport_analytic.hpp"
#include "simulator/simulate.hpp"

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
    throw settings.model != CommModel::multi_port
        ? InputError::keyed("simulation.model", settings.model,
                            "the period after crashes against P_max needs seed 004's model: multi-port, active "
                            "replication on single processors")
        : InputError::keyed(mapping.data_parallel() ? first_group_key(mapping) : first_deal_key(mapping),
                            "the period after crashes against P_max needs seed 004's model: multi-port, active "
                            "replication on single processors");
  PeriodAfterCrashes out;
  out.bound  = bound;
  auto count = [limit = bound * (1 + 1e-9), bound](OverBound& o, double period, bool one_left) {
    bool over = period > limit;
    o.over += over ? 1 : 0;
    o.one_left_over += one_left && over ? 1 : 0;
    o.max_ratio = std::max(o.max_ratio, period / bound);
  };
  for (const MonteCarloRun& run : mc.details) {
    if (run.verdict != Verdict::survived || run.period_after < 0) continue;
    FailureConfiguration config = last_configuration(platform, mapping, settings, mc, run);
    // what the simulator settles at: Algorithm 1 with its election policy (simulator/replication.cpp)
    Election election = bbr10_election(settings.failures.election, run.seed)(pipeline, platform, mapping, config);
    double analytic   = bbr10_period(pipeline, platform, mapping, config, election);
    bool one_left     = some_interval_has_one_replica(mapping, config);
    ++out.measured;
    out.one_left += one_left ? 1 : 0;
    count(out.analytic, analytic, one_left);
    count(out.simulated, run.period_after, one_left);
    out.max_gap = std::max(out.max_gap, std::abs(run.period_after - analytic) / analytic);
  }
  for (OverBound* o : {&out.analytic, &out.simulated}) {
    o->ci95          = wilson_interval(o->over, out.measured, z_95);
    o->one_left_ci95 = wilson_interval(o->one_left_over, out.one_left, z_95);
  }
  return out;
}

namespace {
nlohmann::json over_json(const OverBound& o)
{
  return {{"over_bound_runs", o.over},
          {"over_bound_ci95", {o.ci95.low, o.ci95.high}},
          {"max_period_ratio", o.max_ratio},
          {"one_left_over_bound_runs", o.one_left_over},
          {"one_left_over_bound_ci95", {o.one_left_ci95.low, o.one_left_ci95.high}}};
}
} // namespace

void to_json(nlohmann::json& j, const PeriodAfterCrashes& p)
{
  j = {{"period_bound", p.bound},
       {"measured_runs", p.measured},
       {"one_left_runs", p.one_left},
       {"algorithm1", over_json(p.analytic)},
       {"simulated", over_json(p.simulated)},
       {"max_gap_to_algorithm1", p.max_gap}};
}

} // namespace pipesim

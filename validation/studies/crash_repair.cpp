// Repair after crashes against active replication (crash_repair.hpp).
#include "validation/studies/crash_repair.hpp"

#include "base/input_error.hpp"
#include "base/table.hpp"
#include "scenarios/dynamic_spec.hpp"
#include "simulator/failures.hpp"
#include "simulator/simulate.hpp"
#include "validation/evaluation/remap_policies.hpp"

#include <fmt/format.h>
#include <set>

namespace pipesim {

namespace {
/// The intervals of `m`, each with the processors `m` leaves unused dealt round-robin as active replicas.
Mapping actively_replicated(const Mapping& m, int p)
{
  Mapping r            = m;
  std::vector<int> use = m.processors();
  std::size_t j        = 0;
  for (int u = 0; u < p; ++u) {
    if (std::ranges::find(use, u) != use.end()) continue;
    r.intervals[j].replicas.push_back({u});
    r.intervals[j].replication = Replication::active;
    j                          = (j + 1) % r.intervals.size();
  }
  return r;
}

/// Every processor of the platform, as a mapping's processors (the crash schedule of all of them).
Mapping every_processor_mapping(int n, int p)
{
  Mapping every;
  every.intervals.push_back(Interval{1, n, {}, Replication::active});
  for (int u = 0; u < p; ++u)
    every.intervals.front().replicas.push_back({u});
  return every;
}

void crash_add_run(CrashApproachFigures& f, const SimulationResult& r, int datasets, double reference_throughput,
                   int processors, bool repaired)
{
  ++f.runs;
  const int delivered = static_cast<int>(r.output_times.size());
  if (!r.failures.failed() && (repaired || delivered == datasets)) ++f.survived;
  f.delivered += delivered;
  f.lost += datasets - delivered;
  const double end = r.failures.failed() ? r.failures.failure_time : r.makespan;
  if (end > 0) f.throughput += delivered / end / reference_throughput;
  f.processors += processors;
  f.crashes += static_cast<double>(r.failures.crashes.size());
}

void crash_average(CrashApproachFigures& f)
{
  if (f.runs == 0) return;
  for (double* x : {&f.delivered, &f.lost, &f.throughput, &f.processors, &f.crashes})
    *x /= f.runs;
}

/// The processors that ran a stage in a re-mapping run: the initial mapping's and every re-map's target's.
int crash_processors_of(const SimulationResult& r, const Mapping& initial, const Platform& platform)
{
  std::set<std::string> names;
  for (int u : initial.processors())
    names.insert(platform.node_name(u));
  for (const RemapRecord& rec : r.remaps) { // to_text's form: "[1-2]:P1 [3]:P2|P3/deal"
    std::string token;
    for (char c : rec.to + " ") {
      if (c != ' ' && c != '[' && c != ']' && c != ':' && c != '|' && c != '/' && c != '+') {
        token += c;
        continue;
      }
      if (auto u = platform.find(token); u && *u < platform.p()) names.insert(token);
      token.clear();
    }
  }
  return static_cast<int>(names.size());
}
} // namespace

CrashRepairComparison compare_crash_repair(const CrashRepairSetup& setup)
{
  const Problem& problem = setup.problem;
  MapperResult mapped    = run_mapper(setup.mapper, problem, MapperOptions{});
  if (mapped.status == SolveStatus::infeasible || mapped.mapping.intervals.empty())
    throw InputError::keyed("mapper", setup.mapper, "found no mapping for the crash repair comparison");
  const Mapping& base      = mapped.mapping;
  const Mapping replicated = actively_replicated(base, problem.platform.p());
  const int p              = problem.platform.p();
  CrashRepairComparison out;
  out.remap_mapping      = to_text(base, problem.platform);
  out.replicated_mapping = to_text(replicated, problem.platform);
  SimulationSettings s;
  s.datasets                   = setup.datasets;
  s.model                      = problem.model;
  s.seed                       = setup.seed;
  const SimulationResult clean = simulate(SimulationJob(problem.pipeline, problem.platform, base, s)).run;
  out.fault_free_period        = clean.period;
  const double reference       = setup.datasets / clean.makespan;
  out.replicated_period        = simulate(SimulationJob(problem.pipeline, problem.platform, replicated, s)).run.period;
  FailureSettings failures;
  failures.model      = FailureModel::probability;
  const Mapping every = every_processor_mapping(problem.pipeline.n(), p);
  PolicyContext context;
  context.problem = problem;
  DynamicSpec spec;
  spec.mapper       = setup.mapper;
  spec.remap.repair = true;
  spec.remap.detect = setup.detect;
  spec.remap.window = std::max(1, setup.datasets / 20);
  spec.remap.check  = spec.remap.window * clean.period / 2;
  for (int i = 0; i < setup.schedules; ++i) {
    SimulationSettings run = s;
    run.seed               = run_seed(setup.seed, i);
    run.crashes            = draw_crash_schedule(failures, problem.platform, every, clean.makespan, run.seed);
    ++out.schedules;
    if (!run.crashes.empty()) ++out.schedules_with_crash;
    SimulationJob repair(problem.pipeline, problem.platform, base, run);
    repair.remap                 = spec.remap;
    repair.policy                = make_remap_policy(spec, setup.mapper, context, base);
    const SimulationResult fixed = simulate(repair).run;
    crash_add_run(out.remap, fixed, setup.datasets, reference, crash_processors_of(fixed, base, problem.platform),
                  true);
    const SimulationResult kept = simulate(SimulationJob(problem.pipeline, problem.platform, replicated, run)).run;
    crash_add_run(out.replication, kept, setup.datasets, reference, static_cast<int>(replicated.processors().size()),
                  false);
    out.outcomes.push_back(
        CrashScheduleOutcome{run.crashes, !fixed.failures.failed(), static_cast<int>(fixed.output_times.size()),
                             fixed.datasets_lost, static_cast<int>(fixed.remaps.size()),
                             !kept.failures.failed() && static_cast<int>(kept.output_times.size()) == setup.datasets,
                             static_cast<int>(kept.output_times.size())});
  }
  crash_average(out.remap);
  crash_average(out.replication);
  return out;
}

std::string CrashRepairComparison::text() const
{
  std::string out = fmt::format("{} schedules ({} with a crash); fault-free periods: {:.6g} unreplicated, {:.6g} "
                                "replicated\n",
                                schedules, schedules_with_crash, fault_free_period, replicated_period);
  Table t;
  t.add_column("approach", Align::left, 0, 2).add_column("mapping", Align::left, 0, 2);
  t.add_column("survived", Align::right, 9).add_column("throughput kept", Align::right, 16);
  t.add_column("lost", Align::right, 8).add_column("processors", Align::right, 11);
  t.add_column("crashes", Align::right, 8);
  auto row = [&](const char* name, const std::string& mapping, const CrashApproachFigures& f) {
    t.add_row({name, mapping, fmt::format("{:.1f} %", 100 * f.survival_rate()),
               fmt::format("{:.1f} %", 100 * f.throughput), fmt::format("{:.2f}", f.lost),
               fmt::format("{:.2f}", f.processors), fmt::format("{:.2f}", f.crashes)});
  };
  row("on_crash: remap", remap_mapping, remap);
  row("active replication", replicated_mapping, replication);
  return out + t.text(2);
}

} // namespace pipesim

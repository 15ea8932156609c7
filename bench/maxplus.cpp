// Issue 33: data sets per second of the max-plus recurrence with drawn times (model/maxplus.hpp) against those of a
// SimGrid run of the same mapping under the same laws (the simulator draws them too). Target: at least 100x. The
// mapping is scenarios/examples/quickstart.yaml's (3 stages one-to-one, [1]:P2 [2]:P1 [3]:P3, one-port, exact
// network). The SimGrid rows run the simulator's entry point from this process (simulate(), a child process per run):
// the CPU time of the child (getrusage) for N = 200,000 data sets minus that of N = 2 (start-up, platform), so the
// rate is the simulation's own. The max-plus rows run 2,000,000 data sets. Laws (range(0)): 0 the means
// (deterministic), 1 exponential work, 2 gamma(cv 0.5) work with exponential message sizes (7 draws per data set).
// The label of each max-plus row states its ratio to the SimGrid rate of the same laws measured first.
//
// BM_PrecisionCost: `simulation.precision: 0.01` (exponential work) against a fixed N that reaches the same width:
// the precision run looks at its interval at N = 1,000, then each time the outputs doubled; the fixed N is the
// smallest multiple of 500 data sets whose interval is that narrow, found on the max-plus output times (the same
// draws: the simulated output times themselves, within 1e-9). The label gives both CPU times (minus that of N = 2,
// the start-up) and their ratio.
#include "model/maxplus.hpp"
#include "bench/cpu_time.hpp"
#include "bench/target.hpp"
#include "model/event_graph.hpp"
#include "simulator/simulate.hpp"

#include <benchmark/benchmark.h>
#include <cstdlib>
#include <fmt/format.h>
#include <sys/resource.h>

using namespace pipesim;

namespace {

double children_cpu_seconds()
{
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double& simgrid_rate(std::int64_t laws)
{
  static double rates[3] = {0, 0, 0};
  return rates[laws];
}

/// quickstart.yaml's instance and mapping.
struct Quickstart {
  Pipeline pipeline{{10, 20, 5}, {10, 10, 10, 10}};
  Platform platform{{{"P1", 12}, {"P2", 8}, {"P3", 10}, {"P4", 6}}, "in", "out", 10.0, 0.0};
  Mapping mapping = make_interval_mapping({{1, 1}, {2, 2}, {3, 3}}, {1, 0, 2});
};

/// The laws of range(0): 0 the means, 1 exponential work, 2 gamma(cv 0.5) work and exponential sizes.
VariabilitySpec bench_laws(std::int64_t laws)
{
  VariabilitySpec spec;
  if (laws == 1) spec.work = UnitLaw::exponential();
  if (laws == 2) {
    spec.work = UnitLaw::gamma(0.5);
    spec.size = UnitLaw::exponential();
  }
  return spec;
}

const char* const law_names[] = {"means", "exponential w", "gamma(0.5) w, exponential delta"};

/// Child CPU seconds of a SimGrid run of quickstart's mapping under `spec`: N data sets, or with `precision`.
double simulate_cpu(const VariabilitySpec& spec, int datasets, double precision, std::size_t* outputs = nullptr)
{
  Quickstart q;
  SimulationSettings s;
  s.datasets     = datasets;
  s.precision    = precision;
  s.max_datasets = precision > 0 ? max_simulated_datasets : 0;
  SimulationJob job(q.pipeline, q.platform, q.mapping, s);
  job.variability      = spec;
  job.variability.seed = 42;
  double before        = children_cpu_seconds();
  auto run             = simulate(job).run;
  if (outputs != nullptr) *outputs = run.output_times.size();
  return children_cpu_seconds() - before;
}

void BM_SimGrid(benchmark::State& state)
{
  const int n  = 200'000;
  double total = 0, base = 0;
  for (auto _ : state) {
    total += simulate_cpu(bench_laws(state.range(0)), n, 0);
    base += simulate_cpu(bench_laws(state.range(0)), 2, 0);
  }
  double& rate = simgrid_rate(state.range(0));
  rate         = static_cast<double>(n - 2) * static_cast<double>(state.iterations()) / (total - base);
  state.counters["datasets_per_s"] = rate;
  state.counters["cpu_s"]          = total / static_cast<double>(state.iterations());
  state.SetLabel(bench::no_verdict_line(fmt::format("{}: SimGrid data sets per CPU second", law_names[state.range(0)]),
                                        rate, bench::Unit::none, bench::NoVerdict::no_target));
}

void BM_PrecisionCost(benchmark::State& state)
{
  Quickstart q;
  const VariabilitySpec spec = bench_laws(1);
  const double precision     = 0.01;
  double with_precision = 0, fixed = 0;
  std::size_t used = 0;
  int fixed_n      = 0;
  for (auto _ : state) {
    with_precision += simulate_cpu(spec, 1000, precision, &used);
    // the smallest fixed N as narrow, on the same draws
    VariabilitySpec seeded = spec;
    seeded.seed            = 42;
    Variability v(q.pipeline, seeded, 42);
    auto times = maxplus_output_times(build_oneport_event_graph(q.pipeline, q.platform, q.mapping), v,
                                      static_cast<long long>(used));
    for (fixed_n = 500; fixed_n < static_cast<int>(used); fixed_n += 500) {
      auto e = estimate_period(std::span<const double>(times.data(), static_cast<std::size_t>(fixed_n)));
      if (e.ok && e.relative_half_width() <= precision) break;
    }
    fixed += simulate_cpu(spec, fixed_n, 0);
    const double base = simulate_cpu(spec, 2, 0); // start-up and platform, in both
    with_precision -= base;
    fixed -= base;
  }
  const auto iterations      = static_cast<double>(state.iterations());
  state.counters["datasets"] = static_cast<double>(used);
  state.counters["fixed_N"]  = fixed_n;
  state.SetLabel(bench::no_verdict_line(
      fmt::format("precision 0.01: {} data sets, {:.3f} s CPU; fixed N = {} as narrow: {:.3f} s; ratio", used,
                  with_precision / iterations, fixed_n, fixed / iterations),
      with_precision / fixed, bench::Unit::none, bench::NoVerdict::no_target));
}

/// range(0): 0 the means, 1 exponential work, 2 gamma(cv 0.5) work and exponential sizes.
void BM_MaxPlus(benchmark::State& state)
{
  Quickstart q;
  auto g = build_oneport_event_graph(q.pipeline, q.platform, q.mapping);
  Variability v(q.pipeline, bench_laws(state.range(0)), 42);
  const long long n = 2'000'000;
  double cpu = 0, last = 0;
  for (auto _ : state) {
    double t0 = bench::cpu_seconds();
    auto out  = maxplus_output_times(g, v, n);
    cpu += bench::cpu_seconds() - t0;
    last = out.back();
  }
  const double rate                = static_cast<double>(n) * static_cast<double>(state.iterations()) / cpu;
  state.counters["datasets_per_s"] = rate;
  state.counters["t_N/N"]          = last / static_cast<double>(n);
  const double simgrid             = simgrid_rate(state.range(0));
  const std::string figure         = fmt::format("{}: data sets per CPU second / SimGrid's", law_names[state.range(0)]);
  state.SetLabel(simgrid > 0 ? bench::target_line(figure, rate / simgrid, {bench::Bound::at_least, 100})
                             : bench::no_verdict_line(figure, rate, bench::Unit::none, bench::NoVerdict::no_target));
}

} // namespace

BENCHMARK(BM_SimGrid)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_MaxPlus)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_PrecisionCost)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK_MAIN();

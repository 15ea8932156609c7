// Issue 33: data sets per second of the max-plus recurrence with drawn times (model/maxplus.hpp) against those of a
// SimGrid run of the same mapping. Target: at least 100x. The mapping is scenarios/examples/quickstart.yaml's
// (3 stages one-to-one, [1]:P2 [2]:P1 [3]:P3, one-port, exact network), rebuilt here without SimGrid. The baseline is
// `pipesim simulate` on that scenario, run from this process: the CPU time of the child (getrusage) for N = 200,000
// data sets minus that of N = 2 (start-up, mapping, latency run), so the rate is the simulation's own. The max-plus
// rows run 2,000,000 data sets of: the means (deterministic), exponential work, and gamma(cv 0.5) work with
// exponential message sizes (7 draws per data set). The label of each max-plus row states its ratio to the SimGrid
// rate measured first in the same process.
#include "model/maxplus.hpp"
#include "base/external_program.hpp"
#include "bench/target.hpp"
#include "model/event_graph.hpp"

#include <benchmark/benchmark.h>
#include <ctime>
#include <fmt/format.h>
#include <sys/resource.h>

using namespace pipesim;

namespace {

double cpu_seconds()
{
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double children_cpu_seconds()
{
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// Child CPU seconds of `pipesim simulate quickstart.yaml --datasets n`.
double simulate_cpu(long long n)
{
  ProgramCall call;
  call.argv     = {PIPESIM_PROGRAM,
                   "simulate",
                   PIPESIM_SOURCE_DIR "/scenarios/examples/quickstart.yaml",
                   "--datasets",
                   std::to_string(n),
                   "-q",
                   "--format",
                   "json"};
  double before = children_cpu_seconds();
  if (!run_program(call).ok()) return -1;
  return children_cpu_seconds() - before;
}

double& simgrid_rate()
{
  static double rate = 0;
  return rate;
}

/// quickstart.yaml's instance and mapping.
struct Quickstart {
  Pipeline pipeline{{10, 20, 5}, {10, 10, 10, 10}};
  Platform platform{{{"P1", 12}, {"P2", 8}, {"P3", 10}, {"P4", 6}}, "in", "out", 10.0, 0.0};
  Mapping mapping = make_interval_mapping({{1, 1}, {2, 2}, {3, 3}}, {1, 0, 2});
};

void BM_SimGrid(benchmark::State& state)
{
  const long long n = 200'000;
  double total = 0, base = 0;
  for (auto _ : state) {
    total += simulate_cpu(n);
    base += simulate_cpu(2);
  }
  simgrid_rate() = static_cast<double>(n - 2) * static_cast<double>(state.iterations()) / (total - base);
  state.counters["datasets_per_s"] = simgrid_rate();
  state.counters["cpu_s"]          = total / static_cast<double>(state.iterations());
  state.SetLabel(bench::no_verdict_line("SimGrid data sets per CPU second", simgrid_rate(), bench::Unit::none,
                                        bench::NoVerdict::no_target));
}

/// range(0): 0 the means, 1 exponential work, 2 gamma(cv 0.5) work and exponential sizes.
void BM_MaxPlus(benchmark::State& state)
{
  Quickstart q;
  auto g = build_oneport_event_graph(q.pipeline, q.platform, q.mapping);
  VariabilitySpec spec;
  if (state.range(0) == 1) spec.work = UnitLaw::exponential();
  if (state.range(0) == 2) {
    spec.work = UnitLaw::gamma(0.5);
    spec.size = UnitLaw::exponential();
  }
  Variability v(q.pipeline, spec, 42);
  const long long n = 2'000'000;
  double cpu = 0, last = 0;
  for (auto _ : state) {
    double t0 = cpu_seconds();
    auto out  = maxplus_output_times(g, v, n);
    cpu += cpu_seconds() - t0;
    last = out.back();
  }
  const double rate                = static_cast<double>(n) * static_cast<double>(state.iterations()) / cpu;
  state.counters["datasets_per_s"] = rate;
  state.counters["t_N/N"]          = last / static_cast<double>(n);
  const char* laws[]               = {"means", "exponential w", "gamma(0.5) w, exponential delta"};
  const std::string figure         = fmt::format("{}: data sets per CPU second / SimGrid's", laws[state.range(0)]);
  state.SetLabel(simgrid_rate() > 0
                     ? bench::target_line(figure, rate / simgrid_rate(), {bench::Bound::at_least, 100})
                     : bench::no_verdict_line(figure, rate, bench::Unit::none, bench::NoVerdict::no_target));
}

} // namespace

BENCHMARK(BM_SimGrid)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_MaxPlus)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_MAIN();

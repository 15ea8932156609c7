// Speed of the exact interval mappers on seeded instances (each repetition solves another seed; read the
// _median and _max aggregates, CPU time): exact.interval on Fully Heterogeneous n = 50, p = 20 (issue 17 target: all
// 31 optimal, each <= 60 s of CPU), on Communication Homogeneous n = 1000, p = 256 (target: all 31 optimal, each
// <= 10 s), on Communication Homogeneous n = 100, p = 24 (median <= 10 s), on the paper's sizes n <= 10, p <= 8
// (<= 1 ms), on Fully Heterogeneous n = 50, p = 16 and past 64 processors (p = 80, 128, 256: how far it goes, 5 seeds,
// 60 s limit); and br07.ilp against exact.interval on n = 4, p = 8, as a ratio measured in the same process. One
// line per target at the end says whether it is met (CPU seconds of the mapper call, peak memory of the process).
// Instances: speeds real uniform in [1, 20]; b = 10 (Communication Homogeneous) or uniform in [1, 10] per ordered
// pair (Fully Heterogeneous); w integer in [1, 20]; delta integer in [1, 100]. Run it on one core with a memory cap,
// e.g. `ulimit -v 1048576; taskset -c 0 build/bench/bench_exact_interval`.
#include "base/random.hpp"
#include "mappers/mapper.hpp"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <sys/resource.h>
#include <tuple>

using namespace pipesim;

namespace {

Problem make_instance(std::uint64_t seed, int n, int p, bool heterogeneous)
{
  Rng rng(seed);
  Problem problem;
  for (int i = 0; i < n; ++i)
    problem.pipeline.w.push_back(static_cast<double>(rng.integer(1, 20)));
  for (int i = 0; i <= n; ++i)
    problem.pipeline.delta.push_back(static_cast<double>(rng.integer(1, 100)));
  std::vector<Processor> processors;
  for (int u = 0; u < p; ++u)
    processors.push_back(Processor{fmt::format("P{}", u + 1), rng.uniform(1, 20)});
  problem.platform = Platform(processors, "in", "out", 10.0, 0.0);
  if (heterogeneous)
    for (int u = 0; u < problem.platform.nodes(); ++u)
      for (int v = 0; v < problem.platform.nodes(); ++v)
        if (u != v) problem.platform.set_link(u, v, rng.uniform(1, 10), 0.0);
  return problem;
}

/// The seed of the next repetition of a benchmark (n, p, heterogeneous): 1, 2, 3, ...
std::uint64_t next_seed(int n, int p, bool heterogeneous)
{
  static std::map<std::tuple<int, int, bool>, std::uint64_t> seeds;
  return ++seeds[{n, p, heterogeneous}];
}

double maximum(const std::vector<double>& values) { return *std::max_element(values.begin(), values.end()); }

/// CPU seconds and status of every instance solved, per (n, p, heterogeneous), for the lines against the targets.
struct Solved {
  std::vector<double> cpu;
  int optimal      = 0;
  double worst_gap = 0;
};
std::map<std::tuple<int, int, bool>, Solved>& solved()
{
  static std::map<std::tuple<int, int, bool>, Solved> all;
  return all;
}

/// exact.interval on one seeded instance per repetition; arguments n, p, heterogeneous (0/1), time limit (s).
void BM_ExactInterval(benchmark::State& state)
{
  auto n             = static_cast<int>(state.range(0));
  auto p             = static_cast<int>(state.range(1));
  bool heterogeneous = state.range(2) == 1;
  std::uint64_t seed = next_seed(n, p, heterogeneous);
  Problem problem    = make_instance(seed, n, p, heterogeneous);
  auto mapper        = MapperRegistry::instance().create("exact.interval");
  MapperOptions options;
  options.time_limit = static_cast<double>(state.range(3));
  MapperResult result;
  double cpu = 0;
  for (auto _ : state) {
    std::clock_t start = std::clock();
    result             = mapper->map(problem, options);
    cpu                = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  }
  Solved& record = solved()[{n, p, heterogeneous}];
  record.cpu.push_back(cpu);
  record.optimal += result.status == SolveStatus::optimal ? 1 : 0;
  record.worst_gap          = std::max(record.worst_gap, relative_gap(result).value_or(0));
  state.counters["optimal"] = result.status == SolveStatus::optimal ? 1 : 0;
  state.counters["gap"]     = relative_gap(result).value_or(0);
  state.counters["nodes"]   = result.statistics["nodes"];
  state.SetLabel(fmt::format("n = {}, p = {}, {}", n, p, to_string(problem.platform.classify())));
}
BENCHMARK(BM_ExactInterval)
    ->Args({50, 20, 1, 60})
    ->Args({1000, 256, 0, 60})
    ->Args({100, 24, 0, 600})
    ->Args({50, 16, 1, 600})
    ->Iterations(1)
    ->Repetitions(31)
    ->ComputeStatistics("max", maximum)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExactInterval)
    ->Args({50, 80, 1, 60})
    ->Args({50, 128, 1, 60})
    ->Args({50, 256, 1, 60})
    ->Iterations(1)
    ->Repetitions(5)
    ->ComputeStatistics("max", maximum)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExactInterval)
    ->Args({10, 8, 0, 600})
    ->Args({10, 4, 0, 600})
    ->Args({10, 8, 1, 600})
    ->Repetitions(31)
    ->ComputeStatistics("max", maximum)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

double seconds_of(const Mapper& mapper, const Problem& problem, int repeat, MapperResult& result)
{
  auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; ++r)
    result = mapper.map(problem, MapperOptions{});
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / repeat;
}

/// br07.ilp (seed 000 §6.1, CBC) against exact.interval on the same instance, n = 4, p = 8 (seed 000 §6.2.1's
/// largest experiment, Communication Homogeneous); exact.interval is repeated to be measurable.
void BM_IlpOverExact(benchmark::State& state)
{
  std::uint64_t seed = next_seed(4, 8, false);
  Problem problem    = make_instance(seed, 4, 8, false);
  auto ilp           = MapperRegistry::instance().create("br07.ilp");
  auto exact         = MapperRegistry::instance().create("exact.interval");
  MapperResult by_ilp;
  MapperResult by_exact;
  double ilp_s   = 0;
  double exact_s = 0;
  for (auto _ : state) {
    ilp_s   = seconds_of(*ilp, problem, 1, by_ilp);
    exact_s = seconds_of(*exact, problem, 1000, by_exact);
    state.SetIterationTime(ilp_s);
  }
  state.counters["ilp_ms"]   = 1e3 * ilp_s;
  state.counters["exact_us"] = 1e6 * exact_s;
  state.counters["ratio"]    = ilp_s / exact_s;
  state.counters["agree"]    = std::abs(by_ilp.objective - by_exact.objective) <= 1e-12 * by_exact.objective ? 1 : 0;
  state.SetLabel("n = 4, p = 8, communication-homogeneous");
}
BENCHMARK(BM_IlpOverExact)
    ->UseManualTime()
    ->Iterations(1)
    ->Repetitions(7)
    ->ComputeStatistics("max", maximum)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);

/// One line per instance family against its target: solved, CPU time max and median.
void report_targets()
{
  struct Target {
    int n, p;
    bool heterogeneous;
    double max_seconds; // each instance; 0: no target (how far the solver goes)
  };
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  for (Target t : {Target{50, 20, true, 60}, Target{1000, 256, false, 10}, Target{50, 80, true, 0},
                   Target{50, 128, true, 0}, Target{50, 256, true, 0}}) {
    auto found = solved().find({t.n, t.p, t.heterogeneous});
    if (found == solved().end()) continue;
    std::vector<double> cpu = found->second.cpu;
    std::sort(cpu.begin(), cpu.end());
    bool met = found->second.optimal == static_cast<int>(cpu.size()) && cpu.back() <= t.max_seconds;
    std::cout << fmt::format(
        "{} n = {}, p = {}: {}/{} optimal (worst gap {:.3g}), CPU max {:.3f} s, median {:.3f} s; "
        "target {}\n",
        t.heterogeneous ? "Fully Heterogeneous" : "Communication Homogeneous", t.n, t.p, found->second.optimal,
        cpu.size(), found->second.worst_gap, cpu.back(), cpu[cpu.size() / 2],
        t.max_seconds > 0 ? fmt::format("all optimal, each <= {} s: {}", t.max_seconds, met ? "MET" : "NOT MET")
                          : std::string("none (how far it goes past 64 processors)"));
  }
  std::cout << fmt::format("peak memory of the process (max RSS): {:.1f} MiB\n",
                           static_cast<double>(usage.ru_maxrss) / 1024.0);
}

} // namespace

int main(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  report_targets();
  return 0;
}

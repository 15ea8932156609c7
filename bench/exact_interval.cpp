// Speed of the exact interval mappers on seeded instances (each repetition solves another seed; read the
// _median and _max aggregates, CPU time): exact.interval on Fully Heterogeneous n = 50, p = 20 (issue 17 target: all
// 31 optimal, each <= 60 s of CPU), on Communication Homogeneous n = 1000, p = 256 (target: all 31 optimal, each
// <= 10 s), on Communication Homogeneous n = 100, p = 24 (median <= 10 s), on the paper's sizes n <= 10, p <= 8
// (<= 1 ms), on Fully Heterogeneous n = 50, p = 16 (all optimal, median <= 10 s) and past 64 processors (p = 80, 128,
// 256: how far it goes, 5 seeds, 60 s limit); and br07.ilp against exact.interval on n = 4, p = 8, as a ratio measured
// in the same process (no target). One line per family at the end states its CPU time against its target
// (bench/target.hpp; CPU seconds of the mapper call; the paper's sizes: the max; p = 80, 128, 256: no target), then the
// peak memory of the process. Instances: speeds real uniform in [1, 20]; b = 10 (Communication Homogeneous) or uniform
// in [1, 10] per ordered pair (Fully Heterogeneous); w integer in [1, 20]; delta integer in [1, 100]. Run it on one
// core with a memory cap, e.g. `ulimit -v 1048576; taskset -c 0 build/bench/bench_exact_interval`.
#include "base/random.hpp"
#include "bench/target.hpp"
#include "mappers/mapper.hpp"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <optional>
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

/// br07.ilp (br07 §6.1, CBC) against exact.interval on the same instance, n = 4, p = 8 (br07 §6.2.1's
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

/// Which CPU time of a family its target bounds.
enum class Statistic { median, max };

/// A family of instances and its target (docs/exact.md): the CPU median or max, and every instance optimal when
/// `all_optimal`.
struct FamilyTarget {
  int n, p;
  bool heterogeneous;
  std::optional<bench::Target> target; // none: how far the solver goes past 64 processors
  Statistic statistic = Statistic::max;
  bool all_optimal    = false;
};

const std::vector<FamilyTarget>& family_targets()
{
  using bench::Bound, bench::Unit;
  const bench::Target s60{Bound::at_most, 60, Unit::seconds}, s10{Bound::at_most, 10, Unit::seconds};
  const bench::Target ms1{Bound::at_most, 1, Unit::milliseconds};
  static const std::vector<FamilyTarget> all = {{50, 20, true, s60, Statistic::max, true},     // issue 17
                                                {1000, 256, false, s10, Statistic::max, true}, // issue 17
                                                {100, 24, false, s10, Statistic::median, false},
                                                {50, 16, true, s10, Statistic::median, true},
                                                {50, 80, true, std::nullopt},
                                                {50, 128, true, std::nullopt},
                                                {50, 256, true, std::nullopt},
                                                {10, 8, false, ms1}, // the paper's sizes
                                                {10, 4, false, ms1},
                                                {10, 8, true, ms1}};
  return all;
}

/// "<family>: <optimal>/<count> optimal (worst gap g), CPU <other statistic> x s; CPU <statistic>: y s (target ...)".
std::string family_line(const FamilyTarget& f, const Solved& solved)
{
  std::vector<double> cpu = solved.cpu;
  std::sort(cpu.begin(), cpu.end());
  const auto count   = static_cast<int>(cpu.size());
  const bool ms      = f.target && f.target->unit == bench::Unit::milliseconds;
  const double scale = ms ? 1e3 : 1;
  const bool median  = f.statistic == Statistic::median;
  const double bound = scale * (median ? cpu[cpu.size() / 2] : cpu.back());
  const double other = scale * (median ? cpu.back() : cpu[cpu.size() / 2]);
  const char* figure = median ? "CPU median" : "CPU max";
  std::string head =
      fmt::format("{} n = {}, p = {}: {}/{} optimal (worst gap {:.3g}), {} {:.4g}{}",
                  f.heterogeneous ? "Fully Heterogeneous" : "Communication Homogeneous", f.n, f.p, solved.optimal,
                  count, solved.worst_gap, median ? "CPU max" : "CPU median", other, ms ? " ms" : " s");
  if (!f.target)
    return head + "; " + bench::no_verdict_line(figure, bound, bench::Unit::seconds, bench::NoVerdict::no_target);
  bench::Note note{f.all_optimal ? "all optimal" : "", !f.all_optimal || solved.optimal == count};
  return head + "; " + bench::target_line(figure, bound, *f.target, note);
}

/// One line per instance family run against its target (bench/target.hpp), then the peak memory.
void report_targets()
{
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  for (const FamilyTarget& f : family_targets()) {
    auto found = solved().find({f.n, f.p, f.heterogeneous});
    if (found != solved().end() && !found->second.cpu.empty()) std::cout << family_line(f, found->second) << "\n";
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

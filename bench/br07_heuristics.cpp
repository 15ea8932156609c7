// Speed of H7b-BSC (br07 §4.2) on n = 50 stages and p = 100 processors (target <= 50 ms), as a ratio against
// H2-GSW run in the same process, plus absolute times. Instances follow br07 §5, Experiment 1 (b = 10, integer
// s in [1, 20], delta = 10, integer w in [1, 20]); the second argument value uses heterogeneous links instead
// (b_{u,v} in [5, 15] per ordered pair), which the paper leaves open. The label of each BM_Mapper row of H7b-BSC
// states its CPU time per call against the target (bench/target.hpp); H2-GSW and the ratio have no target.
#include "base/random.hpp"
#include "bench/cpu_time.hpp"
#include "bench/target.hpp"
#include "mappers/mapper.hpp"

#include <benchmark/benchmark.h>
#include <chrono>
#include <fmt/format.h>
#include <optional>

using namespace pipesim;

namespace {

Problem make_instance(int n, int p, bool heterogeneous_links)
{
  Rng rng(2007);
  Problem problem;
  for (int i = 0; i < n; ++i)
    problem.pipeline.w.push_back(static_cast<double>(rng.integer(1, 20)));
  problem.pipeline.delta.assign(static_cast<std::size_t>(n + 1), 10.0);
  std::vector<Processor> processors;
  for (int u = 0; u < p; ++u)
    processors.push_back(Processor{fmt::format("P{}", u + 1), static_cast<double>(rng.integer(1, 20))});
  problem.platform = Platform(processors, "in", "out", 10.0, 0.0);
  if (heterogeneous_links)
    for (int u = 0; u < problem.platform.nodes(); ++u)
      for (int v = 0; v < problem.platform.nodes(); ++v)
        if (u != v) problem.platform.set_link(u, v, rng.uniform(5, 15), 0.0);
  return problem;
}

double seconds_of(const Mapper& mapper, const Problem& problem, int repeat)
{
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; ++r)
    benchmark::DoNotOptimize(mapper.map(problem, MapperOptions{}));
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / repeat;
}

/// Absolute time of one mapper (argument 0: Communication Homogeneous, 1: heterogeneous links), with the CPU time
/// per call against `target` when there is one.
void BM_Mapper(benchmark::State& state, const char* name, std::optional<bench::Target> target)
{
  Problem problem = make_instance(50, 100, state.range(0) == 1);
  auto mapper     = MapperRegistry::instance().create(name);
  double start    = bench::cpu_seconds();
  for (auto _ : state)
    benchmark::DoNotOptimize(mapper->map(problem, MapperOptions{}));
  double cpu_ms     = 1e3 * (bench::cpu_seconds() - start) / static_cast<double>(state.iterations());
  std::string label = fmt::format("n = 50, p = 100, {}", to_string(problem.platform.classify()));
  if (target) label += "; " + bench::target_line("CPU per call", cpu_ms, *target);
  state.SetLabel(label);
}
const bench::Target h7b_target{bench::Bound::at_most, 50, bench::Unit::milliseconds}; // docs/heuristics.md
BENCHMARK_CAPTURE(BM_Mapper, h7b_bsc, "br07.h7b-bsc", h7b_target)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Mapper, h2_gsw, "br07.h2-gsw", std::nullopt)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

/// H7b-BSC against H2-GSW, alternating in the same process; H2 is repeated to be measurable.
void BM_H7bOverH2(benchmark::State& state)
{
  Problem problem = make_instance(50, 100, state.range(0) == 1);
  auto h7b        = MapperRegistry::instance().create("br07.h7b-bsc");
  auto h2         = MapperRegistry::instance().create("br07.h2-gsw");
  double h7b_s = 0, h2_s = 0;
  for (auto _ : state) {
    double fast = seconds_of(*h2, problem, 200);
    double slow = seconds_of(*h7b, problem, 1);
    h2_s += fast;
    h7b_s += slow;
    state.SetIterationTime(slow);
  }
  auto iterations          = static_cast<double>(state.iterations());
  state.counters["h7b_ms"] = 1e3 * h7b_s / iterations;
  state.counters["h2_us"]  = 1e6 * h2_s / iterations;
  state.counters["ratio"]  = h7b_s / h2_s;
  state.SetLabel(fmt::format("n = 50, p = 100, {}", to_string(problem.platform.classify())));
}
BENCHMARK(BM_H7bOverH2)->Arg(0)->Arg(1)->UseManualTime()->Iterations(20)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();

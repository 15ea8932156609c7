// Issue 33: the exponential method (chain of the event graph's markings, Algorithmica 2014) up to its largest accepted
// size (ExponentialOptions::max_states = 2,000,000). Target: 10^6 states in at most 10 s. One-to-one lines of n stages:
// with zero-size messages a zero-buffer blocking line (F(2n + 2) tangible markings, Fibonacci: 6,765 at n = 10,
// 832,040 at n = 15), with messages of positive size (timed transfers) 3^n (19,683 at n = 9, 1,594,323 at n = 13, the
// largest accepted). Reported as CPU time of exponential_period (explore and solve), with the states, edges and
// Gauss-Seidel sweeps and, as a baseline measured in the same process, the time of the exploration alone
// (total/explore: what the solve adds). The row's label states the CPU time per 10^6 states against the target.
#include "model/exponential_period.hpp"
#include "bench/cpu_time.hpp"
#include "bench/target.hpp"
#include "model/event_graph.hpp"
#include "model/marking_chain.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

using namespace pipesim;

namespace {

/// One-to-one line of n stages, speeds 1, w_i in [1, 2] (a fixed pattern), messages of `bytes` on links of 4.
EventGraph line(int n, double bytes)
{
  Pipeline pipeline;
  std::vector<Processor> procs;
  std::vector<std::pair<int, int>> intervals;
  std::vector<int> alloc;
  for (int i = 0; i < n; ++i) {
    pipeline.w.push_back(1 + 0.1 * ((7 * i) % 11));
    procs.push_back(Processor{fmt::format("P{}", i + 1)});
    intervals.push_back({i + 1, i + 1});
    alloc.push_back(i);
  }
  pipeline.delta.assign(static_cast<std::size_t>(n + 1), bytes);
  Platform platform(procs, "in", "out", 4.0, 0.0);
  return build_oneport_event_graph(pipeline, platform, make_interval_mapping(intervals, alloc));
}

/// range(0): stages; range(1): message size (0: zero-time transfers).
void BM_ExponentialLine(benchmark::State& state)
{
  auto g         = line(static_cast<int>(state.range(0)), static_cast<double>(state.range(1)));
  double explore = 0, total = 0;
  ExponentialPeriod e;
  for (auto _ : state) {
    double t0 = bench::cpu_seconds();
    benchmark::DoNotOptimize(explore_markings(g, ExponentialOptions{}.max_states).states);
    double t1 = bench::cpu_seconds();
    e         = exponential_period(g);
    double t2 = bench::cpu_seconds();
    explore += t1 - t0;
    total += t2 - t1;
  }
  auto n                          = static_cast<double>(state.iterations());
  state.counters["states"]        = static_cast<double>(e.states);
  state.counters["edges"]         = static_cast<double>(e.edges);
  state.counters["sweeps"]        = e.sweeps;
  state.counters["period"]        = e.period.value_or(0);
  state.counters["explore_cpu_s"] = explore / n;
  state.counters["total_cpu_s"]   = total / n;
  state.counters["total/explore"] = total / explore;
  const double per_million        = total / n / (static_cast<double>(e.states) / 1e6);
  state.SetLabel(e.period ? bench::target_line(fmt::format("{} states, CPU per 10^6 states", e.states), per_million,
                                               {bench::Bound::at_most, 10, bench::Unit::seconds})
                          : "no period: " + e.reason);
}

} // namespace

BENCHMARK(BM_ExponentialLine)
    ->Args({10, 0})
    ->Args({15, 0})
    ->Args({9, 1})
    ->Args({13, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_MAIN();

// bbr10 §7.1 / Figure 8: the §5 MILP (CBC) against the `best` election (the four heuristics) and the fastest
// heuristic (MaxBout), on the paper's instances for p = 100 (w in [1, 20], integer delta in [1, 25], s in [1, 20],
// cards and links in [1, 10]; a random general mapping: each stage on a random set of processors), all alive.
// Reported as ratios measured in the same process (the paper: the MILP 527-627x slower than MaxBout/Random).
#include "base/random.hpp"
#include "mappers/bbr10/election_milp.hpp"
#include "model/bbr10/best.hpp"
#include "model/bbr10/max_bout.hpp"

#include <benchmark/benchmark.h>
#include <chrono>
#include <fmt/format.h>

using namespace pipesim;

namespace {

struct Instance {
  Pipeline pipeline;
  Platform platform;
  Mapping mapping;
};

/// bbr10 §7.1: "we have randomly chosen a placement for each stage on a randomly chosen set of processors". One
/// stage per interval; the set of stage i has 1..5 processors drawn from the p (sets may overlap).
Instance make_instance(int n, int p)
{
  Rng rng(static_cast<std::uint64_t>(1000 * n + p));
  Instance inst;
  for (int i = 0; i < n; ++i)
    inst.pipeline.w.push_back(rng.uniform(1, 20));
  for (int i = 0; i <= n; ++i)
    inst.pipeline.delta.push_back(static_cast<double>(rng.integer(1, 25)));
  std::vector<Processor> procs;
  for (int u = 0; u < p; ++u)
    procs.push_back(
        Processor{fmt::format("P{}", u + 1), rng.uniform(1, 20), 0.1, rng.uniform(1, 10), rng.uniform(1, 10)});
  inst.platform = Platform(procs, "in", "out");
  for (int u = 0; u < inst.platform.nodes(); ++u)
    for (int v = 0; v < inst.platform.nodes(); ++v)
      if (u != v) inst.platform.set_link(u, v, rng.uniform(1, 10), 0);
  for (int i = 1; i <= n; ++i) {
    Interval in{i, i, {}, Replication::active};
    auto r = rng.integer(1, 5);
    while (static_cast<long long>(in.replicas.size()) < r) {
      int u = static_cast<int>(rng.integer(0, p - 1));
      if (!in.holds(u)) in.replicas.push_back({u});
    }
    inst.mapping.intervals.push_back(in);
  }
  return inst;
}

template <typename F>
double seconds_of(F&& f, int repeat)
{
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; ++r)
    f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / repeat;
}

/// MILP vs best vs MaxBout on n stages (argument), p = 100; counters: times, ratios, relative gap of best.
void BM_MilpOverBest(benchmark::State& state)
{
  int n         = static_cast<int>(state.range(0));
  auto inst     = make_instance(n, 100);
  auto config   = FailureConfiguration::all_alive(inst.platform);
  double milp_s = 0, best_s = 0, max_bout_s = 0, gap = 0;
  for (auto _ : state) {
    MilpElection milp;
    ElectionChoice best;
    double slow =
        seconds_of([&] { milp = bbr10_milp_election(inst.pipeline, inst.platform, inst.mapping, config); }, 1);
    best_s += seconds_of([&] { best = bbr10_best_election(inst.pipeline, inst.platform, inst.mapping, config); }, 50);
    max_bout_s += seconds_of(
        [&] {
          auto e = bbr10_max_bout_election(inst.pipeline, inst.platform, inst.mapping, config);
          benchmark::DoNotOptimize(bbr10_period(inst.pipeline, inst.platform, inst.mapping, config, e));
        },
        200);
    milp_s += slow;
    gap = best.period / milp.choice.period - 1;
    if (milp.status != SolveStatus::optimal) state.SkipWithError("CBC did not prove the optimum");
    state.SetIterationTime(slow);
  }
  auto it                             = static_cast<double>(state.iterations());
  state.counters["milp_ms"]           = 1e3 * milp_s / it;
  state.counters["best_us"]           = 1e6 * best_s / it;
  state.counters["max_bout_us"]       = 1e6 * max_bout_s / it;
  state.counters["milp_over_best"]    = milp_s / best_s;
  state.counters["milp_over_maxbout"] = milp_s / max_bout_s;
  state.counters["best_gap"]          = gap;
  state.SetLabel(fmt::format("n = {}, p = 100, all alive", n));
}
BENCHMARK(BM_MilpOverBest)
    ->Arg(20)
    ->Arg(40)
    ->Arg(60)
    ->Arg(80)
    ->Arg(100)
    ->Arg(120)
    ->UseManualTime()
    ->Iterations(5)
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();

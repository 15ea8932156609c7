// Issue 5 benchmarks of the crash simulator:
// - BM_MonteCarlo10000: 10,000 Monte Carlo runs (probability model, f = 0.1) of a 16-stage pipeline on 32 processors
//   (8 intervals of 2 stages, 4 active replicas each), multi-port allotted, 2 processes: N = 20 data sets (target
//   <= 90 s, issue 17) and N = 50 (no target); docs/library.md has the figures and where the time goes.
// - BM_PreparedVsForkPerRun: 1,000 runs of the same series each way, alternated, in the same process:
//   simulate_monte_carlo (the simulator's series entry point: two workers set SimGrid and the platform up once; each
//   batch of up to 32 runs is a child forked from them that runs its runs one after the other in its engine) against
//   the plain way (each run a child that starts SimGrid and builds the platform: simulate_here of the run's job);
//   `ratio` = prepared / plain seconds.
// - BM_MultiportVsOneport: one crash-free run (N = 1,000) of the same mapping in each model, in the same process
//   tree: `ratio` = multi-port seconds / one-port seconds.
// BM_MonteCarlo10000's label states the time against the target (bench/target.hpp), the others have none.
// Small mode: BENCH_RUNS=R runs R runs instead of 10,000 and 1,000 (e.g. to compare CPU times of two builds); the
// target then scales with the runs (90 s x R / 10000) and the label says so.
#include "base/subprocess.hpp"
#include "bench/target.hpp"
#include "model/test_fixtures.hpp"
#include "simulator/simulate.hpp"
#include "validation/evaluation/monte_carlo.hpp"

#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <sstream>

using namespace pipesim;

namespace {

/// BENCH_RUNS when set (small mode), else `runs`.
int runs_or_env(int runs)
{
  const char* v = std::getenv("BENCH_RUNS");
  return v ? std::atoi(v) : runs;
}

fixtures::RandomInstance instance()
{
  Rng rng(2026);
  auto inst = fixtures::random_platform_and_pipeline(rng, 16, 32, false);
  for (int u = 0; u < 32; ++u) {
    inst.platform.processor(u).nic_in              = rng.uniform(20, 60);
    inst.platform.processor(u).nic_out             = rng.uniform(20, 60);
    inst.platform.processor(u).failure_probability = 0.1;
  }
  inst.mapping.intervals.clear();
  for (int j = 0; j < 8; ++j) {
    Interval in{2 * j + 1, 2 * j + 2, {}, Replication::active};
    for (int r = 0; r < 4; ++r)
      in.replicas.push_back({4 * j + r});
    inst.mapping.intervals.push_back(in);
  }
  return inst;
}

SimulationSettings settings(CommModel model, int datasets)
{
  SimulationSettings s;
  s.model = model;
  if (model == CommModel::multi_port) s.allocation = Allocation::allotted;
  s.datasets = datasets;
  return s;
}

/// A Monte Carlo series of `runs` multi-port runs with the probability model; BENCH_SIMGRID adds SimGrid options
/// (space-separated, e.g. "--cfg=contexts/stack-size:256") to try their effect.
SimulationSettings series(int runs, int datasets)
{
  auto s = settings(CommModel::multi_port, datasets);
  if (const char* v = std::getenv("BENCH_SIMGRID")) {
    std::istringstream words(v);
    for (std::string w; words >> w;)
      s.simgrid_args.push_back(w);
  }
  s.failures.model = FailureModel::probability;
  s.runs           = runs;
  return s;
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The time of `runs` runs against the target of N = 20 (issue 17: 10,000 runs in <= 90 s), scaled to `runs`.
std::string monte_carlo_line(int runs, int datasets, double seconds)
{
  using namespace bench;
  constexpr int target_runs       = 10000;
  constexpr double target_seconds = 90;
  std::string figure              = fmt::format("{} runs", runs);
  if (datasets != 20) return no_verdict_line(figure, seconds, Unit::seconds, NoVerdict::no_target);
  if (runs == target_runs) return target_line(figure, seconds, {Bound::at_most, target_seconds, Unit::seconds});
  std::string scaled = fmt::format("scaled: {} s x {} / {} runs", target_seconds, runs, target_runs);
  return target_line(figure, seconds,
                     {Bound::at_most, target_seconds * static_cast<double>(runs) / target_runs, Unit::seconds},
                     {scaled});
}

void BM_MonteCarlo10000(benchmark::State& state)
{
  auto inst = instance();
  auto s    = series(runs_or_env(static_cast<int>(state.range(0))), static_cast<int>(state.range(1)));
  MonteCarloSummary mc;
  double seconds = 0;
  for (auto _ : state) {
    auto t0  = std::chrono::steady_clock::now();
    mc       = simulate_monte_carlo(inst.pipeline, inst.platform, inst.mapping, s, 2);
    double t = seconds_since(t0);
    seconds += t;
    state.SetIterationTime(t);
  }
  state.counters["runs_per_s"] = benchmark::Counter(
      static_cast<double>(s.runs) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["survival"]    = mc.survival_rate;
  state.counters["survived"]    = mc.survived; // seeded: the same count from every build
  state.counters["one_minus_F"] = mc.analytic_survival.value_or(-1);
  state.counters["errors"]      = mc.errors;
  state.SetLabel(monte_carlo_line(s.runs, s.datasets, seconds / static_cast<double>(state.iterations())));
}
BENCHMARK(BM_MonteCarlo10000)
    ->Args({10000, 20})
    ->Args({10000, 50})
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

/// The plain way: each run a child that starts SimGrid and builds the platform itself.
double fork_per_run_seconds(const fixtures::RandomInstance& inst, const SimulationSettings& s, double makespan)
{
  auto t0 = std::chrono::steady_clock::now();
  run_pool(s.runs, {.jobs = 2}, [&](int i) {
    SimulationSettings run = settings_for_run(inst.platform, inst.mapping, s, i, makespan);
    SimulationJob job(inst.pipeline, inst.platform, inst.mapping, run);
    return std::string(to_string(simulate_here(job).run.failures.verdict));
  });
  return seconds_since(t0);
}

void BM_PreparedVsForkPerRun(benchmark::State& state)
{
  auto inst       = instance();
  auto s          = series(runs_or_env(1000), 20);
  double makespan = simulate({inst.pipeline, inst.platform, inst.mapping, without_failures(s)}).run.makespan;
  double prepared = 0, plain = 0;
  for (auto _ : state) {
    plain += fork_per_run_seconds(inst, s, makespan);
    auto t0 = std::chrono::steady_clock::now();
    simulate_monte_carlo(inst.pipeline, inst.platform, inst.mapping, s, 2);
    double t = seconds_since(t0);
    prepared += t;
    state.SetIterationTime(t);
  }
  state.counters["plain_s"]    = plain / static_cast<double>(state.iterations());
  state.counters["prepared_s"] = prepared / static_cast<double>(state.iterations());
  state.counters["ratio"]      = prepared / plain;
}
BENCHMARK(BM_PreparedVsForkPerRun)->UseManualTime()->Iterations(3)->Unit(benchmark::kSecond);

void BM_MultiportVsOneport(benchmark::State& state)
{
  auto inst  = instance();
  double one = 0, multi = 0;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    simulate({inst.pipeline, inst.platform, inst.mapping, settings(CommModel::one_port, 1000)});
    one += seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    simulate({inst.pipeline, inst.platform, inst.mapping, settings(CommModel::multi_port, 1000)});
    double t = seconds_since(t0);
    multi += t;
    state.SetIterationTime(t);
  }
  state.counters["oneport_s"]   = one / static_cast<double>(state.iterations());
  state.counters["multiport_s"] = multi / static_cast<double>(state.iterations());
  state.counters["ratio"]       = multi / one;
}
BENCHMARK(BM_MultiportVsOneport)->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();

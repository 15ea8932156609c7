// Campaign runner scaling: 200 small simulations with 1 worker and with 2 workers in the same run; the `speedup`
// counter is time(1 job) / time(2 jobs) (target >= 1.8 on 2 cores), which the row's label states against the target
// (bench/target.hpp).
#include "bench/target.hpp"
#include "scenarios/campaign.hpp"
#include "validation/campaigns/campaign_runner.hpp"

#include <benchmark/benchmark.h>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <unistd.h>

using namespace pipesim;

namespace {

const char* campaign_text = R"(name: bench-speedup
mode: simulate
trace: 0
base:
  pipeline: {generate: {n: 6, w: [1, 20], delta: [1, 100], seed: 1}}
  platform: {generate: {class: fully-heterogeneous, p: 8, speed: [1, 20], bandwidth: [1, 10], seed: 1}}
  mapper: random.interval
  simulation: {datasets: 500}
seed: {from: 1, count: 200}
)";

double run_with(const Campaign& c, int jobs)
{
  auto dir = std::filesystem::temp_directory_path() / fmt::format("pipesim-bench-{}-{}", getpid(), jobs);
  std::filesystem::remove_all(dir);
  RunnerOptions o;
  o.out_dir = dir.string();
  o.jobs    = jobs;
  o.quiet   = true;
  auto t0   = std::chrono::steady_clock::now();
  run_campaign(c, o);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::filesystem::remove_all(dir);
  return s;
}

void BM_CampaignSpeedup(benchmark::State& state)
{
  Campaign c = parse_campaign(campaign_text, "bench-speedup.yaml", ".");
  double one = 0, two = 0;
  for (auto _ : state) {
    one += run_with(c, 1);
    double t = run_with(c, 2);
    two += t;
    state.SetIterationTime(t);
  }
  state.counters["jobs1_s"] = one / static_cast<double>(state.iterations());
  state.counters["jobs2_s"] = two / static_cast<double>(state.iterations());
  state.counters["speedup"] = one / two;
  state.SetLabel(bench::target_line("speedup", one / two, {bench::Bound::at_least, 1.8}));
}
BENCHMARK(BM_CampaignSpeedup)->UseManualTime()->Iterations(2)->Unit(benchmark::kSecond);

} // namespace

BENCHMARK_MAIN();

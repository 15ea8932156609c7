// Issue 32: rows per second of an analytic campaign, hedpm-fig23-analytic (validation/campaigns/), its first 640 runs
// with 2 worker processes. `one_row` is the runner as it was, a worker process and two fsyncs per row
// (RunnerOptions::rows_per_worker = 1); `batched` is the default, analytic_rows_per_worker rows per worker and one
// sync per file and worker. The two alternate in each iteration; `speedup` is rows/s batched over rows/s one_row.
#include "scenarios/campaign.hpp"
#include "validation/campaigns/campaign_runner.hpp"

#include <benchmark/benchmark.h>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <unistd.h>

using namespace pipesim;

namespace {

constexpr int analytic_bench_rows = 640;

/// Seconds to run the campaign into a fresh directory with this many rows per worker (0: the default).
double analytic_rows_seconds(const Campaign& c, int rows_per_worker)
{
  auto dir =
      std::filesystem::temp_directory_path() / fmt::format("pipesim-bench-rows-{}-{}", getpid(), rows_per_worker);
  std::filesystem::remove_all(dir);
  RunnerOptions o;
  o.out_dir         = dir.string();
  o.jobs            = 2;
  o.quiet           = true;
  o.rows_per_worker = rows_per_worker;
  auto t0           = std::chrono::steady_clock::now();
  run_campaign(c, o);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::filesystem::remove_all(dir);
  return s;
}

void BM_AnalyticCampaignRows(benchmark::State& state)
{
  Campaign c = load_campaign(std::string(PIPESIM_SOURCE_DIR) + "/validation/campaigns/hedpm-fig23-analytic.yaml");
  std::erase_if(c.runs, [](const CampaignRun& run) { return run.id >= analytic_bench_rows; });
  double one_row = 0, batched = 0;
  for (auto _ : state) {
    one_row += analytic_rows_seconds(c, 1);
    double t = analytic_rows_seconds(c, 0);
    batched += t;
    state.SetIterationTime(t);
  }
  double n                             = static_cast<double>(state.iterations()) * analytic_bench_rows;
  state.counters["one_row_rows_per_s"] = n / one_row;
  state.counters["batched_rows_per_s"] = n / batched;
  state.counters["speedup"]            = one_row / batched;
}
BENCHMARK(BM_AnalyticCampaignRows)->UseManualTime()->Iterations(2)->Unit(benchmark::kSecond);

} // namespace

BENCHMARK_MAIN();

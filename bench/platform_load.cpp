// Issue 7: load a Grid'5000-shaped SimGrid platform of 8 x 320 hosts + io in 8 site zones (bench/large_platform.hpp,
// two sites without any route between them and the rest), select 100 hosts (zones ash1 and elm1: 50 hosts each, on
// two sites) and map a 20-stage pipeline on them with br07.h7b-bsc. Targets: load <= 5 s, memory <= 500 MB.
// Every load runs in a forked "measuring" child that calls load_xml_platform (which forks the SimGrid loader): the
// loader's peak RSS is the measuring child's RUSAGE_CHILDREN, the measuring child's own peak (JSON parse, model,
// mapping) its RUSAGE_SELF. Ratios are against loading platforms/examples/two_clusters.xml in the same process.
// Argument: hosts per site (40 for a quick run, 320 for the 2,561 hosts). The label of each row states the
// load time and the peak memory against the targets (bench/target.hpp); the quick run is a small mode: no verdict.
#include "base/subprocess.hpp"
#include "bench/large_platform.hpp"
#include "bench/target.hpp"
#include "mappers/mapper.hpp"
#include "model/pipeline_generator.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>

using namespace pipesim;

namespace {

constexpr double target_load_s  = 5;
constexpr double target_rss_mb  = 500;
constexpr const char* mapper    = "br07.h7b-bsc";
constexpr int selected_clusters = 2; // ash1 and elm1, each lead_cluster_hosts

/// Peak RSS in MB of this process (RUSAGE_SELF) or of its largest waited-for child (RUSAGE_CHILDREN).
double peak_rss_mb(int who)
{
  rusage usage{};
  ::getrusage(who, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024; // kB on Linux
}

struct LoadFigures {
  double seconds       = 0;
  double loader_rss_mb = 0; // the SimGrid child's peak
  double parent_rss_mb = 0; // the caller's peak (measuring child: JSON parse, model)
  int processors       = 0;
  double map_seconds   = 0;
  double period        = 0;
};

/// Loads `file` with `options` in a measuring child; maps a 20-stage pipeline there when `map`.
LoadFigures measure_load(const std::string& file, const PlatformOptions& options, bool map)
{
  std::string text = run_in_child([&] {
    auto t0     = std::chrono::steady_clock::now();
    Platform pf = load_xml_platform(file, "io", "io", options);
    double s    = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    nlohmann::json out{{"seconds", s},
                       {"loader_rss_mb", peak_rss_mb(RUSAGE_CHILDREN)},
                       {"parent_rss_mb", peak_rss_mb(RUSAGE_SELF)},
                       {"processors", pf.p()}};
    if (map) {
      Problem problem;
      // w in flop and delta in bytes so that w/s (s = 4..16 Gflop/s) and delta/b (b = 125 MB/s..1.25 GB/s) are
      // both around a second: neither computation nor communication dominates.
      problem.pipeline   = generate_pipeline(20, Range::uniform(1e9, 2e10), Range::uniform(1e6, 1e8), 7);
      problem.platform   = std::move(pf);
      auto m0            = std::chrono::steady_clock::now();
      MapperResult r     = run_mapper(mapper, problem, MapperOptions{});
      out["map_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - m0).count();
      out["period"]      = r.objective;
    }
    return out.dump();
  });
  auto j           = nlohmann::json::parse(text);
  LoadFigures f;
  f.seconds       = j["seconds"];
  f.loader_rss_mb = j["loader_rss_mb"];
  f.parent_rss_mb = j["parent_rss_mb"];
  f.processors    = j["processors"];
  f.map_seconds   = j.value("map_seconds", 0.0);
  f.period        = j.value("period", 0.0);
  return f;
}

/// A temporary directory holding the generated platform, removed at the end of the benchmark.
struct TempPlatform {
  std::string dir;
  std::string file;
  explicit TempPlatform(const LargePlatformSpec& spec)
  {
    std::string pattern = (std::filesystem::temp_directory_path() / "pipesim-bench-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir  = pattern;
    file = dir + "/large_platform.xml";
    write_large_platform(file, spec);
  }
  ~TempPlatform()
  {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  TempPlatform(const TempPlatform&)            = delete;
  TempPlatform& operator=(const TempPlatform&) = delete;
};

LargePlatformSpec spec_for(int hosts_per_site, bool island)
{
  LargePlatformSpec spec;
  spec.hosts_per_site     = hosts_per_site;
  spec.lead_cluster_hosts = std::min(50, hosts_per_site / 2);
  spec.island             = island;
  return spec;
}

/// "<hosts> hosts; load: <s> (target ...): met; peak RSS: <MB> (target ...): met", no verdict unless at full size.
std::string target_lines(int hosts_in_file, bool full_size, double load_s, double max_rss)
{
  using namespace bench;
  const Target load{Bound::at_most, target_load_s, Unit::seconds};
  const Target rss{Bound::at_most, target_rss_mb, Unit::megabytes};
  if (!full_size)
    return fmt::format("{} hosts; {}; {}", hosts_in_file,
                       no_verdict_line("load", load_s, Unit::seconds, NoVerdict::small_mode),
                       no_verdict_line("peak RSS", max_rss, Unit::megabytes, NoVerdict::small_mode));
  return fmt::format("{} hosts; {}; {}", hosts_in_file, target_line("load", load_s, load),
                     target_line("peak RSS", max_rss, rss));
}

void report(benchmark::State& state, const LoadFigures& large, const LoadFigures& base, const LargePlatformSpec& spec)
{
  const int hosts_in_file         = large_platform_hosts(spec);
  double max_rss                  = std::max(large.loader_rss_mb, large.parent_rss_mb);
  state.counters["hosts"]         = hosts_in_file;
  state.counters["selected"]      = large.processors;
  state.counters["load_s"]        = large.seconds;
  state.counters["loader_MB"]     = large.loader_rss_mb;
  state.counters["parent_MB"]     = large.parent_rss_mb;
  state.counters["max_rss_MB"]    = max_rss;
  state.counters["load/base"]     = large.seconds / base.seconds;
  state.counters["rss/base"]      = max_rss / std::max(base.loader_rss_mb, base.parent_rss_mb);
  state.counters["target_load_s"] = target_load_s;
  state.counters["target_MB"]     = target_rss_mb;
  state.SetLabel(
      target_lines(hosts_in_file, spec.hosts_per_site == LargePlatformSpec{}.hosts_per_site, large.seconds, max_rss));
}

const std::string baseline_file = PIPESIM_SOURCE_DIR "/platforms/examples/two_clusters.xml";

/// The baseline then the large platform; false (the benchmark skipped with the message) when a load fails.
bool measure_pair(benchmark::State& state, LoadFigures& base, LoadFigures& large, const std::string& file,
                  const PlatformOptions& options, bool map)
{
  try {
    base  = measure_load(baseline_file, {}, false);
    large = measure_load(file, options, map);
    return true;
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return false;
  }
}

/// The benchmark: selection of zones ash1 and elm1 (100 hosts at full size), then the mapping.
void BM_LoadSelected(benchmark::State& state)
{
  LargePlatformSpec spec = spec_for(static_cast<int>(state.range(0)), true);
  TempPlatform platform(spec);
  PlatformOptions options;
  options.hosts = HostPattern{{{PatternItem::Kind::zone, "ash1"}, {PatternItem::Kind::zone, "elm1"}},
                              "bench/platform_load.cpp",
                              0,
                              "platform.hosts"};
  LoadFigures base, large;
  for (auto _ : state)
    if (!measure_pair(state, base, large, platform.file, options, true)) return;
  report(state, large, base, spec);
  state.counters["map_s"]  = large.map_seconds;
  state.counters["period"] = large.period;
  if (large.processors != selected_clusters * spec.lead_cluster_hosts)
    state.SetLabel(fmt::format("selection not applied ({} processors loaded)", large.processors));
}

/// Every host a processor (today's eager loader: all ordered pairs' routes), on the variant where every site is
/// reachable (with the island the load fails: processors without a route between them).
void BM_LoadAllHosts(benchmark::State& state)
{
  LargePlatformSpec spec = spec_for(static_cast<int>(state.range(0)), false);
  TempPlatform platform(spec);
  LoadFigures base, large;
  for (auto _ : state)
    if (!measure_pair(state, base, large, platform.file, {}, false)) return;
  report(state, large, base, spec);
}

} // namespace

BENCHMARK(BM_LoadSelected)->Arg(40)->Arg(320)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_LoadAllHosts)->Arg(40)->Arg(320)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_MAIN();

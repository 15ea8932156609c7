// pipesim's one-port simulator against a bare SimGrid get/execute/put chain on the same platform: the overhead
// ratio (target <= 1.05, issue 17). Each simulation runs in a child process of its own (one SimGrid engine per
// process). 15 pairs; the two runs of a pair run at the same time, one per core, so that both see the machine's
// state of the moment: on the 2-core VM the same program's run time varies by up to 40 % from one run to the next
// (docs/library.md), which run-after-run pairs did not cancel. The verdict figure is the median of the pairs'
// ratios; the row's label states it against the target (bench/target.hpp); the counters add the ratio of the sums,
// of the CPU times and of the fastest runs. Each pair's times go to stderr.
// Size: BENCH_STAGES (100) x BENCH_DATASETS (10000); another size is a small mode: no verdict. BENCH_SAME=1 runs the
// bare chain in both places of each pair: the spread of the figures when there is no difference to find.
#include "base/random.hpp"
#include "base/subprocess.hpp"
#include "bench/target.hpp"
#include "model/event_graph.hpp"
#include "model/mapping.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "simulator/simulate.hpp"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <simgrid/s4u.hpp>
#include <stdexcept>
#include <sys/resource.h>
#include <utility>
#include <vector>

namespace sg4 = simgrid::s4u;
using namespace pipesim;

namespace {

int env_int(const char* name, int fallback)
{
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

struct Instance {
  Pipeline pipeline;
  Platform platform;
  Mapping mapping;
};

/// A one-to-one mapping of n stages on n processors of a Fully Heterogeneous platform (seeded).
Instance make_instance(int n)
{
  Rng rng(2026);
  Instance in;
  for (int i = 0; i < n; ++i)
    in.pipeline.w.push_back(static_cast<double>(rng.integer(1, 20)));
  for (int i = 0; i <= n; ++i)
    in.pipeline.delta.push_back(static_cast<double>(rng.integer(1, 100)));
  std::vector<Processor> procs;
  for (int u = 0; u < n; ++u)
    procs.push_back(Processor{fmt::format("P{}", u + 1), static_cast<double>(rng.integer(1, 20))});
  in.platform = Platform(procs, "in", "out");
  for (int u = 0; u < in.platform.nodes(); ++u)
    for (int v = 0; v < in.platform.nodes(); ++v)
      if (u != v) in.platform.set_link(u, v, static_cast<double>(rng.integer(1, 10)), 0);
  std::vector<std::pair<int, int>> stages;
  std::vector<int> alloc;
  for (int i = 1; i <= n; ++i) {
    stages.emplace_back(i, i);
    alloc.push_back(i - 1);
  }
  in.mapping = make_interval_mapping(stages, alloc);
  return in;
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// CPU seconds (user + system) this process used so far: less sensitive than wall time to a loaded machine.
double cpu_seconds()
{
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return s(r.ru_utime) + s(r.ru_stime);
}

/// A child's times: wall and CPU seconds.
struct Times {
  double wall = 0;
  double cpu  = 0;
};

Times parse_times(const std::string& text)
{
  std::size_t space = text.find(' ');
  return {std::stod(text.substr(0, space)), std::stod(text.substr(space + 1))};
}

/// pipesim's simulator (in a child of its own); returns "wall cpu" of the run (engine set-up included).
std::string pipesim_run(const Instance& in, int datasets)
{
  SimulationSettings s;
  s.datasets = datasets;
  auto t0    = std::chrono::steady_clock::now();
  double c0  = cpu_seconds();
  simulate_here({in.pipeline, in.platform, in.mapping, s});
  return fmt::format("{:.17g} {:.17g}", seconds_since(t0), cpu_seconds() - c0);
}

/// A policy that never decides: the re-mapping controller's cost alone (its steps, probe and windows).
class NeverRemap final : public RemapPolicy {
public:
  std::optional<RemapDecision> decide(const RemapView&) override { return std::nullopt; }
};

/// pipesim's simulator with the re-mapping controller and the static policy (issue 34): windows of N / 20 data sets,
/// a decision every half window at the event-graph period (the defaults of a scenario's `dynamic: {policy: static}`).
std::string controller_run(const Instance& in, int datasets)
{
  SimulationSettings s;
  s.datasets = datasets;
  SimulationJob job{in.pipeline, in.platform, in.mapping, s};
  job.remap.window = std::max(1, datasets / 20);
  job.remap.check =
      job.remap.window * max_cycle_ratio(build_oneport_event_graph(in.pipeline, in.platform, in.mapping)).period / 2;
  job.policy = std::make_shared<NeverRemap>();
  auto t0    = std::chrono::steady_clock::now();
  double c0  = cpu_seconds();
  simulate_here(job);
  return fmt::format("{:.17g} {:.17g}", seconds_since(t0), cpu_seconds() - c0);
}

/// The same pipeline as a bare S4U chain: source -> stage actors (get, execute, put) -> sink.
std::string bare_run(const Instance& in, int datasets)
{
  auto t0   = std::chrono::steady_clock::now();
  double c0 = cpu_seconds();
  start_engine({"--cfg=network/model:CM02", "--cfg=network/crosstraffic:0", "--cfg=network/TCP-gamma:0"});
  build_simgrid_platform(in.platform, false);
  const int n      = in.pipeline.n();
  static int token = 0;
  auto bytes       = [&](int i) { return static_cast<std::uint64_t>(in.pipeline.data(i)); };
  sg4::Actor::create("src", sg4::Host::by_name("in"), [&, datasets] {
    auto* mb = sg4::Mailbox::by_name("m0");
    for (int k = 0; k < datasets; ++k)
      mb->put(&token, bytes(0));
  });
  for (int i = 1; i <= n; ++i)
    sg4::Actor::create(fmt::format("s{}", i), sg4::Host::by_name(fmt::format("P{}", i)), [&, i, datasets] {
      auto* in_mb  = sg4::Mailbox::by_name(fmt::format("m{}", i - 1));
      auto* out_mb = sg4::Mailbox::by_name(fmt::format("m{}", i));
      for (int k = 0; k < datasets; ++k) {
        in_mb->get<int>();
        sg4::this_actor::execute(in.pipeline.work(i));
        out_mb->put(&token, bytes(i));
      }
    });
  sg4::Actor::create("sink", sg4::Host::by_name("out"), [n, datasets] {
    auto* mb = sg4::Mailbox::by_name(fmt::format("m{}", n));
    for (int k = 0; k < datasets; ++k)
      mb->get<int>();
  });
  sg4::Engine::get_instance()->run();
  return fmt::format("{:.17g} {:.17g}", seconds_since(t0), cpu_seconds() - c0);
}

/// The size and the verdict figure against the target (issue 17: <= 1.05 at 100 stages x 10,000 data sets).
std::string overhead_line(int stages, int datasets, double ratio)
{
  using namespace bench;
  std::string line = stages == 100 && datasets == 10000
                         ? target_line("median pair ratio", ratio, {Bound::at_most, 1.05})
                         : no_verdict_line("median pair ratio", ratio, Unit::none, NoVerdict::small_mode);
  return fmt::format("{} stages x {} data sets; {}", stages, datasets, line);
}

double median(std::vector<double> values)
{
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// One pair: the bare chain and pipesim at the same time, each in a process of its own, so that both see the
/// machine's state of the moment (`swap` forks pipesim's first).
std::pair<Times, Times> time_pair(const Instance& in, int datasets, bool swap, bool controller = false)
{
  PoolOptions concurrent;
  concurrent.jobs = 2;
  auto outcomes   = run_pool(2, concurrent, [&](int i) {
    bool bare = (i == 0) != swap;
    if (std::getenv("BENCH_SAME") != nullptr) bare = true;
    if (controller) return bare ? pipesim_run(in, datasets) : controller_run(in, datasets);
    return bare ? bare_run(in, datasets) : pipesim_run(in, datasets);
  });
  for (const auto& o : outcomes)
    if (!o.ok()) throw std::runtime_error(o.text);
  Times first = parse_times(outcomes[0].text), second = parse_times(outcomes[1].text);
  return swap ? std::pair{second, first} : std::pair{first, second};
}

void BM_OnePortOverhead(benchmark::State& state)
{
  const int stages   = env_int("BENCH_STAGES", 100);
  const int datasets = env_int("BENCH_DATASETS", 10000);
  Instance in        = make_instance(stages);
  Times pipesim, bare;
  Times pipesim_min{1e300, 1e300}, bare_min{1e300, 1e300};
  std::vector<double> pair_ratios; // the two runs of a pair at the same time: the machine's drift cancels
  for (auto _ : state) {
    auto [b, p] = time_pair(in, datasets, pair_ratios.size() % 2 == 1); // alternate the forks' order too
    pair_ratios.push_back(p.wall / b.wall);
    fmt::print(stderr, "pair {:2}: bare {:.3f} s, pipesim {:.3f} s, ratio {:.4f} (CPU {:.4f})\n", pair_ratios.size(),
               b.wall, p.wall, p.wall / b.wall, p.cpu / b.cpu);
    bare.wall += b.wall;
    bare.cpu += b.cpu;
    pipesim.wall += p.wall;
    pipesim.cpu += p.cpu;
    bare_min    = {std::min(bare_min.wall, b.wall), std::min(bare_min.cpu, b.cpu)};
    pipesim_min = {std::min(pipesim_min.wall, p.wall), std::min(pipesim_min.cpu, p.cpu)};
    state.SetIterationTime(p.wall);
  }
  const auto runs                     = static_cast<double>(state.iterations());
  state.counters["pipesim_s"]         = pipesim.wall / runs;
  state.counters["bare_simgrid_s"]    = bare.wall / runs;
  state.counters["ratio"]             = pipesim.wall / bare.wall;
  state.counters["median_pair_ratio"] = median(pair_ratios);    // the one against the target
  state.counters["cpu_ratio"]         = pipesim.cpu / bare.cpu; // user + system time of the two children
  // the fastest run of each: what the machine's other load slowed least (its speed varies by 20 % over an hour)
  state.counters["min_ratio"]     = pipesim_min.wall / bare_min.wall;
  state.counters["min_cpu_ratio"] = pipesim_min.cpu / bare_min.cpu;
  state.SetLabel(overhead_line(stages, datasets, median(pair_ratios)));
}
BENCHMARK(BM_OnePortOverhead)->UseManualTime()->Iterations(15)->Unit(benchmark::kSecond);

/// The re-mapping controller with the static policy on a platform without profiles against today's run (one
/// Engine::run, NoController), pairs at the same time as above (issue 34: target <= 1.05).
void BM_RemapControllerOverhead(benchmark::State& state)
{
  const int stages   = env_int("BENCH_STAGES", 100);
  const int datasets = env_int("BENCH_DATASETS", 10000);
  Instance in        = make_instance(stages);
  std::vector<double> pair_ratios, cpu_ratios;
  for (auto _ : state) {
    auto [today, controlled] = time_pair(in, datasets, pair_ratios.size() % 2 == 1, true);
    pair_ratios.push_back(controlled.wall / today.wall);
    cpu_ratios.push_back(controlled.cpu / today.cpu);
    fmt::print(stderr, "pair {:2}: today {:.3f} s, controller {:.3f} s, ratio {:.4f} (CPU {:.4f})\n",
               pair_ratios.size(), today.wall, controlled.wall, pair_ratios.back(), cpu_ratios.back());
    state.SetIterationTime(controlled.wall);
  }
  state.counters["median_pair_ratio"] = median(pair_ratios);
  state.counters["median_cpu_ratio"]  = median(cpu_ratios);
  state.SetLabel(overhead_line(stages, datasets, median(pair_ratios)));
}
BENCHMARK(BM_RemapControllerOverhead)->UseManualTime()->Iterations(9)->Unit(benchmark::kSecond);

} // namespace

BENCHMARK_MAIN();

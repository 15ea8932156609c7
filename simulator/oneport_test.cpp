// One-port simulation in exact mode against br07's formulas and the event graph (each run in its own process).
#include "model/analytic.hpp"
#include "model/event_graph.hpp"
#include "model/test_fixtures.hpp"
#include "simulator/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <tuple>
#include <unistd.h>

using namespace pipesim;

namespace {
SimulationSettings exact(int datasets)
{
  SimulationSettings s;
  s.datasets = datasets;
  s.warmup   = datasets / 2;
  return s;
}

/// Every output time of the simulation equals the event graph's max-plus schedule, and the measured period equals
/// the maximum cycle ratio.
void expect_matches_event_graph(const fixtures::RandomInstance& inst, const std::string& what, int datasets = 60)
{
  auto graph    = build_oneport_event_graph(inst.pipeline, inst.platform, inst.mapping);
  auto expected = event_graph_output_times(graph, datasets);
  auto sim      = simulate({inst.pipeline, inst.platform, inst.mapping, exact(datasets)}).run;
  ASSERT_EQ(sim.output_times.size(), expected.size()) << what;
  for (std::size_t k = 0; k < expected.size(); ++k)
    ASSERT_NEAR(sim.output_times[k], expected[k], 1e-9 * expected[k]) << what << " data set " << k;
  double mcr = max_cycle_ratio(graph).period;
  EXPECT_NEAR(sim.period, mcr, 1e-9 * mcr) << what;
}
} // namespace

TEST(OnePortSimulation, Eq6GeneralMappingPeriodIsSeven)
{
  fixtures::Eq6Example ex;
  auto sim = simulate({ex.pipeline, ex.platform, ex.mapping, exact(40)}).run;
  EXPECT_NEAR(sim.period, 7.0, 7e-9);
  EXPECT_NEAR(sim.output_times.front(), 7.0, 7e-9); // the first data set takes one full cycle of P1
  EXPECT_NEAR(simulate({ex.pipeline, ex.platform, ex.mapping, exact(1), RunKind::latency}).latency(), 7.0, 7e-9);
}

TEST(OnePortSimulation, RandomIntervalMappingsMatchEq2)
{
  // A few dozen seeded Fully Heterogeneous instances, one-to-one and interval mappings, with and without latencies.
  for (std::uint64_t seed = 1; seed <= 40 / fixtures::asan_scale; ++seed) {
    Rng rng(seed);
    int n     = static_cast<int>(rng.integer(1, 10));
    int p     = static_cast<int>(rng.integer(1, 10));
    auto inst = fixtures::random_platform_and_pipeline(rng, n, p, seed % 3 == 0);
    fixtures::random_interval_mapping(rng, inst);
    std::string what = "seed " + std::to_string(seed) + ": " + inst.describe();
    double eq2       = br07_eq2_period(inst.pipeline, inst.platform, inst.mapping);
    auto sim         = simulate({inst.pipeline, inst.platform, inst.mapping, exact(100)}).run;
    ASSERT_NEAR(sim.period, eq2, 1e-9 * eq2) << what;
  }
}

TEST(OnePortSimulation, OneToOneMappingsMatchEq1AndLatency)
{
  for (std::uint64_t seed = 100; seed < 115; ++seed) {
    Rng rng(seed);
    int n     = static_cast<int>(rng.integer(1, 8));
    auto inst = fixtures::random_platform_and_pipeline(rng, n, n + 2, true);
    std::vector<std::pair<int, int>> stages;
    std::vector<int> alloc;
    for (int i = 1; i <= n; ++i) {
      stages.emplace_back(i, i);
      alloc.push_back(i - 1);
    }
    inst.mapping = make_interval_mapping(stages, alloc);
    ASSERT_EQ(classify(inst.mapping), MappingRule::one_to_one);
    std::string what = "seed " + std::to_string(seed) + ": " + inst.describe();
    double eq1       = br07_eq2_period(inst.pipeline, inst.platform, inst.mapping);
    EXPECT_NEAR(simulate({inst.pipeline, inst.platform, inst.mapping, exact(50)}).run.period, eq1, 1e-9 * eq1) << what;
    double latency = interval_latency(inst.pipeline, inst.platform, inst.mapping);
    EXPECT_NEAR(simulate({inst.pipeline, inst.platform, inst.mapping, exact(1), RunKind::latency}).latency(), latency,
                1e-9 * latency)
        << what;
  }
}

TEST(OnePortSimulation, RandomGeneralMappingsMatchEventGraph)
{
  for (std::uint64_t seed = 1; seed <= 30 / fixtures::asan_scale; ++seed) {
    Rng rng(seed);
    auto inst = fixtures::random_platform_and_pipeline(rng, static_cast<int>(rng.integer(2, 8)),
                                                       static_cast<int>(rng.integer(1, 4)), seed % 2 == 0);
    fixtures::random_general_mapping(rng, inst);
    expect_matches_event_graph(inst, "seed " + std::to_string(seed) + ": " + inst.describe());
  }
}

TEST(OnePortSimulation, RandomReplicatedMappingsMatchEventGraph)
{
  for (std::uint64_t seed = 1; seed <= 30 / fixtures::asan_scale; ++seed) {
    Rng rng(seed);
    auto inst = fixtures::random_platform_and_pipeline(rng, static_cast<int>(rng.integer(1, 6)),
                                                       static_cast<int>(rng.integer(2, 10)), seed % 2 == 1);
    fixtures::random_replicated_mapping(rng, inst);
    std::string what = "seed " + std::to_string(seed) + ": " + inst.describe();
    expect_matches_event_graph(inst, what);
    double formula = oneport_active_period(inst.pipeline, inst.platform, inst.mapping);
    auto sim       = simulate({inst.pipeline, inst.platform, inst.mapping, exact(60)}).run;
    EXPECT_NEAR(sim.period, formula, 1e-9 * formula) << what;
  }
}

TEST(OnePortSimulation, SingleProcessorIsAlwaysBusy)
{
  // One interval on one processor: P_in and P_out never make it wait, so receive + compute + send fill the run.
  // w = [10, 20], delta = [10, 5, 20], s = 10, b = 10: cycle 1 + 3 + 2 = 6; busy fractions 1/6, 3/6, 2/6.
  Pipeline pl{{10, 20}, {10, 5, 20}};
  Platform pf({{"P1", 10.0}}, "in", "out", 10.0);
  Mapping mp = make_interval_mapping({{1, 2}}, {0});
  auto sim   = simulate({pl, pf, mp, exact(20)}).run;
  EXPECT_NEAR(sim.period, 6.0, 6e-9);
  EXPECT_NEAR(sim.makespan, 120.0, 1.2e-7);
  ASSERT_EQ(sim.usage.size(), 1u);
  EXPECT_NEAR(sim.usage[0].receive, 1.0 / 6, 1e-9);
  EXPECT_NEAR(sim.usage[0].compute, 3.0 / 6, 1e-9);
  EXPECT_NEAR(sim.usage[0].send, 2.0 / 6, 1e-9);
}

TEST(OnePortSimulation, TraceRecordsEveryOperation)
{
  Pipeline pl{{10, 20}, {10, 5, 20}};
  Platform pf({{"P1", 10.0}, {"P2", 5.0}}, "in", "out", 10.0);
  Mapping mp           = make_interval_mapping({{1, 1}, {2, 2}}, {0, 1});
  SimulationSettings s = exact(5);
  s.record_trace       = true;
  auto sim             = simulate({pl, pf, mp, s}).run;
  // each processor: receive, compute, send per data set
  EXPECT_EQ(sim.trace.size(), 2u * 3u * 5u);
  std::vector<TraceEvent> p1;
  for (const auto& e : sim.trace)
    if (e.host == "P1") p1.push_back(e);
  ASSERT_EQ(p1.size(), 15u);
  // P1, data set 0: receive [0, 1], compute [1, 2], send to P2 [2, 2.5]
  EXPECT_EQ(p1[0].kind, Operation::receive);
  EXPECT_NEAR(p1[0].end, 1.0, 1e-9);
  EXPECT_EQ(p1[1].kind, Operation::compute);
  EXPECT_NEAR(p1[1].end, 2.0, 1e-9);
  EXPECT_EQ(p1[2].kind, Operation::send);
  EXPECT_NEAR(p1[2].start, 2.0, 1e-9);
  EXPECT_NEAR(p1[2].end, 2.5, 1e-9);
}

TEST(OnePortSimulation, SimgridModeDiffersFromExactMode)
{
  // SimGrid's default LV08 model applies a bandwidth factor 0.97 and a latency factor: a transfer-bound mapping
  // gets slower. The difference is itself a result users want to see (DESIGN.md §3.4).
  Pipeline pl{{1}, {1e6, 1e6}};
  Platform pf({{"P1", 1e9}}, "in", "out", 1e7, 1e-4);
  Mapping mp           = make_interval_mapping({{1, 1}}, {0});
  SimulationSettings s = exact(10);
  double exact_period  = simulate({pl, pf, mp, s}).run.period;
  EXPECT_NEAR(exact_period, br07_eq2_period(pl, pf, mp), 1e-9 * exact_period);
  s.network             = NetworkMode::simgrid;
  double simgrid_period = simulate({pl, pf, mp, s}).run.period;
  EXPECT_GT(simgrid_period, exact_period * 1.01);
}

TEST(OnePortSimulation, PajeTraceOfThePeriodRunSurvivesTheLatencyRun)
{
  // SimGrid writes one trace file per process; the latency run gets its own (<file>.latency), docs/reports.md.
  fixtures::Eq6Example ex;
  std::string file     = ::testing::TempDir() + "pipesim-paje-" + std::to_string(getpid()) + ".trace";
  SimulationSettings s = exact(10);
  s.simgrid_args       = {"--cfg=tracing:yes", "--cfg=tracing/filename:" + file, "--cfg=tracing/uncategorized:yes",
                          "--cfg=tracing/actor:yes"};
  EXPECT_NEAR(simulate({ex.pipeline, ex.platform, ex.mapping, s}).run.period, 7.0, 7e-9);
  EXPECT_NEAR(simulate({ex.pipeline, ex.platform, ex.mapping, s, RunKind::latency}).latency(), 7.0, 7e-9);
  auto slurp = [](const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  std::string period_trace  = slurp(file);
  std::string latency_trace = slurp(file + ".latency");
  EXPECT_NE(period_trace.find("%EventDef PajeDefineContainerType"), std::string::npos);
  EXPECT_NE(latency_trace.find("%EventDef PajeDefineContainerType"), std::string::npos);
  EXPECT_GT(period_trace.size(), latency_trace.size()); // 10 data sets against 1
}

TEST(OnePortSimulation, RunsWithoutFailuresTakeThePlainProgramWithTheSameResults)
{
  // Without a failure model and with one processor per interval, each processor runs the plain program (receive,
  // compute, send per data set and held interval). A crash scheduled after the end gives the same run the general
  // program (owed sends, crash wake-ups): every output time and every trace event must be the same.
  auto sorted_trace = [](std::vector<TraceEvent> t) {
    std::sort(t.begin(), t.end(), [](const TraceEvent& a, const TraceEvent& b) {
      return std::tie(a.host, a.start, a.kind, a.dataset) < std::tie(b.host, b.start, b.kind, b.dataset);
    });
    return t;
  };
  for (std::uint64_t seed = 1; seed <= 12 / fixtures::asan_scale; ++seed) {
    Rng rng(seed);
    auto inst = fixtures::random_platform_and_pipeline(rng, static_cast<int>(rng.integer(2, 8)),
                                                       static_cast<int>(rng.integer(1, 4)), seed % 2 == 0);
    if (seed % 3 == 0)
      fixtures::random_interval_mapping(rng, inst);
    else
      fixtures::random_general_mapping(rng, inst); // a processor may hold several intervals
    std::string what         = "seed " + std::to_string(seed) + ": " + inst.describe();
    SimulationSettings s     = exact(30);
    s.record_trace           = true;
    SimulationResult plain   = simulate({inst.pipeline, inst.platform, inst.mapping, s}).run;
    s.failures.model         = FailureModel::trace;
    s.crashes                = {Crash{inst.platform.node_name(inst.mapping.processors().front()), 1e12}};
    s.failures.trace         = s.crashes;
    SimulationResult general = simulate({inst.pipeline, inst.platform, inst.mapping, s}).run;
    ASSERT_EQ(general.failures.verdict, Verdict::survived) << what;
    EXPECT_EQ(plain.output_times, general.output_times) << what;
    auto a = sorted_trace(plain.trace), b = sorted_trace(general.trace);
    ASSERT_EQ(a.size(), b.size()) << what;
    for (std::size_t e = 0; e < a.size(); ++e) {
      EXPECT_EQ(std::tie(a[e].host, a[e].kind, a[e].dataset, a[e].interval),
                std::tie(b[e].host, b[e].kind, b[e].dataset, b[e].interval))
          << what << " event " << e;
      EXPECT_EQ(a[e].start, b[e].start) << what << " event " << e;
      EXPECT_EQ(a[e].end, b[e].end) << what << " event " << e;
    }
  }
}

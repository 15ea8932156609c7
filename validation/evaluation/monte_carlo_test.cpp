// Monte Carlo survival series against bbr10 eq. (2).
#include "base/input_error.hpp"
#include "base/subprocess.hpp"
#include "mappers/random/random_mapper.hpp"
#include "model/analytic.hpp"
#include "model/test_fixtures.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "simulator/failures.hpp"
#include "simulator/simulate.hpp"
#include "validation/evaluation/monte_carlo.hpp"
#include "validation/evaluation/statistics.hpp"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <nlohmann/json.hpp>

using namespace pipesim;

namespace {
#ifdef PIPESIM_SANITIZE
constexpr int survival_runs = 100; // the same checks, fewer runs: ASan makes each simulation ~10 times slower
#else
constexpr int survival_runs = 300;
#endif

SimulationSettings series(CommModel model, int runs, int datasets = 20)
{
  SimulationSettings s;
  s.model = model;
  if (model == CommModel::multi_port) s.allocation = Allocation::allotted;
  s.datasets       = datasets;
  s.failures.model = FailureModel::probability;
  s.runs           = runs;
  s.seed           = 7;
  return s;
}

/// Each run of `mc` again, the plain way: its own child process that starts SimGrid and builds the platform.
void expect_same_as_separate_runs(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                  const SimulationSettings& s, const MonteCarloSummary& mc, const std::string& what)
{
  auto outcomes = run_pool(s.runs, {.jobs = 2}, [&](int i) {
    SimulationSettings run = settings_for_run(platform, mapping, s, i, mc.fault_free_makespan);
    run.record_trace       = false;
    nlohmann::json j       = simulate_here({pipeline, platform, mapping, run}).run;
    return j.dump();
  });
  ASSERT_EQ(mc.details.size(), static_cast<std::size_t>(s.runs));
  for (int i = 0; i < s.runs; ++i) {
    const auto& o = outcomes[static_cast<std::size_t>(i)];
    ASSERT_TRUE(o.ok()) << what << " run " << i << ": " << o.text;
    auto r            = nlohmann::json::parse(o.text).get<SimulationResult>();
    const auto& x     = mc.details[static_cast<std::size_t>(i)];
    std::string where = what + " run " + std::to_string(i);
    EXPECT_EQ(x.verdict, r.failures.verdict) << where;
    EXPECT_EQ(x.completion, r.makespan) << where; // the same simulation: bit for bit
    EXPECT_EQ(x.failed_interval, r.failures.failed_interval) << where;
    EXPECT_EQ(x.crashes, static_cast<int>(r.failures.crashes.size())) << where;
    EXPECT_EQ(x.elections, r.failures.elections) << where;
    EXPECT_EQ(x.duplicates, r.failures.duplicates) << where;
    EXPECT_EQ(x.period_after, r.failures.period_after) << where;
  }
}

/// A random instance of `seed` (n stages, p processors, with latencies or not), failure probabilities in [0.1, 0.4]
/// and a random mapping of up to 3 replicas per interval: runs that both fail and survive.
fixtures::RandomInstance replicated_instance(std::uint64_t seed, int n, int p, bool latencies)
{
  Rng rng(seed);
  auto inst = fixtures::random_platform_and_pipeline(rng, n, p, latencies);
  for (int u = 0; u < inst.platform.p(); ++u)
    inst.platform.processor(u).failure_probability = rng.uniform(0.1, 0.4);
  inst.mapping = random_replicated_mapping(inst.pipeline.n(), inst.platform.p(), seed, 3);
  return inst;
}
} // namespace

TEST(MonteCarlo, SurvivalRatesAgreeWithEq2)
{
  // The small version of validation/campaigns/survival.yaml: 8 random replicated mappings (half one-port, half
  // multi-port) with failure probabilities in [0.05, 0.5], 300 runs each (100 under ASan): 1 - F inside the 99% Wilson
  // interval. Under the sanitizers, the first 2 mappings (one of each model).
  int inside = 0, total = 0;
  for (std::uint64_t seed = 1; seed <= (fixtures::asan_scale == 1 ? 8 : 2); ++seed) {
    Rng rng(seed);
    auto inst = fixtures::random_platform_and_pipeline(rng, static_cast<int>(rng.integer(2, 5)), 10, false);
    for (int u = 0; u < inst.platform.p(); ++u)
      inst.platform.processor(u).failure_probability = rng.uniform(0.05, 0.5);
    inst.mapping = random_replicated_mapping(inst.pipeline.n(), inst.platform.p(), seed, 3);
    auto s       = series(seed % 2 ? CommModel::multi_port : CommModel::one_port, survival_runs);
    auto mc      = simulate_monte_carlo(inst.pipeline, inst.platform, inst.mapping, s, 2);
    double F     = bbr10_eq2_failure_probability(inst.platform, inst.mapping);
    ASSERT_TRUE(mc.analytic_survival);
    EXPECT_DOUBLE_EQ(*mc.analytic_survival, 1 - F);
    EXPECT_EQ(mc.errors, 0);
    EXPECT_EQ(mc.survived + mc.failed, survival_runs);
    EXPECT_LE(mc.ci99.low, mc.ci95.low);
    EXPECT_GE(mc.ci99.high, mc.ci95.high);
    ++total;
    if (mc.consistent_99()) ++inside;
    EXPECT_TRUE(mc.consistent_99()) << "seed " << seed << ": rate " << mc.survival_rate << " [" << mc.ci99.low << ", "
                                    << mc.ci99.high << "], 1 - F = " << 1 - F << "; " << inst.describe();
  }
  EXPECT_EQ(inside, total);
}

TEST(MonteCarlo, RunsAreSeededAndReproducible)
{
  fixtures::Eq6Example ex; // not replicated: any crash of P1 or P2 fails the run
  ex.platform.processor(0).failure_probability = 0.3;
  ex.platform.processor(1).failure_probability = 0.2;
  auto s                                       = series(CommModel::one_port, 40);
  auto a                                       = simulate_monte_carlo(ex.pipeline, ex.platform, ex.mapping, s, 2);
  auto b                                       = simulate_monte_carlo(ex.pipeline, ex.platform, ex.mapping, s, 1);
  ASSERT_EQ(a.details.size(), 40u);
  for (int i = 0; i < 40; ++i) {
    const auto& x = a.details[static_cast<std::size_t>(i)];
    EXPECT_EQ(x.seed, run_seed(7, i));
    EXPECT_EQ(x.verdict, b.details[static_cast<std::size_t>(i)].verdict);
    EXPECT_EQ(x.verdict == Verdict::survived, x.crashes == 0) << "run " << i; // no replica: any crash fails
  }
  EXPECT_EQ(a.survived, b.survived);
  EXPECT_NEAR(*a.analytic_survival, 0.7 * 0.8, 1e-12);
}

TEST(MonteCarlo, ExponentialModelHasNoEq2Reference)
{
  fixtures::Eq6Example ex;
  ex.platform.processor(0).mtbf = 1e9; // crashes essentially never during the run
  auto s                        = series(CommModel::one_port, 10);
  s.failures.model              = FailureModel::exponential;
  auto mc                       = simulate_monte_carlo(ex.pipeline, ex.platform, ex.mapping, s, 2);
  EXPECT_FALSE(mc.analytic_survival);
  EXPECT_EQ(mc.survived + mc.failed, 10);
  EXPECT_GE(mc.survived, 9);
  SimulationSettings none;
  EXPECT_THROW(simulate_monte_carlo(ex.pipeline, ex.platform, ex.mapping, none, 1), InputError);
}

TEST(MonteCarlo, PreparedWorkersGiveTheRunsOfSeparateProcesses)
{
  // simulate_monte_carlo forks each run from a worker that set SimGrid and the platform up once
  // (run_pool in prepared mode): every run must be the one a fresh process gives, in both models.
  auto inst = replicated_instance(11, 4, 10, true);
  for (CommModel model : {CommModel::one_port, CommModel::multi_port}) {
    auto s  = series(model, 16);
    auto mc = simulate_monte_carlo(inst.pipeline, inst.platform, inst.mapping, s, 2);
    EXPECT_GT(mc.failed, 0) << model;
    EXPECT_GT(mc.survived, 0) << model;
    expect_same_as_separate_runs(inst.pipeline, inst.platform, inst.mapping, s, mc, to_string(model));
  }
}

TEST(MonteCarlo, BatchesOfRunsInOneEngineGiveTheRunsOfSeparateProcesses)
{
  // 64 runs (32 under ASan) go in batches of 4 (2): each run after the first of its batch starts in an engine whose
  // last run crashed hosts, left wake-up tokens and advanced the clock. Every run must still be, bit for bit, the one
  // a fresh process gives.
  auto inst      = replicated_instance(23, 5, 12, false);
  const int runs = static_cast<int>(64 / (fixtures::asan_scale == 1 ? 1 : 2));
  EXPECT_EQ(series_batch_size(inst.platform, runs), runs / 16);
  for (CommModel model : {CommModel::one_port, CommModel::multi_port}) {
    auto s  = series(model, runs);
    auto mc = simulate_monte_carlo(inst.pipeline, inst.platform, inst.mapping, s, 2);
    EXPECT_GT(mc.failed, 0) << model;
    EXPECT_GT(mc.survived, 0) << model;
    int crashed_then_more = 0; // runs with a crash followed by another run in the same batch
    for (int i = 0; i + 1 < runs; ++i)
      if ((i + 1) % (runs / 16) != 0 && mc.details[static_cast<std::size_t>(i)].crashes > 0) ++crashed_then_more;
    EXPECT_GT(crashed_then_more, 0) << model;
    expect_same_as_separate_runs(inst.pipeline, inst.platform, inst.mapping, s, mc, to_string(model));
  }
}

TEST(MonteCarlo, ADealtReplicaCrashIsAFatalScheduleCrash)
{
  // I_1 active on P0, P1, I_2 dealt over P2, P3 (f = 0.3 each): a drawn schedule the mapping survives crashes no
  // dealt replica, so the fraction of such schedules estimates 1 - F = (1 - f0 f1) 0.7^2 (the replica-per-interval
  // notion of active replication would give (1 - f0 f1) (1 - f2 f3) = 0.83).
  Rng rng(5);
  auto inst = fixtures::random_platform_and_pipeline(rng, 2, 4, false);
  for (int u = 0; u < 4; ++u)
    inst.platform.processor(u).failure_probability = 0.3;
  inst.mapping   = Mapping{{fixtures::interval(1, 1, {0, 1}, Replication::active), fixtures::interval(2, 2, {2, 3})}};
  const int runs = 400;
  auto mc = simulate_monte_carlo(inst.pipeline, inst.platform, inst.mapping, series(CommModel::one_port, runs), 2);
  ASSERT_TRUE(mc.analytic_survival);
  EXPECT_NEAR(*mc.analytic_survival, (1 - 0.09) * 0.49, 1e-12);
  auto schedules = static_cast<int>(std::lround(mc.schedule_survival_rate * runs));
  auto ci        = wilson_interval(schedules, runs, z_99);
  EXPECT_GE(*mc.analytic_survival, ci.low) << mc.schedule_survival_rate;
  EXPECT_LE(*mc.analytic_survival, ci.high) << mc.schedule_survival_rate;
  int survived_by_schedule = 0;
  for (const auto& r : mc.details)
    if (r.verdict == Verdict::survived && r.schedule_survives) ++survived_by_schedule;
  EXPECT_EQ(survived_by_schedule + mc.survived_late_crash, mc.survived);
  EXPECT_EQ(survived_by_schedule, schedules); // a schedule the mapping survives is survived
}

TEST(MonteCarlo, XmlPlatformsRunOneRunPerProcess)
{
  // an XML file may date speed, bandwidth or state profiles, which a reset engine cannot rewind
  Platform platform =
      load_xml_platform(std::string(PIPESIM_SOURCE_DIR) + "/platforms/examples/two_clusters.xml", "io", "io");
  EXPECT_EQ(series_batch_size(platform, 10000), 1);
  EXPECT_EQ(series_batch_size(fixtures::Eq6Example().platform, 10000), 32);
  EXPECT_EQ(series_batch_size(fixtures::Eq6Example().platform, 40), 2);
  EXPECT_EQ(series_batch_size(fixtures::Eq6Example().platform, 20), 1);
}

TEST(MonteCarlo, PreparedWorkersKeepLinkEditsAndLinkFailuresOfXmlPlatforms)
{
  // two_clusters.xml with the backbone at a quarter of its bandwidth and failing at t = 2: the settings are applied
  // once per worker, the failure is scheduled in every run.
  Platform platform =
      load_xml_platform(std::string(PIPESIM_SOURCE_DIR) + "/platforms/examples/two_clusters.xml", "io", "io");
  int a1 = *platform.find("a-1"), a2 = *platform.find("a-2"), b8 = *platform.find("b-8");
  platform.processor(a1).failure_probability = 0.3;
  platform.processor(a2).failure_probability = 0.3;
  Mapping m;
  m.intervals = {Interval{1, 1, {{a1}, {a2}}, Replication::active}, Interval{2, 2, {{b8}}, Replication::active}};
  Pipeline pipeline{{1e6, 1e7}, {1e4, 1e6, 1e4}};
  platform.set_link_settings({{"backbone", 2.5e6, 5e-3}}); // 10 MB/s in the XML
  auto s      = series(CommModel::one_port, 12);
  s.datasets  = 40;
  auto slower = simulate_monte_carlo(pipeline, platform, m, s, 2);
  EXPECT_EQ(slower.errors, 0);
  EXPECT_GT(slower.fault_free_makespan, 40 * 1e6 / 2.5e6); // the backbone's transfers bound the run
  expect_same_as_separate_runs(pipeline, platform, m, s, slower, "backbone at 2.5 MB/s");

  platform.set_link_failures({{"backbone", 2.0}});
  auto mc = simulate_monte_carlo(pipeline, platform, m, s, 2);
  EXPECT_EQ(mc.errors, 0);
  int at_the_link = 0;
  for (const auto& run : mc.details)
    if (run.verdict == Verdict::failed && run.completion == 2.0) {
      ++at_the_link;
      EXPECT_EQ(run.failed_link, "backbone");
    } else
      EXPECT_EQ(run.failed_link, ""); // lost I_1's replicas before the backbone went off
  EXPECT_GT(at_the_link, 0);          // runs that kept a replica of I_1 fail when the backbone goes off
  EXPECT_EQ(mc.failed_on_link, at_the_link);
  EXPECT_EQ(nlohmann::json(mc).at("failed_on_link"), at_the_link);
  EXPECT_EQ(mc.survived, 0);
  expect_same_as_separate_runs(pipeline, platform, m, s, mc, "backbone failing at 2");
}

TEST(MonteCarlo, CrashRunsRefuseAHostWithoutARouteToItself)
{
  // two_clusters.xml with io alone in a routing="None" zone: SimGrid 3.32 has no io -> io route for the wake-ups of
  // a crash (it aborted the run); a clear error names the file, the host and the zone instead.
  std::string source = std::string(PIPESIM_SOURCE_DIR) + "/platforms/examples/two_clusters.xml";
  std::ifstream in(source);
  std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto at = xml.find(R"(<zone id="io_zone" routing="Full">)");
  ASSERT_NE(at, std::string::npos);
  xml.replace(at, std::string(R"(<zone id="io_zone" routing="Full">)").size(), R"(<zone id="io_zone" routing="None">)");
  std::string file = ::testing::TempDir() + "two_clusters_none.xml";
  std::ofstream(file) << xml;
  Platform platform = load_xml_platform(file, "io", "io");
  int a1 = *platform.find("a-1"), a2 = *platform.find("a-2"), b8 = *platform.find("b-8");
  platform.processor(a1).failure_probability = 0.5;
  Mapping m;
  m.intervals = {Interval{1, 1, {{a1}, {a2}}, Replication::active}, Interval{2, 2, {{b8}}, Replication::active}};
  auto s      = series(CommModel::one_port, 4);
  try {
    simulate_monte_carlo(Pipeline{{1e6, 1e7}, {1e4, 1e6, 1e4}}, platform, m, s, 2);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), file + ": host 'io' is in zone 'io_zone' with routing=\"None\": crash runs wake "
                                            "waiting actors with a message from their own host, and SimGrid has no "
                                            "route from 'io' to itself there; give that zone routing=\"Full\"");
  }
}

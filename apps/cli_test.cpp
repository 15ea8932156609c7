// The `pipesim` command as a user runs it: outputs, exit codes and the messages of bad input.
#include "cli_test_util.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct Result {
  int code = -1;
  std::string out; // stdout and stderr together
};

/// Runs pipesim with `args` from the source directory; `env` ("NAME=value ...") is set for pipesim alone.
Result run(const std::string& args, const std::string& env = "")
{
  std::string cmd  = fmt::format("cd {} && {} {} {} 2>&1", PIPESIM_SOURCE_DIR, env, PIPESIM_EXECUTABLE, args);
  auto [code, out] = pipesim::test::shell_output(cmd);
  return Result{code, out};
}

Result run_stdout(const std::string& args) { return run(args + " 2>/dev/null"); }

/// Writes a scenario in a temporary file and returns its path.
std::string scenario_file(const std::string& name, const std::string& text)
{
  auto dir = std::filesystem::temp_directory_path() / fmt::format("pipesim-cli-{}", getpid());
  std::filesystem::create_directories(dir);
  auto path = dir / (name + ".yaml");
  std::ofstream(path) << text;
  return path.string();
}

const char* good_platform = R"(platform:
  processors:
    - {name: P1, speed: 10}
    - {name: P2, speed: 20}
  bandwidth: 10
)";

void expect_bad_input(const std::string& yaml, const std::vector<std::string>& fragments)
{
  auto path = scenario_file("bad", yaml);
  Result r  = run("simulate " + path);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(path), std::string::npos) << r.out;
  for (const auto& f : fragments)
    EXPECT_NE(r.out.find(f), std::string::npos) << "missing '" << f << "' in: " << r.out;
}

} // namespace

TEST(Cli, Eq6ScenarioSimulatesToSeven)
{
  Result r = run_stdout("simulate scenarios/examples/eq6_general.yaml --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["scenario"], "eq6_general");
  EXPECT_EQ(j["mapper"], "explicit");
  EXPECT_DOUBLE_EQ(j["analytic"]["period"].get<double>(), 7.0);
  EXPECT_EQ(j["analytic"]["formula"], "seed000-eq4-5");
  EXPECT_NEAR(j["event_graph"]["period"].get<double>(), 7.0, 1e-12);
  EXPECT_NEAR(j["simulated"]["period"].get<double>(), 7.0, 7e-9);
  EXPECT_NEAR(j["simulated"]["latency"].get<double>(), 7.0, 7e-9);
  EXPECT_EQ(j["simulated"]["network"], "exact");
  EXPECT_EQ(j["simulated"]["datasets"], 100);
  EXPECT_LE(j["relative_error"]["period"].get<double>(), 1e-9);
  ASSERT_EQ(j["mapping"].size(), 3u);
  EXPECT_EQ(j["mapping"][0]["stages"], nlohmann::json::array({1, 1}));
  EXPECT_EQ(j["mapping"][2]["replicas"], nlohmann::json::parse(R"([["P1"]])"));
  EXPECT_EQ(j["mapping"][1]["replication"], "active");
  EXPECT_TRUE(j["analytic"].contains("failure_probability"));
  EXPECT_TRUE(j["analytic"].contains("latency"));
}

TEST(Cli, QuickstartMapJson)
{
  Result r = run_stdout("map scenarios/examples/quickstart.yaml --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mapper"], "br07.one-to-one");
  EXPECT_EQ(j["status"], "optimal");
  EXPECT_EQ(j["rule"], "one-to-one");
  EXPECT_NEAR(j["analytic"]["period"].get<double>(), j["objective"].get<double>(), 1e-12);
  EXPECT_NEAR(j["analytic"]["period"].get<double>(), j["event_graph"]["period"].get<double>(), 1e-12);
}

TEST(Cli, Sv95ChainMapJson)
{
  // scenarios/examples/sv95-chain.yaml: read, colffts, rowffts in one module of 3 instances of 4 processors,
  // f1 = 0.114 + 0.0145 + 0.428 + 0.085 + 0.428 + f_ecom(4, 4) 0.118 = 1.1875, term 1.1875 / 3 = 0.396; hist on 4:
  // f2 = 0.118 + 0.3 = 0.418, the bottleneck (sv95 §2.2)
  Result r = run_stdout("map scenarios/examples/sv95-chain.yaml --mapper sv95.dp --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "optimal");
  EXPECT_NEAR(j["objective"].get<double>(), 0.418, 1e-12);
  EXPECT_EQ(j["statistics"]["bottleneck"], 2);
  EXPECT_EQ(j["statistics"]["processors"], 16);
  EXPECT_EQ(j["mapping_text"], "[1-3]:P1+P2+P3+P4|P5+P6+P7+P8|P9+P10+P11+P12/deal [4]:P13+P14+P15+P16");
  EXPECT_EQ(j["analytic"]["period"], j["objective"]);
}

TEST(Cli, TableShowsAnalyticAndSimulatedSideBySide)
{
  Result r = run_stdout("simulate scenarios/examples/replicated.yaml");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("oneport-active"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("simulated"), std::string::npos);
  EXPECT_NE(r.out.find("rel. error"), std::string::npos);
}

TEST(Cli, SimulatesADealtStage)
{
  // scenarios/examples/deal.yaml: S_2 dealt over P2, P3, P4, each 0.5 + 6 + 0.5 = 7 per data set it takes (one in
  // three), P1 and P5 2: period 7/3, the event graph's, which the one-port simulation measures over whole rounds of
  // L = 3 data sets; latency 10 (0.5 + 1 + 0.5 + 6 + 0.5 + 1 + 0.5).
  Result r = run_stdout("simulate scenarios/examples/deal.yaml --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mapping_text"], "[1]:P1 [2]:P2|P3|P4/deal [3]:P5");
  EXPECT_EQ(j["analytic"]["formula"], "event-graph");
  EXPECT_NEAR(j["analytic"]["period"].get<double>(), 7.0 / 3, 1e-12);
  EXPECT_NEAR(j["event_graph"]["period"].get<double>(), 7.0 / 3, 1e-12);
  EXPECT_NEAR(j["simulated"]["period"].get<double>(), 7.0 / 3, 1e-9);
  EXPECT_NEAR(j["simulated"]["latency"].get<double>(), 10, 1e-9);
  EXPECT_LT(std::abs(j["relative_error"]["period_vs_event_graph"].get<double>()), 1e-9);
  Result table = run_stdout("simulate scenarios/examples/deal.yaml");
  ASSERT_EQ(table.code, 0) << table.out;
  EXPECT_NE(table.out.find("  period (event graph)        2.333333333   event-graph           2.333333333"),
            std::string::npos)
      << table.out;
  // multi-port allotted, two buffer slots: the replicas overlap receive, compute and send, so each needs 6 per data
  // set it takes (2 per data set) and P1's and P5's CPUs 1: period 2, the multi-port graph's (with the scenario's
  // buffer), reported as the event-graph period too
  std::string text = R"(pipeline: {w: [10, 60, 10], delta: [5, 5, 5, 5]}
platform:
  processors: [{name: P1, speed: 10}, {name: P2, speed: 10}, {name: P3, speed: 10}, {name: P4, speed: 10},
               {name: P5, speed: 10}]
  bandwidth: 10
mapping:
  - {stages: [1], replicas: [P1]}
  - {stages: [2], replicas: [P2, P3, P4], replication: deal}
  - {stages: [3], replicas: [P5]}
simulation: {model: multi-port, allocation: allotted, buffer: 2, datasets: 120}
)";
  Result mp        = run_stdout("simulate " + scenario_file("deal-multiport", text) + " --format json");
  ASSERT_EQ(mp.code, 0) << mp.out;
  auto k = nlohmann::json::parse(mp.out);
  EXPECT_EQ(k["analytic"]["formula"], "event-graph");
  EXPECT_NEAR(k["event_graph"]["period"].get<double>(), 2, 1e-12);
  EXPECT_NEAR(k["simulated"]["period"].get<double>(), 2, 1e-9);
}

TEST(Cli, SimgridOptionsPassThrough)
{
  Result r = run_stdout("simulate scenarios/examples/eq6_general.yaml --format json --network simgrid "
                        "--cfg=network/model:CM02 --log=root.thresh:critical");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["simulated"]["network"], "simgrid");
  auto cfg = j["simulated"]["simgrid_config"].dump();
  EXPECT_NE(cfg.find("--cfg=network/model:CM02"), std::string::npos) << cfg;
}

TEST(Cli, MappersListsRegisteredNames)
{
  Result r = run_stdout("mappers");
  ASSERT_EQ(r.code, 0);
  for (const char* name : {"explicit", "br07.one-to-one", "exhaustive.interval"})
    EXPECT_NE(r.out.find(name), std::string::npos) << r.out;
}

TEST(Cli, MappersSayWhatEachMapperIsGroupedByPaper)
{
  Result r = run_stdout("mappers --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto list = nlohmann::json::parse(r.out);
  ASSERT_GE(list.size(), 70u);
  std::set<std::string> names, descriptions;
  std::vector<std::string> papers; // in order of first appearance
  for (const auto& m : list) {
    for (const char* key : {"name", "description", "paper", "family", "objective", "models", "exact", "complexity"})
      ASSERT_TRUE(m.contains(key)) << key << " missing in " << m.dump();
    EXPECT_TRUE(names.insert(m["name"].get<std::string>()).second) << m.dump();
    EXPECT_TRUE(descriptions.insert(m["description"].get<std::string>()).second) << "shared description: " << m.dump();
    EXPECT_FALSE(m["models"].empty()) << m.dump();
    EXPECT_TRUE(m["exact"].is_boolean()) << m.dump();
    EXPECT_NE(m["family"], "testing") << m.dump();
    std::string paper = m["paper"].get<std::string>();
    if (papers.empty() || papers.back() != paper) papers.push_back(paper);
  }
  // grouped: each paper once, in the order of docs/references.md, then what is beyond them
  EXPECT_EQ(papers, (std::vector<std::string>{"br07", "sv95", "hedpm", "bbr10", "pipesim"}));
  for (const char* name : {"debug.abort", "debug.sleep"})
    EXPECT_EQ(names.count(name), 0u) << name << " is a test-only mapper";
  Result text = run_stdout("mappers");
  ASSERT_EQ(text.code, 0);
  EXPECT_EQ(text.out.rfind("br07: Benoit, Robert", 0), 0u) << text.out;
  EXPECT_NE(text.out.find("\nbbr10: Benoit, Bouziane, Robert"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\n  period-search\n    br07.one-to-one  br07 §3.1 Theorem 1"), std::string::npos)
      << text.out;
}

TEST(Cli, TestOnlyMappersAreUnknownToUsers)
{
  Result r = run("map scenarios/examples/quickstart.yaml --mapper debug.sleep");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--mapper debug.sleep: unknown mapper (known: "), std::string::npos) << r.out;
}

TEST(Cli, UnknownMapperListsKnownOnes)
{
  Result r = run("map scenarios/examples/quickstart.yaml --mapper nope");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--mapper nope: unknown mapper (known: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("br07.one-to-one"), std::string::npos) << r.out;
}

TEST(Cli, PlatformInfoAndExportRoundTrip)
{
  Result info = run_stdout("platform info platforms/examples/star.xml --in io --out io --format json");
  ASSERT_EQ(info.code, 0) << info.out;
  auto j = nlohmann::json::parse(info.out);
  EXPECT_EQ(j["processors"].size(), 5u);
  auto xml  = std::filesystem::temp_directory_path() / fmt::format("pipesim-cli-{}.xml", getpid());
  Result ex = run("platform export scenarios/examples/quickstart.yaml -o " + xml.string());
  ASSERT_EQ(ex.code, 0) << ex.out;
  Result back = run_stdout("platform info " + xml.string() + " --in in --out out");
  EXPECT_EQ(back.code, 0) << back.out;
  EXPECT_NE(back.out.find("communication-homogeneous"), std::string::npos) << back.out;
}

TEST(Cli, PlatformInfoSelectsHosts)
{
  // two_clusters.xml: cluster ca holds a-1..a-4, cluster cb b-8..b-11.
  Result glob = run_stdout("platform info platforms/examples/two_clusters.xml --hosts 'b-*' --format json");
  ASSERT_EQ(glob.code, 0) << glob.out;
  auto j = nlohmann::json::parse(glob.out);
  ASSERT_EQ(j["processors"].size(), 4u);
  EXPECT_EQ(j["processors"][0]["name"], "b-8");
  Result zones = run_stdout("platform info platforms/examples/two_clusters.xml --hosts zone:ca --hosts 'regex:b-1[01]' "
                            "--format json");
  ASSERT_EQ(zones.code, 0) << zones.out;
  j = nlohmann::json::parse(zones.out);
  ASSERT_EQ(j["processors"].size(), 6u);
  EXPECT_EQ(j["processors"][5]["name"], "b-11");
  Result scenario = run("platform info scenarios/examples/quickstart.yaml --hosts 'P*'");
  EXPECT_EQ(scenario.code, 2);
  EXPECT_NE(scenario.out.find("--hosts P*: selects hosts of a SimGrid XML file"), std::string::npos) << scenario.out;
}

TEST(Cli, BadInputExitsTwoWithLocatedMessages)
{
  expect_bad_input("name: x\npipeline: {w: [1, 2], delta: [1, 1, 1]\n", {"YAML syntax error"});
  expect_bad_input(std::string("pipeline: {w: [1], delta: [1, 1]}\n") + good_platform +
                       "mapper: explicit\ncolour: red\n",
                   {":8:", "colour"});
  expect_bad_input("pipeline: {w: [1], delta: [1, 1]}\nplatform:\n  processors:\n    - {name: P1, speed: -3}\n"
                   "  bandwidth: 10\nmapper: br07.one-to-one\n",
                   {":4:", "speed", "-3"});
  expect_bad_input(std::string("pipeline: {w: [1, 2], delta: [1, 1]}\n") + good_platform + "mapper: br07.one-to-one\n",
                   {":1:", "delta", "3"});
  expect_bad_input(std::string("pipeline: {w: [1, 2, 3], delta: [1, 1, 1, 1]}\n") + good_platform +
                       "mapping:\n  - {stages: [1, 2], replicas: [[P1]]}\n  - {stages: [2, 3], replicas: [[P2]]}\n",
                   {":9:", "overlap"});
  expect_bad_input(std::string("pipeline: {w: [1, 2, 3], delta: [1, 1, 1, 1]}\n") + good_platform +
                       "mapping:\n  - {stages: [1, 1], replicas: [[P1]]}\n  - {stages: [3, 3], replicas: [[P2]]}\n",
                   {"stage 2"});
  expect_bad_input(std::string("pipeline: {w: [1], delta: [1, 1]}\n") + good_platform +
                       "mapping:\n  - {stages: [1, 1], replicas: [[P1, P1]]}\n",
                   {":8:", "P1", "twice"});
  expect_bad_input(std::string("pipeline: {w: [1], delta: [1, 1]}\n") + good_platform +
                       "mapping:\n  - {stages: [1, 1], replicas: [[P9]]}\n",
                   {":8:", "P9"});
  expect_bad_input("pipeline: {w: [1], delta: [1, 1]}\nplatform:\n  file: platforms/examples/star.xml\n"
                   "  io: {in: nowhere, out: nowhere}\nmapper: exhaustive.interval\n",
                   {"star.xml", "nowhere"});
}

TEST(Cli, TimeVaryingPlatformsShowExportAndRefuseBadProfiles)
{
  // bad profiles: exit 2 naming the file, the line, the key and the value
  const std::string head = "pipeline: {w: [1], delta: [1, 1]}\n" + std::string(good_platform) + "  profiles:\n";
  const std::string tail = "mapping: [{stages: [1], replicas: [P1]}]\n";
  expect_bad_input(head + "    hosts: [{host: P1, speed: [[5, 1], [2, 0.5]]}]\n" + tail,
                   {":8:", "platform.profiles.hosts[0].speed[1]", "[2, 0.5]", "dates must increase"});
  expect_bad_input(head + "    hosts: [{host: P1, speed: [[0, -1]]}]\n" + tail, {":8:", "expected a speed > 0"});
  expect_bad_input(head + "    hosts: [{host: P1, speed: [[0, 0]]}]\n" + tail, {":8:", "[0, 0]", "speed > 0"});
  expect_bad_input(head + "    hosts: [{host: P1, speed: {points: [[0, 1], [9, 2]], period: 5}}]\n" + tail,
                   {":8:", "period", "'5'", "must exceed"});
  expect_bad_input(head + "    hosts: [{host: P7, state: [[1, 0]]}]\n" + tail, {":8:", "P7", "not a processor"});
  expect_bad_input(head + "    links: [{from: P1, to: P8, bandwidth: [[1, 0.5]]}]\n" + tail, {":8:", "P8"});
  // the shipped example: its epochs in the table and the JSON, its profiles in `platform info`, its export
  Result sim = run_stdout("simulate scenarios/examples/dynamic.yaml --format json");
  ASSERT_EQ(sim.code, 0) << sim.out;
  auto j = nlohmann::json::parse(sim.out);
  EXPECT_GT(j["analytic_series"].size(), 10u);
  EXPECT_EQ(j["simulated"]["throughput_series"]["window"], 5);
  EXPECT_EQ(j["simulated"]["epochs"].size(), j["analytic_series"].size());
  EXPECT_EQ(j["platform_profiles"]["hosts"][1]["speed"]["source"], "generate (seed 3)");
  Result info = run_stdout("platform info scenarios/examples/dynamic.yaml");
  ASSERT_EQ(info.code, 0) << info.out;
  EXPECT_NE(info.out.find("P2                 speed      (300, 0.25)"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("generate (seed 3)"), std::string::npos) << info.out;
  auto dir = std::filesystem::temp_directory_path() / fmt::format("pipesim-cli-export-{}", getpid());
  std::filesystem::create_directories(dir);
  Result ex = run("platform export scenarios/examples/dynamic.yaml -o " + (dir / "dyn.xml").string());
  ASSERT_EQ(ex.code, 0) << ex.out;
  EXPECT_NE(ex.out.find("3 profile files dyn-*.profile"), std::string::npos) << ex.out;
  EXPECT_TRUE(std::filesystem::exists(dir / "dyn-3.profile"));
  Result back = run_stdout("platform info " + (dir / "dyn.xml").string() + " --format json");
  ASSERT_EQ(back.code, 0) << back.out;
  auto b = nlohmann::json::parse(back.out);
  EXPECT_EQ(b["profiles"]["links"][0]["link"], "P1->P2");
  EXPECT_EQ(b["profiles"]["links"][0]["bandwidth_profile"]["period"], 400);
  std::filesystem::remove_all(dir);
}

TEST(Cli, ValuesAtTheirLimitsAreRefusedWithTheLimit)
{
  // One data set has no period (it printed a simulated period of 0, relative error 1): refused, on the command line
  // and in the scenario, with the reason.
  Result one = run("simulate scenarios/examples/quickstart.yaml --datasets 1");
  EXPECT_EQ(one.code, 2) << one.out;
  EXPECT_NE(one.out.find("at least 2 data sets"), std::string::npos) << one.out;
  expect_bad_input(std::string("pipeline: {w: [1], delta: [1, 1]}\n") + good_platform +
                       "mapper: br07.one-to-one\nsimulation: {datasets: 1}\n",
                   {":8:", "datasets", "at least 2 data sets"});
  // 2^64 - 1 was clamped to 2^63 - 1 by the option parser without a word (simulation.seed refuses it).
  Result seed = run("simulate scenarios/examples/quickstart.yaml --seed 18446744073709551615");
  EXPECT_EQ(seed.code, 2) << seed.out;
  EXPECT_NE(seed.out.find("18446744073709551615 is not an integer in [0, 9223372036854775807]"), std::string::npos)
      << seed.out;
  Result partial = run("simulate scenarios/examples/quickstart.yaml --seed 12abc");
  EXPECT_EQ(partial.code, 2) << partial.out;
  // Range errors printed the largest double in full, 309 digits.
  Result runs = run("simulate scenarios/examples/failures.yaml --runs 0");
  EXPECT_EQ(runs.code, 2) << runs.out;
  EXPECT_NE(runs.out.find("--runs: 0 is not an integer in [1, 1000000]: Monte Carlo runs take about 15 ms each"),
            std::string::npos)
      << runs.out;
  EXPECT_LT(runs.out.size(), 200u) << runs.out;
  Result top = run_stdout("simulate scenarios/examples/quickstart.yaml --seed 9223372036854775807");
  EXPECT_EQ(top.code, 0) << top.out;
}

TEST(Cli, CampaignOnlyRefusesARunGivenTwice)
{
  // --only 1,1 wrote run 1 twice.
  auto dir = std::filesystem::temp_directory_path() / fmt::format("pipesim-cli-only-{}", getpid());
  std::filesystem::remove_all(dir);
  Result r =
      run(fmt::format("campaign validation/campaigns/hedpm-fig1-small.yaml --out {} --only 1,1 -q", dir.string()));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--only 1: this run is given twice"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir)); // refused before anything is written
  std::filesystem::remove_all(dir);
}

TEST(Cli, OutOnAFileIsBadInput)
{
  // "internal error: filesystem error" with exit 1 before: --out naming a file is bad input, with the path.
  std::string file = scenario_file("not-a-directory", "x");
  Result r         = run(fmt::format("campaign validation/campaigns/hedpm-fig1-small.yaml --out {}/sub -q", file));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(file + "/sub"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("internal error"), std::string::npos) << r.out;
}

TEST(Cli, MissingScenarioFileExitsTwo)
{
  Result r = run("map /nonexistent/scenario.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("/nonexistent/scenario.yaml"), std::string::npos) << r.out;
}

TEST(Cli, VersionNamesPipesimGitCommitAndSimgrid)
{
  Result r = run_stdout("--version");
  EXPECT_EQ(r.code, 0);
  // "pipesim 0.1.0 (git commit 0123456789ab)" then "SimGrid 3.32.0": the commit is the configure-time HEAD
  // (or "unknown" outside git), the SimGrid version the library's own (sg_version_get).
  EXPECT_TRUE(
      std::regex_search(r.out, std::regex(R"(^pipesim \d+\.\d+\.\d+ \(git commit ([0-9a-f]{7,40}|unknown)\)\n)")))
      << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\nSimGrid 3\.\d+\.\d+\n?$)"))) << r.out;
}

TEST(Cli, UsageErrorsExitTwo)
{
  EXPECT_EQ(run("frobnicate").code, 2);
  EXPECT_EQ(run("simulate").code, 2);
  EXPECT_EQ(run("--help").code, 0);
}

TEST(Cli, CampaignRunsMergesAndReportsFromTheCommandLine)
{
  auto dir = std::filesystem::temp_directory_path() / fmt::format("pipesim-cli-campaign-{}", getpid());
  std::filesystem::remove_all(dir);
  std::string campaign = scenario_file("camp", R"(name: cli
mode: simulate
base:
  pipeline: {generate: {n: 3, w: [1, 20], delta: [1, 100], seed: 1}}
  platform: {generate: {class: fully-heterogeneous, p: 4, speed: [1, 20], bandwidth: [1, 10], seed: 1}}
  mapper: random.interval
  simulation: {datasets: 20}
seed: {from: 1, count: 6}
)");
  for (int i = 1; i <= 2; ++i) {
    Result r = run(fmt::format("campaign {} --out {}/s{} --shard {}/2 --jobs 2 --quiet", campaign, dir.string(), i, i));
    ASSERT_EQ(r.code, 0) << r.out;
  }
  Result m = run(fmt::format("merge {0}/s1 {0}/s2 --out {0}/all", dir.string()));
  ASSERT_EQ(m.code, 0) << m.out;
  std::ifstream csv(dir / "all" / "results.csv");
  int lines = 0;
  for (std::string l; std::getline(csv, l);)
    ++lines;
  EXPECT_EQ(lines, 7); // header + 6 runs
  Result again = run(fmt::format("campaign {} --out {}/s1 --shard 1/2", campaign, dir.string()));
  EXPECT_EQ(again.code, 2) << again.out; // results exist and no --resume
  EXPECT_NE(again.out.find("--resume"), std::string::npos) << again.out;
  Result whole = run(fmt::format("campaign {} --out {}/s1 --resume", campaign, dir.string()));
  EXPECT_EQ(whole.code, 2) << whole.out; // the whole campaign into shard 1/2's directory
  EXPECT_NE(whole.out.find("shard 1/2): a different part of the campaign than this run (1/1)"), std::string::npos)
      << whole.out;
  Result missing = run(fmt::format("merge {0}/s1 --out {0}/bad", dir.string()));
  EXPECT_EQ(missing.code, 2) << missing.out;
  EXPECT_NE(missing.out.find("missing"), std::string::npos) << missing.out;
}

TEST(Cli, MalformedCampaignExitsTwoWithFileAndLine)
{
  std::string campaign =
      scenario_file("badcamp", "name: x\nmode: analytic\nbase:\n  pipeline: {w: [1], delta: [1, 1]}\n"
                               "sweep:\n  mapper: [a]\n  bogus..key: [1]\n");
  Result r = run("campaign " + campaign + " --out /tmp/never-written");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(campaign), std::string::npos) << r.out;
  std::string unknown = scenario_file("badcamp2", "name: x\nmodus: analytic\n");
  Result u            = run("campaign " + unknown + " --out /tmp/never-written");
  EXPECT_EQ(u.code, 2);
  EXPECT_NE(u.out.find(unknown + ":2: key 'modus': unknown key"), std::string::npos) << u.out;
}

TEST(Cli, MultiportScenarioReportsAlgorithm1AndEq1)
{
  Result r = run_stdout("simulate scenarios/examples/multiport.yaml --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["analytic"]["formula"], "seed004-alg1");
  EXPECT_NEAR(j["analytic"]["period"].get<double>(), 8.0 / 3, 1e-12);            // P1's card: 40 / 15
  EXPECT_NEAR(j["analytic"]["worst_case_period"].get<double>(), 8.0 / 3, 1e-12); // eq. (1)
  EXPECT_NEAR(j["simulated"]["period"].get<double>(), 8.0 / 3, 1e-6);
  EXPECT_EQ(j["simulated"]["allocation"], "allotted");
  EXPECT_EQ(j["simulated"]["cooldown"], 50);
  EXPECT_TRUE(j["event_graph"]["period"].is_null());
  // F = 1 - (1 - 0.1 * 0.2)(1 - 0.1 * 0.1) = 0.0298
  EXPECT_NEAR(j["analytic"]["failure_probability"].get<double>(), 0.0298, 1e-12);
}

TEST(Cli, FailureScenarioReportsTheCrashRunAndTheSurvivalRate)
{
  // scenarios/examples/failures.yaml: F = 0.1728 (bbr10 eq. (2)); 80 runs of the probability model (30 under
  // ASan), 80 data sets each (the file asks for 200 and 200: --runs and --datasets override them).
#ifdef PIPESIM_SANITIZE
  const int runs = 30;
#else
  const int runs = 80;
#endif
  const std::string command = fmt::format("simulate scenarios/examples/failures.yaml --runs {} --datasets 80 "
                                          "--format json",
                                          runs);
  Result r                  = run_stdout(command);
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["analytic"]["failure_probability"].get<double>(), 0.1728, 1e-12);
  EXPECT_NEAR(j["simulated"]["period"].get<double>(), 8.0 / 3, 1e-6); // the fault-free run
  EXPECT_EQ(j["simulated"]["runs"], runs);
  const auto& mc = j["simulated"]["monte_carlo"];
  EXPECT_EQ(mc["survived"].get<int>() + mc["failed"].get<int>(), runs);
  EXPECT_EQ(mc["errors"], 0);
  EXPECT_EQ(mc["details"].size(), static_cast<std::size_t>(runs));
  double rate = j["simulated"]["survival_rate"].get<double>();
  EXPECT_DOUBLE_EQ(rate, mc["survived"].get<int>() / static_cast<double>(runs));
  auto ci = j["simulated"]["survival_ci"];
  EXPECT_LE(ci[0].get<double>(), rate);
  EXPECT_GE(ci[1].get<double>(), rate);
  EXPECT_NEAR(mc["analytic_survival"].get<double>(), 0.8272, 1e-12);
  EXPECT_LE(mc["survival_ci99"][0].get<double>(), 0.8272);
  EXPECT_GE(mc["survival_ci99"][1].get<double>(), 0.8272);
  // every survival is explained by the drawn schedule or by a fatal crash drawn after the end
  EXPECT_NEAR(mc["survived_late_crash"].get<int>() + mc["schedule_survival_rate"].get<double>() * runs,
              mc["survived"].get<int>(), 1e-9);
  // the crash run (run 0): its seed, verdict and crash schedule are recorded
  const auto& crash = j["simulated"]["crash_run"];
  EXPECT_EQ(crash["seed"], mc["details"][0]["seed"]);
  EXPECT_EQ(crash["verdict"], mc["details"][0]["verdict"]);
  EXPECT_EQ(crash["crashes"].size(), mc["details"][0]["crashes"].get<std::size_t>());
  // the same scenario gives the same numbers (every draw is seeded)
  Result again = run_stdout(command);
  EXPECT_EQ(nlohmann::json::parse(again.out)["simulated"]["monte_carlo"]["survived"], mc["survived"]);
}

TEST(Cli, ParetoSweepsTheBoundWithTheExactFront)
{
  Result r = run_stdout("pareto scenarios/examples/pareto.yaml --from 1 --to 4 --steps 7 --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["bounds"], nlohmann::json::array({1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0}));
  EXPECT_EQ(j["mapper_seed"], 42);
  EXPECT_NE(j["command"].get<std::string>().find("pareto scenarios/examples/pareto.yaml"), std::string::npos);
  // Hand-checked in validation/studies/pareto_test.cpp: nothing below 2, then 0.0882 (general) and 0.3448 (interval).
  const auto& general  = j["exact_front"]["general"];
  const auto& interval = j["exact_front"]["interval"];
  EXPECT_TRUE(general[1].is_null());
  EXPECT_NEAR(general[2].get<double>(), 0.0882, 1e-12);
  EXPECT_NEAR(interval[2].get<double>(), 0.3448, 1e-12);
  EXPECT_NEAR(general[6].get<double>(), 0.0018, 1e-12);
  auto f = [](const nlohmann::json& x) { return x.is_null() ? 1.0 : x.get<double>(); }; // none: F = 1 at best
  for (std::size_t i = 1; i < general.size(); ++i)
    EXPECT_LE(f(general[i]), f(general[i - 1])) << "the exact front increases at bound " << i;
  for (const auto& m : j["mappers"])
    for (std::size_t i = 0; i < general.size(); ++i)
      EXPECT_GE(f(m["points"][i]["failure_probability"]), f(general[i]) - 1e-12) << m["name"] << " bound " << i;
}

TEST(Cli, ParetoTableAndGnuplotFiles)
{
  auto dir = std::filesystem::temp_directory_path() / fmt::format("pipesim-cli-pareto-{}", getpid());
  Result r = run(fmt::format("pareto scenarios/examples/pareto.yaml --bounds 1.5,2 --out {}", dir.string()));
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("P_max       bbr10.exhaustive  bbr10.exhaustive.interval"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1.5         infeasible        infeasible"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2           0.0882            0.3448"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir / "pareto.json"));
  EXPECT_TRUE(std::filesystem::exists(dir / "pareto.dat"));
  EXPECT_TRUE(std::filesystem::exists(dir / "pareto.gp"));
  std::filesystem::remove_all(dir);
}

TEST(Cli, ParetoBadInputExitsTwoNamingTheValue)
{
  Result r = run("pareto scenarios/examples/pareto.yaml --bounds 2,0");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--bounds 0: a period bound must be > 0"), std::string::npos) << r.out;
  r = run("pareto scenarios/examples/pareto.yaml --from 3 --to 1 --steps 4");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--to 1: must be a period >= --from (3)"), std::string::npos) << r.out;
  r = run("pareto scenarios/examples/pareto.yaml --mappers bbr10.nope");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("bbr10.nope"), std::string::npos) << r.out;
  r = run("pareto scenarios/examples/pareto.yaml --from 1");
  EXPECT_EQ(r.code, 2) << r.out; // --from needs --to and --steps
  r = run("pareto scenarios/examples/multiport.yaml");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("no period bound to sweep"), std::string::npos) << r.out;
}

TEST(Cli, ParetoNeverDropsASweepOptionSilently)
{
  // --steps 0 used to fall back on the scenario's own period_bound, dropping --from and --to without a word
  for (const char* steps : {"0", "-3"}) {
    Result r = run(fmt::format("pareto scenarios/examples/pareto.yaml --from 1 --to 4 --steps {}", steps));
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find(fmt::format("--steps: {} is not an integer in [1, 10000]", steps)), std::string::npos)
        << r.out;
  }
  Result r = run("pareto scenarios/examples/pareto.yaml --from 1 --to 4 --steps 1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--steps 1: one bound cannot go from --from 1 to --to 4"), std::string::npos) << r.out;
  r = run("pareto scenarios/examples/pareto.yaml --from 2 --to 2 --steps 3");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--steps 3: --from and --to are both 2"), std::string::npos) << r.out;
  for (auto [from_to, named] : {std::pair{"--from nan --to 4", "--from"}, std::pair{"--from 1 --to inf", "--to"},
                                std::pair{"--from -1 --to 4", "--from"}}) {
    r = run(fmt::format("pareto scenarios/examples/pareto.yaml {} --steps 3", from_to));
    EXPECT_EQ(r.code, 2) << from_to << ": " << r.out;
    EXPECT_NE(r.out.find(named), std::string::npos) << from_to << ": " << r.out;
  }
  r = run("pareto scenarios/examples/pareto.yaml --bounds 2,3,2");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--bounds 2,3,2: the bound 2 is given twice"), std::string::npos) << r.out;
  r = run("pareto scenarios/examples/pareto.yaml --bounds 2 --from 1 --to 3 --steps 3");
  EXPECT_EQ(r.code, 2) << r.out; // --bounds excludes --from
  r = run("pareto scenarios/examples/pareto.yaml --to 3 --steps 3");
  EXPECT_EQ(r.code, 2) << r.out; // --to needs --from
  // one bound: --from and --to equal, one step (the sweep of docs/pareto.md)
  r = run_stdout("pareto scenarios/examples/pareto.yaml --from 2 --to 2 --steps 1 --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["bounds"], nlohmann::json::array({2.0}));
}

TEST(Cli, ReliabilityExampleFindsSection2sGeneralMapping)
{
  // scenarios/examples/reliability.yaml: bbr10 §2, P_max = 1: bbr10.best finds Figure 3's mapping, F_gen =
  // 1 - (1 - 0.15^6)^2, worst case 0.95 (enumeration of its 4,096 configurations); the interval mappers 3 x 4 replicas.
  Result r = run("map scenarios/examples/reliability.yaml --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mapping_text"], "[1]:P1|P2|P3|P4|P5|P6 [2]:P7|P8|P9|P10|P11|P12 [3]:P1|P2|P3|P4|P5|P6");
  EXPECT_NEAR(j["analytic"]["failure_probability"].get<double>(), 1 - std::pow(1 - std::pow(0.15, 6), 2), 1e-15);
  EXPECT_NEAR(j["analytic"]["worst_case_period"].get<double>(), 0.95, 1e-12);
  EXPECT_EQ(j["analytic"]["worst_case_formula"], "worst-case-enumeration");
  r = run("map scenarios/examples/reliability.yaml --mapper bbr10.best.interval");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("objective  minimise F under the period bound P_max = 1, period test worst-case\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("(interval)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0.00151"), std::string::npos) << r.out; // 1 - (1 - 0.15^4)^3 = 0.0015177
  r = run("map scenarios/examples/reliability.yaml --mapper br07.h4-gp");
  EXPECT_EQ(r.code, 2) << r.out; // refuses: one-port heuristic, min period
}

TEST(Cli, WhatIfEditErrorsAndUnreachablePairsExitTwo)
{
  const std::string xml = std::string(PIPESIM_SOURCE_DIR) + "/platforms/examples/two_clusters.xml";
  // an edit that matches nothing: exit 2, the scenario file, its line and the pattern
  expect_bad_input("pipeline: {w: [1e9], delta: [1e6, 1e6]}\nplatform:\n  file: " + xml +
                       "\n  io: {in: io, out: io}\n  edits:\n    - {scale_bandwidth: 0.5, links: backbon}\n"
                       "mapper: exact.interval\n",
                   {":6:", "platform.edits[0]", "'backbon'"});
  // an explicit mapping across a link that is off: exit 2 naming both hosts
  expect_bad_input("pipeline: {w: [1e9, 1e9], delta: [1e6, 1e6, 1e6]}\nplatform:\n  file: " + xml +
                       "\n  io: {in: io, out: io}\n  edits: [{fail_link: backbone}]\nmapping:\n"
                       "  - {stages: [1], replicas: [a-1]}\n  - {stages: [2], replicas: [b-8]}\n",
                   {":8:", "'a-1'", "'b-8'", "unreachable"});
  // the same platform re-mapped: the mapper keeps to one side of the cut
  auto path = scenario_file("cut", "pipeline: {w: [1e9, 1e9], delta: [1e6, 1e6, 1e6]}\nplatform:\n  file: " + xml +
                                       "\n  io: {in: io, out: io}\n  edits: [{fail_link: backbone}]\n"
                                       "mapper: exact.interval\n");
  Result r  = run_stdout("map " + path + " --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["platform"]["edits"][0]["matched"][0], "backbone");
  std::string mapping = j["mapping_text"];
  EXPECT_TRUE(mapping.find("a-") == std::string::npos || mapping.find("b-") == std::string::npos) << mapping;
}

TEST(Cli, WhatIfWritesTheComparison)
{
  auto dir = std::filesystem::temp_directory_path() / fmt::format("pipesim-whatif-{}", getpid());
  Result r = run_stdout("whatif scenarios/examples/whatif.yaml --edits scenarios/examples/edits/whatif.yaml "
                        "--no-simulate --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mapper"], "exact.interval");
  ASSERT_EQ(j["variants"].size(), 6u);
  EXPECT_EQ(j["variants"][0]["variant"], "backbone halved");
  EXPECT_NEAR(j["variants"][0]["fixed"]["analytic"]["period"].get<double>(), 2.41427, 1e-9);
  EXPECT_NEAR(j["variants"][0]["fixed"]["ratio_to_baseline"]["analytic_period"].get<double>(), 2.41427 / 2.21427, 1e-9);
  EXPECT_EQ(j["variants"][3]["fixed"]["status"], "removed");
  EXPECT_EQ(j["variants"][4]["fixed"]["status"], "ok"); // fails at 1 s: only the simulation sees it
  EXPECT_EQ(j["variants"][5]["fixed"]["status"], "unreachable");
  Result out = run("whatif scenarios/examples/whatif.yaml --edits scenarios/examples/edits/whatif.yaml --no-simulate "
                   "--out " +
                   dir.string());
  ASSERT_EQ(out.code, 0) << out.out;
  EXPECT_NE(out.out.find("backbone halved"), std::string::npos) << out.out;
  for (const char* file : {"whatif.json", "whatif.csv", "whatif.md", "whatif-period.dat", "whatif-period.gp"})
    EXPECT_TRUE(std::filesystem::exists(dir / file)) << file;
  std::filesystem::remove_all(dir);
  Result missing = run("whatif scenarios/examples/whatif.yaml --edits /nonexistent/edits.yaml");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.out.find("/nonexistent/edits.yaml"), std::string::npos) << missing.out;
}

TEST(Cli, LinkFailingDuringTheRunIsAVerdictNotAPeriod)
{
  // the backbone turns off at 5 s: the analytic figures are the platform's before it, the run fails on the first
  // transfer from a-1 to b-8 after 5 s, and no period is reported as measured
  const std::string xml = std::string(PIPESIM_SOURCE_DIR) + "/platforms/examples/two_clusters.xml";
  auto path = scenario_file("linkfail", "pipeline: {w: [1e9, 1e9], delta: [1e6, 1e6, 1e6]}\nplatform:\n  file: " + xml +
                                            "\n  io: {in: io, out: io}\n  edits: [{fail_link: backbone, at: 5}]\n"
                                            "mapping:\n  - {stages: [1], replicas: [a-1]}\n"
                                            "  - {stages: [2], replicas: [b-8]}\nsimulation: {datasets: 20}\n");
  Result r  = run_stdout("simulate " + path + " --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["simulated"]["period"].is_null());
  EXPECT_EQ(j["simulated"]["verdict"], "failed");
  EXPECT_EQ(j["simulated"]["link_failure"]["failed_link"], "backbone");
  double t = j["simulated"]["link_failure"]["failure_time"];
  EXPECT_GE(t, 5.0);
  EXPECT_LT(t, 5.0 + 1.2); // the next transfer across the backbone starts within one period
  int delivered = j["simulated"]["link_failure"]["delivered"];
  EXPECT_GT(delivered, 0);
  EXPECT_LT(delivered, 20);
  EXPECT_NEAR(j["analytic"]["period"].get<double>(), 1.11722, 1e-5);
  Result table = run_stdout("simulate " + path);
  EXPECT_NE(table.out.find("link 'backbone' is off"), std::string::npos) << table.out;
}

TEST(Cli, CampaignSlurmDryRunStatusAndRefusals)
{
  auto dir = std::filesystem::temp_directory_path() / fmt::format("pipesim-cli-slurm-{}", getpid());
  std::filesystem::remove_all(dir);
  std::string campaign = scenario_file("slurmcamp", R"(name: cli-slurm
mode: analytic
base:
  pipeline: {generate: {n: 3, w: [1, 20], delta: [1, 100], seed: 1}}
  platform: {generate: {class: fully-heterogeneous, p: 4, speed: [1, 20], bandwidth: [1, 10], seed: 1}}
  mapper: random.interval
seed: {from: 1, count: 6}
)");
  std::string out      = (dir / "run").string();
  Result dry           = run(fmt::format("campaign {} --out {} --slurm --shards 2 --cpus-per-task 3 --partition short "
                                                   "--time 30 --sbatch-arg=--account=p42 --setup 'module load x' --dry-run",
                                         campaign, out));
  ASSERT_EQ(dry.code, 0) << dry.out;
  EXPECT_NE(dry.out.find("would submit array job: shards 1-2 of 2, 3 CPUs each"), std::string::npos) << dry.out;
  std::ifstream array_file(out + "/slurm/array.sbatch");
  std::string array((std::istreambuf_iterator<char>(array_file)), std::istreambuf_iterator<char>());
  // absolute paths: the jobs run elsewhere
  std::string exe = std::filesystem::canonical(PIPESIM_EXECUTABLE).string();
  EXPECT_NE(array.find(fmt::format("exec {} campaign {} --out {}/shards/\"$shard\" --shard \"$shard\"/2 --resume "
                                   "--jobs 3\n",
                                   exe, campaign, out)),
            std::string::npos)
      << array;
  EXPECT_NE(array.find("#SBATCH --account=p42\n"), std::string::npos) << array;
  EXPECT_NE(array.find("\nmodule load x\n"), std::string::npos) << array;
  EXPECT_TRUE(std::filesystem::exists(out + "/slurm/merge.sbatch"));
  std::ifstream command_file(out + "/COMMAND");
  std::string command((std::istreambuf_iterator<char>(command_file)), std::istreambuf_iterator<char>());
  EXPECT_NE(command.find("--setup 'module load x' --dry-run"), std::string::npos) << command; // quoted as typed

  Result status = run_stdout(fmt::format("campaign status {} --format json", out));
  ASSERT_EQ(status.code, 0) << status.out;
  auto j = nlohmann::json::parse(status.out);
  EXPECT_EQ(j["total"], 6);
  EXPECT_EQ(j["done"], 0);
  EXPECT_EQ(j["resubmit"], nlohmann::json::array({1, 2}));
  EXPECT_EQ(j["shards"][0]["expected"], 3);

  // no sbatch: refused, nothing submitted
  Result no_sbatch =
      run(fmt::format("campaign {} --out {}/other --slurm", campaign, dir.string()), "PATH=/nonexistent");
  EXPECT_EQ(no_sbatch.code, 2) << no_sbatch.out;
  EXPECT_NE(no_sbatch.out.find("sbatch not found in PATH"), std::string::npos) << no_sbatch.out;
  // bad options
  for (const char* bad : {"--shard 1/2", "--jobs 2", "--resume", "--shards 0", "--shards 7", "--time 1h"}) {
    Result r = run(fmt::format("campaign {} --out {} --slurm --dry-run {}", campaign, out, bad));
    EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
  }
  EXPECT_EQ(run(fmt::format("campaign {} --out {} --shards 2", campaign, out)).code, 2); // needs --slurm
  // a directory holding another campaign, or results of a run without --slurm
  std::string edited = scenario_file("slurmcamp2", "name: cli-slurm\nmode: analytic\nbase:\n  pipeline: {w: [1], "
                                                   "delta: [1, 1]}\n  platform: {processors: [{name: A, speed: 1}], "
                                                   "bandwidth: 1}\n  mapper: exhaustive.interval\n");
  Result other       = run(fmt::format("campaign {} --out {} --slurm --dry-run", edited, out));
  EXPECT_EQ(other.code, 2) << other.out;
  EXPECT_NE(other.out.find("holds campaign 'cli-slurm'"), std::string::npos) << other.out;
  ASSERT_EQ(run(fmt::format("campaign {} --out {}/plain --quiet", campaign, dir.string())).code, 0);
  Result plain = run(fmt::format("campaign {} --out {}/plain --slurm --dry-run", campaign, dir.string()));
  EXPECT_EQ(plain.code, 2) << plain.out;
  EXPECT_NE(plain.out.find("without --slurm"), std::string::npos) << plain.out;
  // `campaign status` also reads a directory written without SLURM
  Result plain_status = run_stdout(fmt::format("campaign status {}/plain", dir.string()));
  EXPECT_EQ(plain_status.code, 0) << plain_status.out;
  EXPECT_NE(plain_status.out.find("runs       6 of 6 done, 0 failed, in 1 shard"), std::string::npos)
      << plain_status.out;
  EXPECT_EQ(run("campaign").code, 2);
  EXPECT_EQ(run("campaign status /nonexistent/dir").code, 2);
}

// Issue 16: SimGrid option typos were an internal error (exit 1) or a SimGrid abort; XML speeds of -2Gf and 0f were
// mapped (or aborted the simulation); a huge --datasets ran for hours.
TEST(Cli, SimgridOptionsXmlValuesAndHugeCountsAreBadInput)
{
  const std::string quickstart = "simulate scenarios/examples/quickstart.yaml ";
  Result cfg                   = run(quickstart + "--cfg=network/model:Foo");
  EXPECT_EQ(cfg.code, 2) << cfg.out;
  EXPECT_NE(cfg.out.find("pipesim: error: --cfg=network/model:Foo: SimGrid: Model 'Foo' is invalid!"),
            std::string::npos)
      << cfg.out;
  Result log = run(quickstart + "--log=garbage");
  EXPECT_EQ(log.code, 2) << log.out;
  EXPECT_NE(log.out.find("pipesim: error: --log=garbage: SimGrid: Invalid control string 'garbage'"), std::string::npos)
      << log.out;
  Result datasets = run(quickstart + "--datasets 2000000000");
  EXPECT_EQ(datasets.code, 2) << datasets.out;
  EXPECT_NE(datasets.out.find("10000000"), std::string::npos) << datasets.out;

  std::string xml = scenario_file("negative-speed", "") + ".xml";
  std::ofstream(xml) << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                        "<platform version=\"4.1\">\n  <zone id=\"z\" routing=\"Full\">\n"
                        "    <host id=\"io\" speed=\"1Gf\"/>\n    <host id=\"c\" speed=\"-2Gf\"/>\n  </zone>\n"
                        "</platform>\n";
  std::string yaml = scenario_file("negative-speed", fmt::format("pipeline: {{w: [1], delta: [1, 1]}}\nplatform: "
                                                                 "{{file: {}, io: {{in: io, out: io}}}}\n"
                                                                 "mapper: br07.one-to-one\n",
                                                                 xml));
  for (const char* command : {"map", "simulate"}) {
    Result r = run(fmt::format("{} {}", command, yaml));
    EXPECT_EQ(r.code, 2) << command << ": " << r.out;
    EXPECT_NE(r.out.find(xml + ":6: attribute 'speed': value '-2Gf': expected a finite number > 0"), std::string::npos)
        << command << ": " << r.out;
  }
}

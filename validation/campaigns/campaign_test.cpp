// Campaign files and the runner: expansion, errors, resume after a kill, shards, determinism, crashing workers,
// no worker left after the runner is interrupted.
#include "base/input_error.hpp"
#include "mappers/debug/debug_mappers_fixtures.hpp"
#include "scenarios/campaign.hpp"
#include "scenarios/scenario.hpp"
#include "validation/campaigns/campaign_row.hpp"
#include "validation/campaigns/campaign_runner.hpp"
#include "validation/campaigns/result_files.hpp"
#include "validation/campaigns/run_execution.hpp"
#include "validation/evaluation/result_output.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace pipesim;
namespace fs = std::filesystem;

namespace {

const char* small_campaign = R"(name: small
mode: simulate
base:
  pipeline: {generate: {n: 3, w: [1, 20], delta: [1, 100], seed: 1}}
  platform: {generate: {class: fully-heterogeneous, p: 4, speed: [1, 20], bandwidth: [1, 10], seed: 1}}
  mapper: random.interval
  simulation: {datasets: 30}
sweep:
  pipeline.generate.n: [2..3]
  mapper: [random.interval, random.one-to-one]
seed: {from: 1, count: 4}
)";

std::string temp_dir(const std::string& name)
{
  auto dir = fs::temp_directory_path() / fmt::format("pipesim-campaign-{}-{}", getpid(), name);
  fs::remove_all(dir);
  return dir.string();
}

RunnerOptions options(const std::string& dir, int jobs = 2)
{
  RunnerOptions o;
  o.out_dir = dir;
  o.jobs    = jobs;
  o.quiet   = true;
  return o;
}

/// The rows of a results.jsonl as the JSON objects the runner writes (CampaignRow::to_json).
std::vector<nlohmann::json> campaign_json_rows(const std::string& path)
{
  std::vector<nlohmann::json> out;
  for (const CampaignRow& row : read_rows(path))
    out.push_back(row.to_json());
  return out;
}

/// Rows without their timing fields, by run id.
std::map<int, nlohmann::json> timeless(const std::string& dir)
{
  std::map<int, nlohmann::json> out;
  for (auto row : campaign_json_rows(dir + "/results.jsonl")) {
    EXPECT_TRUE(row["timing"].contains("wall_seconds")) << row.dump();
    row.erase("timing");
    out[row["run_id"].get<int>()] = row;
  }
  return out;
}

std::string message_of(const std::string& text)
{
  try {
    parse_campaign(text, "c.yaml", ".");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(Campaign, ExpandsSweepsZipsAndSeeds)
{
  Campaign c = parse_campaign(small_campaign, "c.yaml", ".");
  EXPECT_EQ(c.name, "small");
  EXPECT_EQ(c.mode, CampaignMode::simulate);
  ASSERT_EQ(c.runs.size(), 2u * 2u * 4u);
  EXPECT_EQ(c.swept, (std::vector<std::string>{"pipeline.generate.n", "mapper", "seed"}));
  // first axis outermost, seed innermost
  EXPECT_EQ(c.runs[0].describe(), "pipeline.generate.n=2 mapper=random.interval seed=1");
  EXPECT_EQ(c.runs[5].describe(), "pipeline.generate.n=2 mapper=random.one-to-one seed=2");
  EXPECT_EQ(c.runs[15].describe(), "pipeline.generate.n=3 mapper=random.one-to-one seed=4");
  // the run seed reaches every seed of the scenario
  EXPECT_NE(c.runs[5].scenario_yaml.find("seed: 2"), std::string::npos);
  YAML::Node doc = YAML::Load(c.runs[5].scenario_yaml);
  EXPECT_EQ(doc["pipeline"]["generate"]["seed"].as<int>(), 2);
  EXPECT_EQ(doc["platform"]["generate"]["seed"].as<int>(), 2);
  EXPECT_EQ(doc["simulation"]["seed"].as<int>(), 2);
  EXPECT_EQ(doc["mapper_options"]["seed"].as<int>(), 2);
  EXPECT_EQ(doc["mapper"].as<std::string>(), "random.one-to-one");

  Campaign z = parse_campaign(R"(base:
  pipeline: {w: [1, 2], delta: [1, 1, 1]}
  platform: {processors: [{name: A, speed: 1}, {name: B, speed: 2}], bandwidth: 1}
  mapper: exhaustive.interval
zip:
  - {platform.bandwidth: [1, 2, 3], simulation.datasets: {from: 10, to: 30, step: 10}}
)",
                              "z.yaml", ".");
  ASSERT_EQ(z.runs.size(), 3u);
  EXPECT_EQ(z.runs[2].describe(), "platform.bandwidth=3 simulation.datasets=30");
  EXPECT_EQ(z.name, "z");
  EXPECT_EQ(z.trace_ids, (std::set<int>{0})); // default: the first run
  std::string traced = small_campaign;
  traced.insert(traced.find("base:"), "trace: [2, 5]\n");
  EXPECT_EQ(parse_campaign(traced, "c.yaml", ".").trace_ids, (std::set<int>{2, 5}));
}

TEST(Campaign, ANullValueRemovesTheKey)
{
  // validation/campaigns/hedpm-ferret.yaml: some runs give an explicit mapping, the others a mapper.
  Campaign c = parse_campaign(R"(base:
  pipeline: {w: [1, 2], delta: [1, 1, 1]}
  platform: {processors: [{name: A, speed: 1}, {name: B, speed: 2}], bandwidth: 1}
zip:
  - {mapper: [null, exhaustive.interval], mapping: [[{stages: [1, 2], replicas: [A]}], null]}
)",
                              "z.yaml", ".");
  ASSERT_EQ(c.runs.size(), 2u);
  YAML::Node first = YAML::Load(c.runs[0].scenario_yaml), second = YAML::Load(c.runs[1].scenario_yaml);
  EXPECT_FALSE(first["mapper"].IsDefined());
  EXPECT_EQ(first["mapping"][0]["replicas"][0].as<std::string>(), "A");
  EXPECT_EQ(second["mapper"].as<std::string>(), "exhaustive.interval");
  EXPECT_FALSE(second["mapping"].IsDefined());
}

TEST(Campaign, SweepsTheFailureModelAndTheRuns)
{
  const std::string base = R"(base:
  pipeline: {w: [1, 2], delta: [1, 1, 1]}
  platform: {processors: [{name: A, speed: 1, failure_probability: 0.1}, {name: B, speed: 2}], bandwidth: 1}
  mapping: [{stages: [1, 2], replicas: [A, B]}]
)";
  Campaign c = parse_campaign(base + "sweep:\n  simulation.failures.model: [none, probability, exponential]\n"
                                     "  simulation.runs: [1, 50]\n",
                              "c.yaml", ".");
  ASSERT_EQ(c.runs.size(), 6u);
  EXPECT_EQ(c.runs[3].describe(), "simulation.failures.model=probability simulation.runs=50");
  const FailureModel models[] = {FailureModel::none, FailureModel::probability, FailureModel::exponential};
  for (std::size_t i = 0; i < c.runs.size(); ++i) {
    Scenario s = parse_scenario(c.runs[i].scenario_yaml, "run.yaml");
    EXPECT_EQ(s.simulation.failures.model, models[i / 2]) << i;
    EXPECT_EQ(s.simulation.runs, i % 2 ? 50 : 1) << i;
  }
  // the whole setting, as a string or a map
  Campaign w = parse_campaign(base + "sweep:\n  simulation.failures: [none, {model: probability, window: [0, 1]}]\n",
                              "w.yaml", ".");
  ASSERT_EQ(w.runs.size(), 2u);
  FailureSettings f = parse_scenario(w.runs[1].scenario_yaml, "run.yaml").simulation.failures;
  EXPECT_EQ(f.model, FailureModel::probability);
  EXPECT_EQ(f.window_end, 1);
  // a swept value the scenario refuses fails the campaign before anything runs
  std::string bad = message_of(base + "sweep:\n  simulation.failures.model: [none, trace]\n");
  EXPECT_NE(bad.find("run 1 (simulation.failures.model=trace): "), std::string::npos) << bad;
  EXPECT_NE(bad.find("needs 'crashes'"), std::string::npos) << bad;
}

TEST(Campaign, MalformedFilesNameFileLineAndKey)
{
  EXPECT_NE(message_of("name: x\ncolour: red\n").find("c.yaml:2: key 'colour': unknown key"), std::string::npos)
      << message_of("name: x\ncolour: red\n");
  std::string base = "base:\n  pipeline: {w: [1], delta: [1, 1]}\n"
                     "  platform: {processors: [{name: A, speed: 1}], bandwidth: 1}\n  mapper: exhaustive.interval\n";
  std::string zip  = message_of(base + "zip:\n  - {platform.bandwidth: [1, 2], simulation.datasets: [1]}\n");
  EXPECT_NE(zip.find("c.yaml:6"), std::string::npos) << zip;
  EXPECT_NE(zip.find("same length"), std::string::npos) << zip;
  std::string through = message_of(base + "sweep:\n  mapper.x: [1]\n");
  EXPECT_NE(through.find("c.yaml:6"), std::string::npos) << through;
  EXPECT_NE(through.find("not a mapping"), std::string::npos) << through;
  std::string bad_value = message_of(base + "sweep:\n  simulation.datasets: [10, -1]\n");
  EXPECT_NE(bad_value.find("run 1"), std::string::npos) << bad_value;
  EXPECT_NE(bad_value.find("simulation.datasets"), std::string::npos) << bad_value;
  std::string range = message_of(base + "sweep:\n  simulation.datasets: [5..1]\n");
  EXPECT_NE(range.find("c.yaml:6"), std::string::npos) << range;
  EXPECT_NE(message_of(base + "mode: fast\n").find("c.yaml:5: key 'mode': value 'fast'"), std::string::npos);
  EXPECT_NE(message_of("mode: analytic\n").find("key 'base': missing"), std::string::npos);
  // A misspelt mapper ran the whole campaign to error rows and exited 0: refused before anything runs, at its line.
  std::string misspelt = message_of(base + "sweep:\n  mapper: [exhaustive.interval,\n           br07.one-to-onne]\n");
  EXPECT_NE(misspelt.find("c.yaml:7: key 'mapper': value 'br07.one-to-onne': run 1 (mapper=br07.one-to-onne): unknown "
                          "mapper (known: "),
            std::string::npos)
      << misspelt;
  std::string in_base = message_of("base:\n  pipeline: {w: [1], delta: [1, 1]}\n"
                                   "  platform: {processors: [{name: A, speed: 1}], bandwidth: 1}\n  mapper: hedmp\n");
  EXPECT_NE(in_base.find("c.yaml:4: key 'mapper': value 'hedmp': run 0: unknown mapper (known: "), std::string::npos)
      << in_base;
}

TEST(Campaign, RunCountIsCappedAndBaseMustBeARegularFile)
{
  std::string base = "base:\n  pipeline: {w: [1], delta: [1, 1]}\n"
                     "  platform: {processors: [{name: A, speed: 1}], bandwidth: 1}\n  mapper: exhaustive.interval\n";
  // 4 x 3 = 12 runs against a cap of 10 (the cap saturates: a product of axis sizes never wraps around).
  try {
    parse_campaign(base + "sweep:\n  simulation.datasets: [1, 2, 3, 4]\n  platform.bandwidth: [1, 2, 3]\n", "c.yaml",
                   ".", 10);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "c.yaml:1: the campaign expands to more than 10 runs");
  }
  // A directory (or a device such as /dev/zero, which would never end) is no base scenario.
  EXPECT_EQ(message_of("base: /tmp\n"),
            "c.yaml:1: key 'base': value '/tmp': base scenario file not found (no such regular file)");
}

TEST(Campaign, ElectionsModeDistinctSeedsAndTheirErrors)
{
  const std::string base = R"(base:
  pipeline: {generate: {preset: bbr10-table1, n: 4, seed: 1}}
  platform: {generate: {preset: bbr10, p: 6, seed: 1}}
  mapper: random.stage-sets
  simulation: {model: multi-port}
sweep:
  pipeline.generate.n: [3, 5]
)";
  Campaign c             = parse_campaign(
                  "mode: elections\nmilp_time_limit: 5\n" + base + "seed: {from: 7, count: 3, distinct: true}\n", "e.yaml", ".");
  EXPECT_EQ(c.mode, CampaignMode::elections);
  EXPECT_EQ(c.milp_time_limit, 5);
  ASSERT_EQ(c.runs.size(), 6u);
  for (const auto& run : c.runs) { // seed 7 + run id, recorded in the params and in every seed of the scenario
    EXPECT_EQ(run.seed, 7u + static_cast<unsigned>(run.id));
    EXPECT_EQ(run.describe(), fmt::format("pipeline.generate.n={} seed={}", run.id < 3 ? 3 : 5, 7 + run.id));
    EXPECT_EQ(YAML::Load(run.scenario_yaml)["platform"]["generate"]["seed"].as<int>(), 7 + run.id);
  }
  EXPECT_EQ(parse_campaign(base + "seed: {from: 7, count: 3}\n", "e.yaml", ".").runs[4].seed, 8u); // not distinct
  EXPECT_NE(message_of("milp_time_limit: 5\n" + base).find("key 'milp_time_limit': applies to mode: elections only"),
            std::string::npos)
      << message_of("milp_time_limit: 5\n" + base);
  std::string one_port = base;
  one_port.replace(one_port.find("{model: multi-port}"), 19, "{model: one-port}");
  one_port.replace(one_port.find("random.stage-sets"), 17, "random.interval");
  EXPECT_NE(message_of("mode: elections\n" + one_port).find("mode 'elections' needs the multi-port model"),
            std::string::npos)
      << message_of("mode: elections\n" + one_port);
  EXPECT_NE(message_of("mode: election\n" + base).find("expected analytic, simulate or elections"), std::string::npos);
}

TEST(CampaignRunner, WritesOneRowPerRunWithFiguresAndRerunCommand)
{
  Campaign c      = parse_campaign(small_campaign, "c.yaml", ".");
  std::string dir = temp_dir("rows");
  auto summary    = run_campaign(c, options(dir));
  EXPECT_EQ(summary.executed, 16);
  EXPECT_EQ(summary.failures, 0);
  auto rows = campaign_json_rows(dir + "/results.jsonl");
  ASSERT_EQ(rows.size(), 16u);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i]["run_id"], static_cast<int>(i)); // sorted once complete
    EXPECT_EQ(rows[i]["status"], "ok") << rows[i].dump();
    double analytic  = rows[i]["analytic_period"].get<double>();
    double simulated = rows[i]["simulated_period"].get<double>();
    EXPECT_NEAR(simulated, analytic, 1e-9 * analytic);
    EXPECT_NEAR(rows[i]["event_graph_period"].get<double>(), analytic, 1e-12 * analytic);
  }
  EXPECT_EQ(rows[5]["params"]["mapper"], "random.one-to-one");
  EXPECT_EQ(rows[5]["seed"], 2);
  std::ifstream csv(dir + "/results.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("campaign,run_id,seed,mapper,status", 0), 0u) << header;
  EXPECT_NE(header.find("param:pipeline.generate.n"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir + "/COMMAND"));
  EXPECT_TRUE(fs::exists(dir + "/trace-0.json"));
  EXPECT_FALSE(fs::exists(dir + "/trace-1.json"));
  // an existing result directory is not overwritten without --resume
  EXPECT_THROW(run_campaign(c, options(dir)), InputError);
}

TEST(CampaignRunner, ASubsetOfTheRunsKeepsEachRunsOwnScenario)
{
  // A library caller may run some of the runs only (the HeDPM reproduction test keeps seed 1): the runner finds each
  // run by its id, not by its position (it used to read c.runs[id], past the kept runs).
  Campaign c = parse_campaign(small_campaign, "c.yaml", ".");
  c.mode     = CampaignMode::analytic;
  std::erase_if(c.runs, [](const CampaignRun& run) { return run.seed != 3; }); // ids 2, 6, 10, 14
  ASSERT_EQ(c.runs.size(), 4u);
  std::string dir = temp_dir("subset");
  EXPECT_EQ(run_campaign(c, options(dir)).failures, 0);
  auto rows = campaign_json_rows(dir + "/results.jsonl");
  ASSERT_EQ(rows.size(), 4u);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i]["run_id"], c.runs[i].id);
    EXPECT_EQ(rows[i]["seed"], 3);
    EXPECT_EQ(rows[i]["status"], "ok") << rows[i].dump();
  }
  EXPECT_EQ(rows[1]["params"]["mapper"], "random.one-to-one");
  RunnerOptions o = options(temp_dir("subset-only"));
  o.only          = {5};
  EXPECT_THROW(run_campaign(c, o), InputError); // run 5 is not among the kept runs
}

TEST(CampaignRow, ExactMappersGiveTheirLowerBoundAndGap)
{
  // exact.interval proves its optimum: lower bound = the period, gap 0; a heuristic proves nothing: empty cells.
  Campaign c = parse_campaign(R"(name: bounds
mode: analytic
base:
  pipeline: {generate: {n: 4, w: [1, 20], delta: [1, 100], seed: 1}}
  platform: {generate: {class: fully-heterogeneous, p: 3, speed: [1, 20], bandwidth: [1, 10], seed: 1}}
  mapper: exact.interval
sweep:
  mapper: [exact.interval, random.interval]
)",
                              "c.yaml", ".");
  ASSERT_EQ(c.runs.size(), 2u);
  nlohmann::json exact = execute_run(c, c.runs[0], "").to_json();
  ASSERT_EQ(exact["mapper_status"], "optimal") << exact.dump();
  EXPECT_EQ(exact["mapper_lower_bound"], exact["analytic_period"]);
  EXPECT_EQ(exact["mapper_gap"], 0.0);
  CampaignRow random = execute_run(c, c.runs[1], "");
  EXPECT_FALSE(random.to_json().contains("mapper_lower_bound"));
  EXPECT_NE(CampaignRow::csv_header(c.swept, c.mode).find("mapper_status,mapper_lower_bound,mapper_gap,"),
            std::string::npos);
  EXPECT_NE(random.csv_line(c.swept, c.mode).find(",random.interval,ok,feasible,,,"), std::string::npos)
      << random.csv_line(c.swept, c.mode);
}

TEST(CampaignRunner, TwoRunsGiveIdenticalFilesApartFromTiming)
{
  Campaign c    = parse_campaign(small_campaign, "c.yaml", ".");
  std::string a = temp_dir("det-a"), b = temp_dir("det-b");
  run_campaign(c, options(a, 2));
  run_campaign(c, options(b, 1));
  EXPECT_EQ(timeless(a), timeless(b));
  // byte for byte: results.jsonl without its "timing" objects, results.csv without its timing.* columns
  auto jsonl = [](const std::string& dir) {
    std::ifstream in(dir + "/results.jsonl");
    std::string line, out;
    while (std::getline(in, line))
      out += without_timing(nlohmann::json::parse(line)).dump() + "\n";
    return out;
  };
  EXPECT_EQ(jsonl(a), jsonl(b));
  auto csv = [](const std::string& dir) {
    std::ifstream in(dir + "/results.csv");
    std::string line, out;
    std::vector<bool> timing; // per column of the header (no field of these rows holds a comma)
    while (std::getline(in, line)) {
      std::vector<std::string> fields;
      std::stringstream ss(line);
      for (std::string f; std::getline(ss, f, ',');)
        fields.push_back(f);
      if (timing.empty())
        for (const auto& f : fields)
          timing.push_back(is_timing_column(f));
      for (std::size_t i = 0; i < fields.size(); ++i)
        if (i >= timing.size() || !timing[i]) out += fields[i] + ",";
      out += "\n";
    }
    EXPECT_EQ(std::count(timing.begin(), timing.end(), true), 2) << dir; // timing.mapper_seconds, timing.wall_seconds
    return out;
  };
  EXPECT_EQ(csv(a), csv(b));
}

TEST(CampaignRunner, RowsWrittenBeforeTheTimingRuleAreReadInTheCurrentForm)
{
  std::string dir = temp_dir("legacy-timing");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/results.jsonl")
      << R"({"run_id": 1, "status": "ok", "mapper_seconds": 0.5, "wall_seconds": 2.5, "milp_seconds": 1})"
      << "\n"
      << R"({"run_id": 2, "status": "ok", "timing": {"wall_seconds": 3}})"
      << "\n";
  auto rows = read_rows(dir + "/results.jsonl");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].run_id, 1);
  EXPECT_EQ(rows[0].status, RunStatus::ok);
  EXPECT_EQ(rows[0].mapper_seconds, RowNumber(0.5));
  EXPECT_EQ(rows[0].wall_seconds, RowNumber(2.5));
  EXPECT_EQ(rows[0].milp_seconds, RowNumber(1.0));
  EXPECT_EQ(rows[0].to_json()["timing"], nlohmann::json::parse(R"({"mapper_seconds": 0.5, "wall_seconds": 2.5,
                                                                   "milp_seconds": 1})"));
  EXPECT_FALSE(rows[0].to_json().contains("wall_seconds")); // not at the top level any more
  EXPECT_EQ(rows[1].to_json()["timing"], nlohmann::json::parse(R"({"wall_seconds": 3})"));
  EXPECT_FALSE(rows[1].mapper_seconds.present());
  // the CSV: run_id 1, then timing.mapper_seconds and timing.wall_seconds after the fixed columns
  std::string line = rows[0].csv_line({}, CampaignMode::analytic);
  EXPECT_EQ(line.substr(0, 4), ",1,0") << line;
  EXPECT_EQ(line.substr(line.size() - 8), ",0.5,2.5") << line;
}

TEST(CampaignRunner, ResumeAfterKillLosesNothingAndDoublesNothing)
{
  std::string text = std::string(small_campaign);
  // long enough runs to kill the runner in the middle (a fifth of them under the sanitizers, as slow there)
#ifdef PIPESIM_SANITIZE
  text.replace(text.find("datasets: 30"), 12, "datasets: 600");
#else
  text.replace(text.find("datasets: 30"), 12, "datasets: 3000");
#endif
  Campaign c      = parse_campaign(text, "c.yaml", ".");
  std::string dir = temp_dir("kill");
  pid_t pid       = fork();
  if (pid == 0) {
    run_campaign(c, options(dir, 1));
    _exit(0);
  }
  // kill -9 the runner once a few rows are on disk
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream f(dir + "/results.jsonl");
    int lines = 0;
    for (std::string l; std::getline(f, l);)
      ++lines;
    if (lines >= 3) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  auto before = campaign_json_rows(dir + "/results.jsonl");
  ASSERT_GE(before.size(), 3u);
  ASSERT_LT(before.size(), 16u) << "the runner finished before it was killed";
  // a torn last line, as a kill in the middle of a write leaves it
  std::ofstream(dir + "/results.jsonl", std::ios::app) << R"({"run_id": 15, "status": "o)";
  RunnerOptions o = options(dir, 2);
  o.resume        = true;
  auto summary    = run_campaign(c, o);
  EXPECT_EQ(summary.skipped, static_cast<int>(before.size()));
  EXPECT_EQ(summary.executed, 16 - static_cast<int>(before.size()));
  auto rows = campaign_json_rows(dir + "/results.jsonl");
  std::multiset<int> ids;
  for (const auto& row : rows)
    ids.insert(row["run_id"].get<int>());
  ASSERT_EQ(ids.size(), 16u);
  for (int id = 0; id < 16; ++id)
    EXPECT_EQ(ids.count(id), 1u) << "run " << id;
  std::ifstream csv(dir + "/results.csv");
  int csv_lines = 0;
  for (std::string l; std::getline(csv, l);)
    ++csv_lines;
  EXPECT_EQ(csv_lines, 17); // header + 16 rows
}

TEST(CampaignRunner, ShardsCoverTheCampaignExactlyOnce)
{
  Campaign c        = parse_campaign(small_campaign, "c.yaml", ".");
  std::string whole = temp_dir("whole");
  run_campaign(c, options(whole));
  std::vector<std::string> shards;
  for (int i = 0; i < 3; ++i) {
    shards.push_back(temp_dir(fmt::format("shard{}", i)));
    RunnerOptions o = options(shards.back());
    o.shard_index   = i;
    o.shard_count   = 3;
    run_campaign(c, o);
    for (const auto& row : campaign_json_rows(shards.back() + "/results.jsonl"))
      EXPECT_EQ(row["run_id"].get<int>() % 3, i);
  }
  std::string merged = temp_dir("merged");
  merge_campaign_outputs(shards, merged);
  EXPECT_EQ(timeless(merged), timeless(whole));
  try {
    merge_campaign_outputs({shards[0], shards[1]}, temp_dir("missing"));
    FAIL() << "a missing shard must be an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
  }
  try {
    merge_campaign_outputs({shards[0], shards[1], shards[2], shards[1]}, temp_dir("doubled"));
    FAIL() << "a doubled shard must be an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("more than once"), std::string::npos) << e.what();
  }
}

TEST(CampaignRunner, CrashingAndHangingWorkersGiveStatusRows)
{
  register_debug_mappers();
  Campaign c      = parse_campaign(R"(name: faults
mode: analytic
run_time_limit: 1
base:
  pipeline: {w: [1, 2], delta: [1, 1, 1]}
  platform: {processors: [{name: A, speed: 1}, {name: B, speed: 2}], bandwidth: 1}
  mapper: exhaustive.interval
  mapper_options: {time_limit: 60}
sweep:
  mapper: [exhaustive.interval, debug.abort, debug.sleep, br07.one-to-one]
)",
                                   "faults.yaml", ".");
  std::string dir = temp_dir("faults");
  auto summary    = run_campaign(c, options(dir, 2));
  EXPECT_EQ(summary.executed, 4);
  EXPECT_EQ(summary.failures, 2);
  auto rows = campaign_json_rows(dir + "/results.jsonl");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0]["status"], "ok");
  // b = 1, s_A = 1, s_B = 2: S1 on A and S2 on B gives max(1 + 1 + 1, 1 + 2/2 + 1) = 3, the optimum
  EXPECT_DOUBLE_EQ(rows[0]["analytic_period"].get<double>(), 3.0);
  EXPECT_EQ(rows[1]["status"], "crashed");
  EXPECT_NE(rows[1]["error"].get<std::string>().find("signal 6"), std::string::npos) << rows[1].dump();
  EXPECT_EQ(rows[2]["status"], "timeout");
  EXPECT_EQ(rows[3]["status"], "ok");
}

namespace {

/// The processes whose parent is `parent` (from /proc).
std::vector<pid_t> children_of(pid_t parent)
{
  std::vector<pid_t> out;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line) || line.rfind(')') == std::string::npos) continue;
    char state       = 0;
    pid_t ppid       = 0;
    std::string rest = line.substr(line.rfind(')') + 2);
    if (std::sscanf(rest.c_str(), "%c %d", &state, &ppid) == 2 && ppid == parent && state != 'Z')
      out.push_back(std::stoi(name));
  }
  return out;
}

/// True once `pid` has ended (gone, or a zombie not reaped yet); waits up to 10 s.
bool ends(pid_t pid)
{
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return true;
    auto name_end = line.rfind(')');
    if (name_end == std::string::npos || line[name_end + 2] == 'Z' || line[name_end + 2] == 'X') return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

} // namespace

TEST(CampaignRunner, AnInterruptedRunnerLeavesNoWorkerRunning)
{
  register_debug_mappers();
  // Two runs whose mapper sleeps 60 s; the runner is interrupted (Ctrl-C) or killed while both workers run.
  Campaign c = parse_campaign(R"(name: sleepers
mode: analytic
base:
  pipeline: {w: [1, 2], delta: [1, 1, 1]}
  platform: {processors: [{name: A, speed: 1}, {name: B, speed: 2}], bandwidth: 1}
  mapper: debug.sleep
  mapper_options: {time_limit: 60}
seed: {from: 1, count: 2}
)",
                              "sleepers.yaml", ".");
  for (int sig : {SIGINT, SIGKILL}) {
    std::string dir = temp_dir(fmt::format("interrupted-{}", sig));
    pid_t runner    = fork();
    if (runner == 0) {
      RunnerOptions o   = options(dir, 2);
      o.rows_per_worker = 1; // a worker per run: both must end with the runner
      run_campaign(c, o);
      _exit(0);
    }
    std::vector<pid_t> workers;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (workers.size() < 2 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      workers = children_of(runner);
    }
    kill(runner, sig);
    int status = 0;
    waitpid(runner, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
    ASSERT_EQ(workers.size(), 2u) << "signal " << sig;
    for (pid_t w : workers)
      EXPECT_TRUE(ends(w)) << "signal " << sig << ": worker " << w << " still runs";
    EXPECT_TRUE(campaign_json_rows(dir + "/results.jsonl").empty()); // neither run finished
  }
}

TEST(CampaignRunner, OneRunnerPerDirectory)
{
  // A second runner on a directory in use (a requeued SLURM task while its first instance is still dying) is refused
  // before it reads or writes anything; the lock goes with the process that held it.
  Campaign c      = parse_campaign(small_campaign, "c.yaml", ".");
  std::string dir = temp_dir("locked");
  fs::create_directories(dir);
  int ready[2], release[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(release), 0);
  pid_t holder = ::fork();
  ASSERT_GE(holder, 0);
  if (holder == 0) {
    DirectoryLock lock(dir);
    char c0 = 0;
    (void)!::write(ready[1], &c0, 1);
    (void)!::read(release[0], &c0, 1);
    ::_exit(0);
  }
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  try {
    run_campaign(c, options(dir));
    FAIL() << "a directory in use must be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fmt::format("another pipesim campaign (pid {}) is writing there", holder)),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(dir + "/results.jsonl"));
  (void)!::write(release[1], &byte, 1);
  ::waitpid(holder, nullptr, 0);
  EXPECT_EQ(run_campaign(c, options(dir)).executed, 16);
}

// Found by fuzz_campaign: a base whose simulation (or mapper_options) is not a map made the seed sweep index a scalar,
// and yaml-cpp's exception escaped as an internal error; the scenario's parser now says what is wrong, with its line.
TEST(Campaign, SeedSweepOverABaseSectionThatIsNotAMapIsBadInput)
{
  std::string message = message_of(R"(base:
  pipeline: {w: [1], delta: [1, 1]}
  platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
  mapper: br07.one-to-one
  simulation: 7-exp2
seed: {from: 1, count: 2}
)");
  EXPECT_NE(message.find("simulation"), std::string::npos) << message;
  // line 5 of the campaign: the base section's `simulation:` value
  EXPECT_NE(message.find("c.yaml:5: key 'simulation': value '7-exp2': run 0 (seed=1): expected a mapping"),
            std::string::npos)
      << message;
}

TEST(CampaignRunner, ShardSpecIsReadWhole)
{
  EXPECT_EQ(parse_shard_spec("1/2"), std::make_optional(std::pair{0, 2}));
  EXPECT_EQ(parse_shard_spec("10/10"), std::make_optional(std::pair{9, 10}));
  for (const char* bad : {"1/2/3", "1/2x", "1/2.0", "1/2e0", "0/2", "3/2", "1/0", "-1/2", "+1/2", "1/+2", " 1/2", "1/",
                          "/2", "1", "", "merged", "99999999999/99999999999"})
    EXPECT_EQ(parse_shard_spec(bad), std::nullopt) << bad;
}

TEST(CampaignRunner, AnalyticRowsInBatchesAreTheRowsOfAWorkerPerRow)
{
  // 16 analytic runs: one worker per run (the runner before issue 32) and batches of analytic_rows_per_worker give
  // the same rows, in the same sorted files, apart from the timing columns.
  Campaign c          = parse_campaign(small_campaign, "c.yaml", ".");
  c.mode              = CampaignMode::analytic;
  std::string one_dir = temp_dir("one-row-per-worker"), batch_dir = temp_dir("batched-rows");
  RunnerOptions one   = options(one_dir, 2);
  one.rows_per_worker = 1;
  EXPECT_EQ(run_campaign(c, one).executed, 16);
  RunnerSummary batched = run_campaign(c, options(batch_dir, 2));
  EXPECT_EQ(batched.executed, 16);
  EXPECT_EQ(batched.failures, 0);
  auto rows = timeless(batch_dir);
  ASSERT_EQ(rows.size(), 16u);
  EXPECT_EQ(rows, timeless(one_dir));
  EXPECT_TRUE(rows[3].contains("event_graph_period")) << rows[3].dump();
}

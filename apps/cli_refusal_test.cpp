// Issue 31's classes of refusal on the command line, each with exit 2 and a message naming what is wrong: no command
// writes into a directory that holds another campaign or another command's output (each directory compared byte for
// byte before and after), every number, ratio, list and size is read whole or refused, and options without effect
// in the combination given, or lists with an empty item or a repeated value, are refused.
#include "cli_test_util.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

struct RefusalResult {
  int code = -1;
  std::string out; // stdout and stderr together
};

RefusalResult run_refusal(const std::string& args)
{
  auto [code, out] =
      pipesim::test::shell_output(fmt::format("cd {} && {} {} 2>&1", PIPESIM_SOURCE_DIR, PIPESIM_EXECUTABLE, args));
  return {code, out};
}

std::string fresh_dir(const std::string& name)
{
  auto dir = fs::temp_directory_path() / fmt::format("pipesim-refusal-{}-{}", getpid(), name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string write(const std::string& path, const std::string& text)
{
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
  return path;
}

/// Every file and folder under `dir`, by relative path, with its bytes: a directory written to changes it.
std::map<std::string, std::string> snapshot(const std::string& dir)
{
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    std::string key = fs::relative(entry.path(), dir).string();
    if (entry.is_directory()) {
      files[key + "/"] = "";
    } else {
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream bytes;
      bytes << in.rdbuf();
      files[key] = bytes.str();
    }
  }
  return files;
}

/// Runs `args`, expects exit 2 and each fragment in the message, and `dir` unchanged byte for byte.
void expect_refused_untouched(const std::string& args, const std::string& dir, const std::vector<std::string>& said)
{
  auto before     = snapshot(dir);
  RefusalResult r = run_refusal(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
  for (const auto& fragment : said)
    EXPECT_THAT(r.out, HasSubstr(fragment)) << args;
  EXPECT_TRUE(snapshot(dir) == before) << args << ": wrote into " << dir;
}

std::string campaign_text(const std::string& name, int runs)
{
  return fmt::format(R"(name: {}
mode: analytic
base:
  pipeline: {{w: [1, 2], delta: [1, 1, 1]}}
  platform: {{processors: [{{name: A, speed: 1}}, {{name: B, speed: 2}}], bandwidth: 1}}
  mapper: br07.h1a-gr
seed: {{from: 1, count: {}}}
)",
                     name, runs);
}

/// Two campaigns: `a` (4 runs) in shards a1, a2 of 2, `b` (2 runs) whole in b; then the other commands' outputs.
struct Campaigns {
  std::string root = fresh_dir("campaigns");
  std::string a    = write(root + "/a.yaml", campaign_text("a", 4));
  std::string b    = write(root + "/b.yaml", campaign_text("b", 2));
  Campaigns()
  {
    for (const char* shard : {"1", "2"})
      EXPECT_EQ(run_refusal(fmt::format("campaign {} --out {}/a{} --shard {}/2 -q", a, root, shard, shard)).code, 0);
    EXPECT_EQ(run_refusal(fmt::format("campaign {} --out {}/b -q", b, root)).code, 0);
  }
};

} // namespace

TEST(CliRefusal, MergeWritesIntoNoOtherCampaignAndNoInput)
{
  Campaigns c;
  std::string r = c.root;
  expect_refused_untouched(
      fmt::format("merge {0}/a1 {0}/a2 --out {0}/b", r), r + "/b",
      {fmt::format("merge --out {}/b: holds campaign 'b' (file {}, shard 1/1): another campaign", r, c.b)});
  expect_refused_untouched(fmt::format("merge {0}/a1 {0}/a2 --out {0}/a1", r), r + "/a1",
                           {fmt::format("merge --out {}/a1: is also one of the directories it reads", r)});
  expect_refused_untouched(fmt::format("merge {0}/a1 {0}/a2 --out {0}/a2/", r), r + "/a2", {"is also one of"});
  expect_refused_untouched(fmt::format("merge {0}/a1 {0}/a2 --out {0}/a1/merged", r), r + "/a1",
                           {fmt::format("lies inside {}/a1, which holds campaign 'a'", r)});
  ASSERT_EQ(run_refusal(fmt::format("merge {0}/a1 {0}/a2 --out {0}/all", r)).code, 0);
  auto merged = snapshot(r + "/all");
  EXPECT_EQ(run_refusal(fmt::format("merge {0}/a1 {0}/a2 --out {0}/all", r)).code, 0); // the same merge again
  EXPECT_TRUE(snapshot(r + "/all") == merged);
  std::ifstream command(r + "/b/COMMAND");
  std::string first;
  std::getline(command, first);
  std::getline(command, first);
  EXPECT_THAT(first, HasSubstr(c.b)); // b's COMMAND still names b's campaign
}

TEST(CliRefusal, ACampaignRunWritesOnlyIntoItsOwnShardsDirectory)
{
  Campaigns c;
  std::string r = c.root;
  // run 1 belongs to shard 2/2: its row would land in shard 1/2's directory (the later merge then failed)
  expect_refused_untouched(fmt::format("campaign {} --shard 1/2 --only 1 --out {}/a1 --resume", c.a, r), r + "/a1",
                           {"--only 1: run 1 belongs to shard 2/2, not to --shard 1/2"});
  expect_refused_untouched(fmt::format("campaign {} --only 1 --out {}/a1 --resume", c.a, r), r + "/a1",
                           {fmt::format("--out {}/a1: holds campaign 'a' (file {}, shard 1/2): a different part of the "
                                        "campaign than this run (1/1)",
                                        r, c.a)});
  expect_refused_untouched(fmt::format("campaign {} --shard 1/2 --only 0 --out {}/a1 --resume", c.a, r), r + "/a1",
                           {fmt::format("--only 0: {}/a1 already holds the row of run 0", r)});
  expect_refused_untouched(fmt::format("campaign {} --out {}/b --resume", c.a, r), r + "/b",
                           {"holds campaign 'b'", "another campaign"});
  // another campaign whose first run never ended: campaign.json alone, written over before
  fs::remove(r + "/b/results.jsonl");
  fs::remove(r + "/b/results.csv");
  expect_refused_untouched(fmt::format("campaign {} --out {}/b", c.a, r), r + "/b", {"holds campaign 'b'"});
  expect_refused_untouched(fmt::format("campaign {} --out {}/b/inner", c.a, r), r + "/b",
                           {fmt::format("lies inside {}/b, which holds campaign 'b'", r)});
  expect_refused_untouched(fmt::format("campaign {} --out {}/b --slurm --dry-run", c.a, r), r + "/b",
                           {"holds the results of a campaign run without --slurm"});
  // the shard's own directory, resumed with an id of its own: runs
  RefusalResult own = run_refusal(fmt::format("campaign {} --shard 2/2 --out {}/a2 --resume -q", c.a, r));
  EXPECT_EQ(own.code, 0) << own.out;
  EXPECT_THAT(own.out, HasSubstr("2 already done, 0 run now"));
}

TEST(CliRefusal, StudiesReportsAndFilesKeepOutOfOtherOutputs)
{
  Campaigns c;
  std::string r = c.root;
  std::string p = r + "/pareto";
  write(p + "/pareto.json", "{\"bounds\": []}\n");
  expect_refused_untouched(fmt::format("campaign {} --out {}", c.a, p), p,
                           {fmt::format("--out {}: holds the output of `pipesim pareto` (pareto.json)", p)});
  expect_refused_untouched(fmt::format("campaign {} --out {} --slurm --dry-run", c.a, p), p,
                           {"holds the output of `pipesim pareto`", "`pipesim campaign --slurm` would mix"});
  expect_refused_untouched(fmt::format("pareto scenarios/examples/pareto.yaml --bounds 2 --out {}/b", r), r + "/b",
                           {fmt::format("--out {}/b: holds campaign 'b'", r), "`pipesim pareto` would mix"});
  expect_refused_untouched(
      fmt::format("whatif scenarios/examples/whatif.yaml --edits scenarios/examples/edits/whatif.yaml --out {}", p), p,
      {"`pipesim whatif` would mix its files with them"});
  expect_refused_untouched(fmt::format("fit scenarios/examples/sv95-chain.yaml --out {}/b/fitted.yaml", r), r + "/b",
                           {fmt::format("--out {0}/b/fitted.yaml: its directory {0}/b holds campaign 'b'", r)});
  expect_refused_untouched(fmt::format("platform export scenarios/examples/quickstart.yaml -o {}/x.xml", p), p,
                           {"--output", "holds the output of `pipesim pareto`"});
  expect_refused_untouched(fmt::format("report {}", p), p,
                           {fmt::format("report {}: holds the output of `pipesim pareto` (pareto.json); expected the "
                                        "output directory of a campaign",
                                        p)});
  // --series is read before the report writes anything (docs/reports.md)
  expect_refused_untouched(fmt::format("report {0}/b --series {0}/none.json", r), r + "/b",
                           {fmt::format("--series {}/none.json: cannot read the file", r)});
  write(r + "/bad.json", "not json\n");
  expect_refused_untouched(fmt::format("report {0}/b --series {0}/bad.json", r), r + "/b",
                           {fmt::format("--series {}/bad.json: not a JSON document of pipesim simulate", r)});
}

TEST(CliRefusal, NumbersAndRatiosAreReadWholeOrRefused)
{
  // ratio: --shard i/N read as 1/2 from all of these before
  std::string file = write(fresh_dir("shard") + "/c.yaml", campaign_text("c", 4));
  for (const char* shard : {"1/2/3", "1/2x", "1/2.0", "1/2e0", "0/2", "3/2", "1/0", "/2", "1/", "x/2", "1"}) {
    RefusalResult r = run_refusal(fmt::format("campaign {} --out {}.out --shard {} -q", file, file, shard));
    EXPECT_EQ(r.code, 2) << shard << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr(fmt::format("--shard {}: expected i/N, two whole numbers with 1 <= i <= N", shard)));
    EXPECT_FALSE(fs::exists(file + ".out")) << shard;
  }
  // integers: CLI11 alone read "0x10" as 16 and "010" as 8 (octal); ranges checked on the decimal text
  for (auto [args, said] : std::vector<std::pair<std::string, std::string>>{
           {"--datasets 0x10", "--datasets: 0x10 is not an integer (decimal digits, e.g. 12)"},
           {"--datasets 1e2", "--datasets: 1e2 is not an integer"},
           {"--datasets ' 20'", "--datasets:  20 is not an integer"},
           {"--datasets 1", "--datasets: 1 is not an integer in [2, "},
           {"--warmup 5x", "--warmup: 5x is not an integer"}}) {
    RefusalResult r = run_refusal("simulate scenarios/examples/quickstart.yaml " + args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr(said)) << args;
  }
  RefusalResult octal =
      run_refusal("simulate scenarios/examples/quickstart.yaml --datasets 010 --format json 2>/dev/null");
  ASSERT_EQ(octal.code, 0) << octal.out;
  EXPECT_EQ(nlohmann::json::parse(octal.out)["simulated"]["datasets"], 10); // ten, not eight
  RefusalResult only = run_refusal(fmt::format("campaign {} --out {}.out --only 0x1 -q", file, file));
  EXPECT_EQ(only.code, 2) << only.out;
  EXPECT_THAT(only.out, HasSubstr("--only: 0x1 is not an integer (decimal digits, e.g. 12)"));
  // real numbers: a finite decimal number, not strtold's hexadecimal, infinity or nan
  for (const char* bound : {"0x1p1", "inf", "nan", "2x"}) {
    RefusalResult r = run_refusal(fmt::format("pareto scenarios/examples/pareto.yaml --bounds {}", bound));
    EXPECT_EQ(r.code, 2) << bound << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr(fmt::format("--bounds: {} is not a finite decimal number", bound))) << bound;
  }
  // sizes and times: the whole text or nothing
  for (const char* bad : {"--merge-mem 16Gx", "--merge-mem 1.5G", "--time 1:00x"}) {
    RefusalResult r = run_refusal(fmt::format("campaign {} --out {}.slurm --slurm --dry-run {}", file, file, bad));
    EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr(std::string(bad).substr(0, std::string(bad).find(' ')))) << bad;
  }
}

TEST(CliRefusal, OptionsWithoutEffectAreRefused)
{
  const std::string whatif = "whatif scenarios/examples/whatif.yaml --edits scenarios/examples/edits/whatif.yaml";
  for (const char* option : {"--runs 5", "--datasets 10", "--jobs 2"}) {
    RefusalResult r = run_refusal(fmt::format("{} --no-simulate {}", whatif, option));
    EXPECT_EQ(r.code, 2) << option << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr("--no-simulate")) << option;
    EXPECT_THAT(r.out, HasSubstr(std::string(option).substr(0, std::string(option).find(' ')))) << option;
  }
  RefusalResult fit = run_refusal("fit scenarios/examples/sv95-chain.yaml --no-simulate --datasets 10");
  EXPECT_EQ(fit.code, 2) << fit.out;
  EXPECT_THAT(fit.out, HasSubstr("--datasets"));
  RefusalResult jobs = run_refusal("simulate scenarios/examples/quickstart.yaml --jobs 2");
  EXPECT_EQ(jobs.code, 2) << jobs.out;
  EXPECT_THAT(jobs.out, HasSubstr("--jobs 2: scenarios/examples/quickstart.yaml runs no Monte Carlo series"));
  EXPECT_EQ(run_refusal("simulate scenarios/examples/failures.yaml --runs 4 --jobs 2 --datasets 20 -q").code, 0);
  RefusalResult trace = run_refusal("simulate scenarios/examples/quickstart.yaml --trace");
  EXPECT_EQ(trace.code, 2) << trace.out;
  EXPECT_THAT(trace.out, HasSubstr("--trace: the event trace is printed in the JSON output only"));
  std::string dir  = fresh_dir("status");
  std::string file = write(dir + "/c.yaml", campaign_text("c", 2));
  ASSERT_EQ(run_refusal(fmt::format("campaign {} --out {}/run -q", file, dir)).code, 0);
  RefusalResult status = run_refusal(fmt::format("campaign --only 1 --jobs 2 status {}/run", dir));
  EXPECT_EQ(status.code, 2) << status.out;
  EXPECT_THAT(status.out, HasSubstr(fmt::format("campaign status {}/run: --jobs, --only have no effect there", dir)));
  RefusalResult quiet = run_refusal(fmt::format("campaign {} --out {}/s --slurm --dry-run -q", file, dir));
  EXPECT_EQ(quiet.code, 2) << quiet.out;
  EXPECT_THAT(quiet.out, HasSubstr("--quiet"));
  RefusalResult shards = run_refusal(fmt::format("campaign {} --out {}/s --shards 2", file, dir));
  EXPECT_EQ(shards.code, 2) << shards.out;
  EXPECT_THAT(shards.out, HasSubstr("--shards requires --slurm"));
  RefusalResult in = run_refusal("platform info scenarios/examples/quickstart.yaml --in P1");
  EXPECT_EQ(in.code, 2) << in.out;
  EXPECT_THAT(in.out, HasSubstr("--in P1: names P_in or P_out of a SimGrid XML file; the scenario "
                                "scenarios/examples/quickstart.yaml names them itself"));
}

TEST(CliRefusal, ListsWithAnEmptyItemOrARepeatedValueAreRefused)
{
  for (auto [args, said] : std::vector<std::pair<std::string, std::string>>{
           {"pareto scenarios/examples/pareto.yaml --bounds 1,,2", "--bounds 1,,2: an empty item in a list"},
           {"pareto scenarios/examples/pareto.yaml --bounds=2,", "--bounds 2,: an empty item"},
           {"pareto scenarios/examples/pareto.yaml --bounds 2 --mappers bbr10.best,,bbr10.best", "--mappers"},
           {"pareto scenarios/examples/pareto.yaml --bounds 2 --mappers bbr10.best,bbr10.best",
            "--mappers bbr10.best,bbr10.best: 'bbr10.best' is given twice"},
           {"platform info platforms/examples/two_clusters.xml --hosts 'a-*' --hosts 'a-*'",
            "--hosts a-* a-*: 'a-*' is given twice"},
           {"campaign validation/campaigns/hedpm-fig1-small.yaml --out /tmp/never --slurm --dry-run "
            "--sbatch-arg=--qos=x --sbatch-arg=--qos=x",
            "--sbatch-arg --qos=x --qos=x: '--qos=x' is given twice"},
           {"campaign validation/campaigns/hedpm-fig1-small.yaml --out /tmp/never --only 3,", "--only 3,: an empty"}}) {
    RefusalResult r = run_refusal(args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr(said)) << args;
  }
  EXPECT_FALSE(fs::exists("/tmp/never"));
  // a campaign's lists: file, line, key and value
  std::string dir = fresh_dir("yaml");
  auto campaign   = [&](const std::string& name, const std::string& tail) {
    return write(dir + "/" + name + ".yaml", "name: " + name +
                                                   "\nmode: analytic\nbase:\n  pipeline: {w: [1, 2], delta: [1, 1, 1]}\n"
                                                     "  platform: {processors: [{name: A, speed: 1}], bandwidth: 1}\n"
                                                     "  mapper: br07.h1a-gr\n" +
                                                   tail);
  };
  for (auto [name, tail, said] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"mappers", "sweep:\n  mapper: [br07.h1a-gr, br07.h2-gsw, br07.h1a-gr]\n",
            "mappers.yaml:8: key 'sweep.mapper[2]': value 'br07.h1a-gr': 'br07.h1a-gr' is given twice in this list "
            "(item 1 gives it: 'br07.h1a-gr')"},
           {"range", "sweep:\n  simulation.datasets: [10..12, 11]\n",
            "range.yaml:8: key 'sweep.simulation.datasets[1]': value '11': '11' is given twice in this list (item 1 "
            "gives it: '10..12')"},
           {"number", "sweep:\n  simulation.datasets: [10, 1e1]\n", "'1e1' is given twice"},
           {"empty", "sweep:\n  mapper: [br07.h1a-gr, \"\"]\n",
            "empty.yaml:8: key 'sweep.mapper[1]': value '': an empty item"},
           {"ragged", "sweep:\n  simulation.datasets: [10..12x]\n", "expected an integer range such as 1..50"},
           {"zip", "zip:\n  - {simulation.datasets: [10, 20, 10], simulation.warmup: [1, 2, 1]}\n",
            "zip.yaml:8: key 'zip[0]': value '{simulation.datasets: [10, 20, 10], simulation.warmup: [1...': positions "
            "1 and 3 of the zipped lists hold the same values"},
           {"seeds", "seed: [1, 2, 1]\n", "seeds.yaml:7: key 'seed[2]': value '1': '1' is given twice"},
           {"trace", "trace: [0, 0]\nseed: {from: 1, count: 2}\n",
            "trace.yaml:7: key 'trace[1]': value '0': this run id is given twice"}}) {
    std::string file = campaign(name, tail);
    RefusalResult r  = run_refusal(fmt::format("campaign {} --out {}/{}.out -q", file, dir, name));
    EXPECT_EQ(r.code, 2) << name << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr(said)) << name;
    EXPECT_FALSE(fs::exists(fmt::format("{}/{}.out", dir, name)));
  }
  // a zip may repeat one list's value while another varies
  std::string varied = campaign("varied", "zip:\n  - {simulation.datasets: [10, 10], simulation.warmup: [1, 2]}\n");
  EXPECT_EQ(run_refusal(fmt::format("campaign {} --out {}/varied.out -q", varied, dir)).code, 0);
}

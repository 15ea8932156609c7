// Issue 16 items 3 and 5 as a user meets them: the same command twice gives byte-identical outputs once the values
// under "timing" are masked (docs/reports.md, "Determinism"), the timing values are there, and the progress line
// shows on a terminal only (and never with -q).
#include "cli_test_util.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

/// pipesim's stdout and stderr, apart, from the source directory.
struct Outputs {
  int code = -1;
  std::string out, err;
};
Outputs pipesim_determinism(const std::string& args)
{
  auto err_file    = fs::temp_directory_path() / fmt::format("pipesim-det-stderr-{}", getpid());
  auto [code, out] = pipesim::test::shell_output(
      fmt::format("cd {} && {} {} 2>{}", PIPESIM_SOURCE_DIR, PIPESIM_EXECUTABLE, args, err_file.string()));
  std::ifstream in(err_file);
  std::stringstream ss;
  ss << in.rdbuf();
  fs::remove(err_file);
  return {code, out, ss.str()};
}

std::string file_text_determinism(const fs::path& path)
{
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The text with the inside of every "timing" object emptied (the objects of these outputs hold numbers only).
std::string masked_determinism(const std::string& text)
{
  static const std::regex timing(R"re("timing": ?\{[^{}]*\})re");
  return std::regex_replace(text, timing, R"("timing": {})");
}

/// A CSV text without its timing.* columns (no field of these files holds a comma).
std::string without_timing_columns(const std::string& csv)
{
  std::stringstream in(csv);
  std::string line, out;
  std::vector<bool> timing;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');)
      fields.push_back(f);
    if (timing.empty())
      for (const auto& f : fields)
        timing.push_back(f.rfind("timing.", 0) == 0);
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (i >= timing.size() || !timing[i]) out += fields[i] + ",";
    out += "\n";
  }
  return out;
}

/// Runs `args` (with `{out}` standing for an output directory) twice into the same directory, keeping the first
/// one's files in `<dir>.first`: stdout of each run.
std::pair<Outputs, Outputs> twice_determinism(const std::string& args, const fs::path& dir)
{
  fs::remove_all(dir);
  fs::remove_all(dir.string() + ".first");
  Outputs a = pipesim_determinism(fmt::format(fmt::runtime(args), fmt::arg("out", dir.string())));
  if (fs::exists(dir)) fs::rename(dir, dir.string() + ".first");
  Outputs b = pipesim_determinism(fmt::format(fmt::runtime(args), fmt::arg("out", dir.string())));
  return {a, b};
}

void expect_same_files(const fs::path& dir, const std::vector<std::string>& files)
{
  for (const auto& f : files) {
    std::string a = file_text_determinism(dir.string() + ".first/" + f), b = file_text_determinism(dir / f);
    EXPECT_FALSE(a.empty()) << f;
    if (f.ends_with(".csv"))
      EXPECT_EQ(without_timing_columns(a), without_timing_columns(b)) << f;
    else
      EXPECT_EQ(masked_determinism(a), masked_determinism(b)) << f;
  }
}

fs::path temp_determinism(const std::string& name)
{
  return fs::temp_directory_path() / fmt::format("pipesim-det-{}-{}", getpid(), name);
}

} // namespace

TEST(Determinism, SimulateJsonTwiceIsIdenticalApartFromTiming)
{
  // crash runs and a Monte Carlo series in parallel processes (they end in any order)
  const std::string args = "simulate scenarios/examples/failures.yaml --runs 12 --datasets 40 --jobs 2 --format json";
  Outputs a = pipesim_determinism(args), b = pipesim_determinism(args);
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(masked_determinism(a.out), masked_determinism(b.out));
  auto j = nlohmann::json::parse(a.out);
  ASSERT_TRUE(j.contains("timing"));
  EXPECT_GE(j["timing"]["mapper_seconds"].get<double>(), 0);
  EXPECT_FALSE(j["statistics"].contains("seconds")); // moved under timing
  // stderr is not a terminal here: no progress line
  EXPECT_EQ(a.err, "");
}

TEST(Determinism, CampaignTwiceGivesIdenticalFilesApartFromTiming)
{
  auto dir      = temp_determinism("campaign");
  auto campaign = dir.string() + ".yaml";
  std::ofstream(campaign) << R"(name: det
mode: simulate
base:
  pipeline: {generate: {n: 3, w: [1, 20], delta: [1, 100], seed: 1}}
  platform: {generate: {class: fully-heterogeneous, p: 4, speed: [1, 20], bandwidth: [1, 10], seed: 1}}
  mapper: random.interval
  simulation: {datasets: 20}
sweep:
  mapper: [random.interval, br07.h7b-bsc]
seed: {from: 1, count: 3}
)";
  auto [a, b] = twice_determinism(fmt::format("campaign {} --out {{out}} --jobs 2", campaign), dir);
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  // off a terminal a campaign keeps plain progress lines for its log (SLURM's): here only the final one
  EXPECT_NE(a.err.find("det: 6/6 runs in "), std::string::npos) << a.err;
  EXPECT_EQ(a.err.find('\r'), std::string::npos) << a.err;
  expect_same_files(dir, {"results.jsonl", "results.csv", "campaign.json", "COMMAND"});
  std::string csv = file_text_determinism(dir / "results.csv");
  EXPECT_NE(csv.find(",timing.mapper_seconds,timing.wall_seconds"), std::string::npos) << csv;
  std::ifstream rows(dir / "results.jsonl");
  for (std::string line; std::getline(rows, line);) {
    auto row = nlohmann::json::parse(line);
    EXPECT_TRUE(row["timing"].contains("wall_seconds")) << line;
    EXPECT_TRUE(row["timing"].contains("mapper_seconds")) << line;
    EXPECT_FALSE(row.contains("wall_seconds")) << line;
  }
  fs::remove_all(dir);
  fs::remove_all(dir.string() + ".first");
  fs::remove(campaign);
}

TEST(Determinism, WhatIfTwiceIsIdentical)
{
  auto dir   = temp_determinism("whatif");
  auto edits = dir.string() + "-edits.yaml"; // two of scenarios/examples/edits/whatif.yaml's variants
  std::ofstream(edits) << "variants:\n"
                          "  - {name: backbone halved, edits: [{scale_bandwidth: 0.5, links: backbone}]}\n"
                          "  - {name: backbone fails at 1 s, edits: [{fail_link: backbone, at: 1}]}\n";
  auto [a, b] = twice_determinism(fmt::format("whatif scenarios/examples/whatif.yaml --edits {} --datasets 10 --runs 4 "
                                              "--jobs 2 --out {{out}}",
                                              edits),
                                  dir);
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.err.find("variants"), std::string::npos) << a.err; // no progress line off a terminal
  expect_same_files(dir, {"whatif.json", "whatif.csv", "whatif.md", "whatif-period.dat", "whatif-reliability.dat"});
  fs::remove(edits);
  fs::remove_all(dir);
  fs::remove_all(dir.string() + ".first");
}

TEST(Determinism, ParetoTwiceIsIdenticalApartFromTiming)
{
  auto dir = temp_determinism("pareto");
  auto [a, b] =
      twice_determinism("pareto scenarios/examples/pareto.yaml --bounds 1.5,2,3 --out {out} --format json", dir);
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(masked_determinism(a.out), masked_determinism(b.out));
  expect_same_files(dir, {"pareto.json", "pareto.dat", "pareto.gp"});
  auto j = nlohmann::json::parse(a.out);
  for (const auto& m : j["mappers"])
    for (const auto& p : m["points"]) {
      EXPECT_TRUE(p["timing"].contains("mapper_seconds")) << p;
      EXPECT_FALSE(p.contains("seconds")) << p;
    }
  EXPECT_EQ(a.err.find("points"), std::string::npos) << a.err; // no progress line off a terminal
  fs::remove_all(dir);
  fs::remove_all(dir.string() + ".first");
}

TEST(Progress, ShowsOnATerminalAndNotWithQuiet)
{
  // script(1) gives pipesim a pseudo-terminal; stdout goes to a file, so the terminal shows stderr alone
  if (pipesim::test::shell_output("command -v script >/dev/null 2>&1").first != 0)
    GTEST_SKIP() << "script(1) not installed";
  auto out      = temp_determinism("tty.out");
  auto on_a_tty = [&](const std::string& args) {
    std::string inner = fmt::format("cd {} && {} {} > {}", PIPESIM_SOURCE_DIR, PIPESIM_EXECUTABLE, args, out.string());
    return pipesim::test::shell_output(fmt::format("script -qec '{}' /dev/null </dev/null", inner));
  };
  // 12 Monte Carlo runs one after the other, each in its own process: the series takes more than the 0.2 s between
  // two lines (about 1 s at -O2; under the sanitizers, 100 data sets take as long, 1,000 took 130 s)
#ifdef PIPESIM_SANITIZE
  const std::string args = "simulate scenarios/examples/failures.yaml --runs 12 --datasets 100 --jobs 1";
#else
  const std::string args = "simulate scenarios/examples/failures.yaml --runs 12 --datasets 1000 --jobs 1";
#endif
  auto [code, screen] = on_a_tty(args);
  ASSERT_EQ(code, 0) << screen;
  EXPECT_NE(screen.find("Monte Carlo: 12/12 runs in "), std::string::npos) << screen;
  EXPECT_NE(screen.find("\rMonte Carlo: "), std::string::npos) << screen;    // rewritten in place
  EXPECT_NE(file_text_determinism(out).find("survival"), std::string::npos); // the table went to stdout
  auto [quiet_code, quiet_screen] = on_a_tty(args + " -q");
  ASSERT_EQ(quiet_code, 0) << quiet_screen;
  EXPECT_EQ(quiet_screen.find("runs"), std::string::npos) << quiet_screen;
  fs::remove(out);
}

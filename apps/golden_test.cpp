// Golden text: what `pipesim map` and `pipesim simulate` print for shipped examples, compared whole with the expected
// files in apps/golden/ (SimGrid's .tesh idea). A changed digit, column or word fails the test with a diff.
// After an intended change, regenerate the files and review the diff in git:
//   PIPESIM_UPDATE_GOLDEN=1 ./build/apps/apps_tests --gtest_filter='*Golden*'     (or scripts/update-golden.sh)
#include "cli_test_util.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

// Outside the anonymous namespace, as the fixture Golden below: the test classes TEST_P derives from them have
// external linkage.
struct GoldenCase {
  std::string name; // apps/golden/<name>.txt
  std::string args; // pipesim's arguments, run from the source directory
};

std::ostream& operator<<(std::ostream& os, const GoldenCase& c) { return os << c.name; }

namespace {

const std::string golden_dir = std::string(PIPESIM_SOURCE_DIR) + "/apps/golden";

/// pipesim's standard output (its standard error is not part of the golden text) and its exit code.
std::pair<int, std::string> run_pipesim(const std::string& args)
{
  return pipesim::test::shell_output(
      fmt::format("cd {} && {} {} 2>/dev/null", PIPESIM_SOURCE_DIR, PIPESIM_EXECUTABLE, args));
}

/// What may differ between two correct runs is masked in JSON documents: the command line (it holds the path of the
/// executable), the values under "timing" (wall-clock seconds, docs/reports.md "Determinism": their names stay) and
/// the context factory the sanitizer builds add to the SimGrid configuration. Tables hold none of them.
std::string masked(const std::string& out, bool json)
{
  if (!json) return out;
  auto j = nlohmann::json::parse(out);
  if (j.contains("command")) j["command"] = "<command line>";
  if (j.contains("timing"))
    for (auto& [key, value] : j["timing"].items())
      value = "<timing>";
  if (j.contains("simulated")) { // the sanitizer builds run SimGrid on thread contexts: a property of the build
    auto& config = j["simulated"]["simgrid_config"];
    config.erase(std::remove(config.begin(), config.end(), "--cfg=contexts/factory:thread"), config.end());
  }
  return j.dump(2) + "\n";
}

std::string read_file(const std::string& path)
{
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// `diff -u expected actual` (the actual text in a temporary file), for the failure message.
std::string unified_diff(const std::string& expected_file, const std::string& actual)
{
  auto path = std::filesystem::temp_directory_path() / fmt::format("pipesim-golden-{}.txt", getpid());
  std::ofstream(path) << actual;
  std::string diff =
      pipesim::test::shell_output(fmt::format("diff -u {} {} 2>&1", expected_file, path.string())).second;
  std::filesystem::remove(path);
  return diff;
}

} // namespace

class Golden : public testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, OutputMatchesTheExpectedFile)
{
  const GoldenCase& c    = GetParam();
  const std::string file = fmt::format("{}/{}.txt", golden_dir, c.name);
  auto [code, out]       = run_pipesim(c.args);
  ASSERT_EQ(code, 0) << "pipesim " << c.args << "\n" << out;
  const std::string actual = masked(out, c.args.find("--format json") != std::string::npos);
  if (const char* update = std::getenv("PIPESIM_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    std::ofstream(file) << actual;
    GTEST_SKIP() << "wrote " << file;
  }
  ASSERT_TRUE(std::filesystem::exists(file)) << file << " is missing: run with PIPESIM_UPDATE_GOLDEN=1 to write it";
  const std::string expected = read_file(file);
  EXPECT_TRUE(actual == expected) << "`pipesim " << c.args << "` no longer prints " << file << ":\n"
                                  << unified_diff(file, actual)
                                  << "If the change is intended, regenerate the file with PIPESIM_UPDATE_GOLDEN=1 "
                                     "./build/apps/apps_tests --gtest_filter='*Golden*' (scripts/update-golden.sh) "
                                     "and commit it with the change.";
}

INSTANTIATE_TEST_SUITE_P(
    ShippedExamples, Golden,
    testing::Values(GoldenCase{"quickstart.map", "map scenarios/examples/quickstart.yaml"},
                    GoldenCase{"quickstart.simulate", "simulate scenarios/examples/quickstart.yaml"},
                    GoldenCase{"eq6_general.map", "map scenarios/examples/eq6_general.yaml"},
                    GoldenCase{"eq6_general.simulate", "simulate scenarios/examples/eq6_general.yaml"},
                    GoldenCase{"eq6_general.simulate.json",
                               "simulate scenarios/examples/eq6_general.yaml --format json"},
                    GoldenCase{"multiport.map", "map scenarios/examples/multiport.yaml"},
                    GoldenCase{"multiport.simulate", "simulate scenarios/examples/multiport.yaml"},
                    GoldenCase{"replicated.map", "map scenarios/examples/replicated.yaml"},
                    GoldenCase{"replicated.simulate", "simulate scenarios/examples/replicated.yaml"},
                    GoldenCase{"deal.simulate", "simulate scenarios/examples/deal.yaml"},
                    GoldenCase{"star_xml.simulate", "simulate scenarios/examples/star_xml.yaml"},
                    GoldenCase{"dynamic.simulate", "simulate scenarios/examples/dynamic.yaml"},
                    GoldenCase{"dynamic_xml.simulate", "simulate scenarios/examples/dynamic_xml.yaml"},
                    GoldenCase{"sv95_chain.map", "map scenarios/examples/sv95-chain.yaml"},
                    GoldenCase{"sv95_chain.simulate", "simulate scenarios/examples/sv95-chain.yaml"},
                    GoldenCase{"sv95_program.simulate", "simulate scenarios/examples/sv95-program.yaml"}),
    [](const testing::TestParamInfo<GoldenCase>& param) {
      std::string name = param.param.name;
      for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

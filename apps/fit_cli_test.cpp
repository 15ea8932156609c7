// `pipesim fit` as a user runs it: the fitted scenario it writes maps and simulates, its refusals exit 2 before any
// work, and the shipped FFT-Hist fits are what it writes.
#include "cli_test_util.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

namespace {

std::pair<int, std::string> pipesim_run(const std::string& args)
{
  return pipesim::test::shell_output(fmt::format("cd {} && {} {} 2>&1", PIPESIM_SOURCE_DIR, PIPESIM_EXECUTABLE, args));
}

std::string read_file(const std::filesystem::path& path)
{
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(FitCli, WritesTheShippedFittedScenarioAndItSimulates)
{
  auto out    = std::filesystem::temp_directory_path() / fmt::format("pipesim-fit-{}", getpid());
  auto fitted = out / "fft-hist.fitted.yaml";
  std::filesystem::create_directories(out);
  auto [code, text] =
      pipesim_run(fmt::format("fit scenarios/examples/fft-hist.yaml -q --no-simulate --out {}", fitted.string()));
  ASSERT_EQ(code, 0) << text;
  EXPECT_NE(text.find("f_exec(colffts)            [0.0025, 0.131072, 0.0001]"), std::string::npos) << text;
  // the shipped file's task chain is this command's output (the header names the output, and the platform file is
  // absolute here: another folder)
  std::string mine    = read_file(fitted),
              shipped = read_file(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/fft-hist.fitted.yaml");
  auto tasks          = [](const std::string& yaml) {
    return yaml.substr(yaml.find("task_chain:"), yaml.find("platform:") - yaml.find("task_chain:"));
  };
  EXPECT_EQ(tasks(mine), tasks(shipped));
  auto [sim_code, sim] = pipesim_run(fmt::format("simulate {} -q --format json", fitted.string()));
  ASSERT_EQ(sim_code, 0) << sim;
  auto j = nlohmann::json::parse(sim.substr(sim.find('{')));
  EXPECT_NEAR(j["analytic"]["period"].get<double>(), 0.006452966834, 1e-11);
  EXPECT_NEAR(j["simulated"]["period"].get<double>(), 0.0063574666667, 1e-11);
  std::filesystem::remove_all(out);
}

TEST(FitCli, BadInputExitsTwoBeforeAnyWork)
{
  auto [code, text] = pipesim_run("fit scenarios/examples/fft-hist.yaml --out /nonexistent-dir/x.yaml");
  EXPECT_EQ(code, 2);
  EXPECT_NE(text.find("--out /nonexistent-dir/x.yaml: cannot write the fitted scenario there (/nonexistent-dir is not "
                      "a writable folder)"),
            std::string::npos)
      << text;
  std::tie(code, text) = pipesim_run("fit scenarios/examples/quickstart.yaml");
  EXPECT_EQ(code, 2);
  EXPECT_NE(text.find("pipesim fit needs a task_chain"), std::string::npos) << text;
  std::tie(code, text) = pipesim_run("fit scenarios/examples/fft-hist.yaml --samples 4");
  EXPECT_EQ(code, 2);
  EXPECT_NE(text.find("--samples: 4 is not an integer in [5, 64]"), std::string::npos) << text;
  std::tie(code, text) = pipesim_run("map scenarios/examples/fft-hist.yaml");
  EXPECT_EQ(code, 2);
  EXPECT_NE(text.find("missing key 'icom': the mappers need the time towards rowffts"), std::string::npos) << text;
}

} // namespace

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

std::string read_fit_file(const std::filesystem::path& path)
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
  std::string mine    = read_fit_file(fitted),
              shipped = read_fit_file(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/fft-hist.fitted.yaml");
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

TEST(FitCli, TheFittedScenarioLoadsFromAnyWorkingDirectory)
{
  // The fitted scenario's relative platform file names the platform from where the fitted file is, whatever the
  // working directory of the fit and of the load: absolute when the fitted file is in another folder than the
  // scenario, as given when it is in the same one (docs/sv95.md, "Fitting").
  namespace fs       = std::filesystem;
  const fs::path tmp = fs::temp_directory_path() / fmt::format("pipesim-fit-where-{}", getpid());
  fs::remove_all(tmp);
  fs::create_directories(tmp / "elsewhere");
  fs::create_directories(tmp / "cwd");
  fs::create_directories(tmp / "a");
  auto map_from = [&](const fs::path& cwd, const fs::path& scenario) {
    return pipesim::test::shell_output(
        fmt::format("cd {} && {} map {} 2>&1", cwd.string(), PIPESIM_EXECUTABLE, scenario.string()));
  };
  // from the source tree, into another folder: the platform's absolute path
  const fs::path other = tmp / "elsewhere" / "F.yaml";
  auto [code, text]    = pipesim_run(
         fmt::format("fit scenarios/examples/fft-hist.fitted.yaml --samples 5 -q --no-simulate --out {}", other.string()));
  ASSERT_EQ(code, 0) << text;
  const std::string platform = (fs::path(PIPESIM_SOURCE_DIR) / "platforms/examples/fft_hist_64.xml").string();
  EXPECT_NE(read_fit_file(other).find("  file: " + platform + "\n"), std::string::npos) << read_fit_file(other);
  std::tie(code, text) = map_from(tmp / "cwd", other);
  EXPECT_EQ(code, 0) << text;
  EXPECT_NE(text.find("sv95.exact"), std::string::npos) << text;
  // a scenario next to its platform, fitted into its own folder from its parent: the file as given
  std::string yaml = read_fit_file(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/fft-hist.fitted.yaml");
  yaml.replace(yaml.find("../../platforms/examples/fft_hist_64.xml"), 40, "p.xml");
  std::ofstream(tmp / "a" / "s.yaml") << yaml;
  fs::copy_file(platform, tmp / "a" / "p.xml");
  std::tie(code, text) = pipesim::test::shell_output(fmt::format(
      "cd {} && {} fit a/s.yaml --samples 5 -q --no-simulate --out a/F.yaml 2>&1", tmp.string(), PIPESIM_EXECUTABLE));
  ASSERT_EQ(code, 0) << text;
  EXPECT_NE(read_fit_file(tmp / "a" / "F.yaml").find("  file: p.xml\n"), std::string::npos)
      << read_fit_file(tmp / "a" / "F.yaml");
  std::tie(code, text) = map_from(tmp / "cwd", tmp / "a" / "F.yaml");
  EXPECT_EQ(code, 0) << text;
  // ... and from its parent into another folder: absolute again
  std::tie(code, text) = pipesim::test::shell_output(
      fmt::format("cd {} && {} fit a/s.yaml --samples 5 -q --no-simulate --out elsewhere/G.yaml 2>&1", tmp.string(),
                  PIPESIM_EXECUTABLE));
  ASSERT_EQ(code, 0) << text;
  EXPECT_NE(read_fit_file(tmp / "elsewhere" / "G.yaml").find("  file: " + (tmp / "a" / "p.xml").string() + "\n"),
            std::string::npos)
      << read_fit_file(tmp / "elsewhere" / "G.yaml");
  std::tie(code, text) = map_from(tmp / "cwd", tmp / "elsewhere" / "G.yaml");
  EXPECT_EQ(code, 0) << text;
  fs::remove_all(tmp);
}

TEST(FitCli, TheSmallestSamplesCountFitsTheShippedFftHist)
{
  // --samples 5, the smallest accepted: fft-hist's programs measured 5 times per function (f_ecom's five
  // coefficients from the cross of the 3 x 3 grid), then mapped on the fit
  auto [code, text] = pipesim_run("fit scenarios/examples/fft-hist.yaml --samples 5 -q --no-simulate");
  ASSERT_EQ(code, 0) << text;
  EXPECT_NE(text.find("samples    5 per function, from the programs (SimGrid runs)"), std::string::npos) << text;
  EXPECT_NE(text.find("f_exec(colffts)            [0.0025, 0.131072, 0.0001]"), std::string::npos) << text;
}

} // namespace

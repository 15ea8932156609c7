// `pipesim map` and `simulate` with random operation times (DESIGN.md §3.10): the `stochastic` object, the simulated
// period's interval with a precision, and the refusals of bad precisions (exit 2).
#include "cli_test_util.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace {

/// quickstart's instance and mapping (3 stages one-to-one, exact network) with exponential work, written to a
/// temporary file with `simulation` as its simulation section.
std::string random_times_scenario(const std::string& simulation)
{
  auto dir = std::filesystem::temp_directory_path() / fmt::format("pipesim-random-times-{}", getpid());
  std::filesystem::create_directories(dir);
  auto path = dir / "exponential.yaml";
  std::ofstream(path) << R"(name: exponential-line
pipeline:
  w: [1, 1]
  delta: [0, 0, 0]
  variability: {work: exponential, seed: 3}
platform:
  processors:
    - {name: P1, speed: 1}
    - {name: P2, speed: 1}
  bandwidth: 1
mapping: [{stages: [1, 1], replicas: [[P1]]}, {stages: [2, 2], replicas: [[P2]]}]
simulation:
)" + simulation;
  return path.string();
}

std::pair<int, std::string> random_times_pipesim(const std::string& args)
{
  return pipesim::test::shell_output(fmt::format("{} {} 2>&1", PIPESIM_EXECUTABLE, args));
}

} // namespace

TEST(RandomTimesCli, SimulateWithAPrecisionGivesTheIntervalAndTheStochasticFigures)
{
  // The two-stage blocking line with exponential work of mean 1: its period is 3/2 (the closed form
  // mu1 mu2 (mu1 + mu2) / (mu1^2 + mu1 mu2 + mu2^2) = 2/3 at mu = 1 is its throughput).
  auto [code, out] = random_times_pipesim("simulate --format json " + random_times_scenario("  datasets: 2000\n") +
                                          " --precision 0.03");
  ASSERT_EQ(code, 0) << out;
  auto j                     = nlohmann::json::parse(out);
  const nlohmann::json& sim  = j.at("simulated");
  const nlohmann::json& stoc = j.at("stochastic");
  const double period        = sim.at("period").get<double>();
  const double lo = sim.at("period_ci").at(0).get<double>(), hi = sim.at("period_ci").at(1).get<double>();
  EXPECT_LE(lo, period);
  EXPECT_LE(period, hi);
  EXPECT_LE((hi - lo) / 2, 0.03 * period);
  EXPECT_EQ(sim.at("confidence").get<double>(), 0.95);
  EXPECT_GE(sim.at("datasets_used").get<int>(), 2000);
  EXPECT_EQ(sim.at("precision").get<double>(), 0.03);
  EXPECT_GE(sim.at("warmup_detected").get<int>(), 0);
  EXPECT_EQ(stoc.at("deterministic_period").get<double>(), 1.0); // the means: every stage takes 1
  EXPECT_NEAR(stoc.at("exponential_period").get<double>(), 1.5, 1e-9);
  EXPECT_TRUE(stoc.at("exponential_exact").get<bool>()) << stoc.dump();
  EXPECT_EQ(stoc.at("exponential_states").get<int>(), 3);
  // the max-plus run has the simulation's draws, N and precision: the same output times, so the same estimate
  EXPECT_NEAR(stoc.at("maxplus_period").get<double>(), period, 1e-9 * period);
  EXPECT_EQ(stoc.at("maxplus_datasets").get<int>(), sim.at("datasets_used").get<int>());
  EXPECT_TRUE(stoc.at("nbue").at("applies").get<bool>());
  EXPECT_TRUE(lo <= 1.5 && 1.5 <= hi) << sim.dump(); // seed 3's interval covers the exact period
}

TEST(RandomTimesCli, MapAndSimulateTablesShowTheStochasticRows)
{
  const std::string file = random_times_scenario("  datasets: 4000\n");
  auto [code, out]       = random_times_pipesim("map " + file);
  ASSERT_EQ(code, 0) << out;
  for (const char* row :
       {"period (means)", "period (max-plus)", "period (exponential)", "CTMC, 3 states", "N.B.U.E. bracket"})
    EXPECT_NE(out.find(row), std::string::npos) << row << " missing in:\n" << out;
  auto [sim_code, sim_out] = random_times_pipesim("simulate " + file);
  ASSERT_EQ(sim_code, 0) << sim_out;
  EXPECT_NE(sim_out.find("simulated period  "), std::string::npos) << sim_out;
  EXPECT_NE(sim_out.find("(95 %, 20 batches"), std::string::npos) << sim_out;
}

TEST(RandomTimesCli, BadPrecisionsExitTwo)
{
  const std::string file = random_times_scenario("  datasets: 100\n");
  for (const char* bad : {"0", "1.5", "x"}) {
    auto [code, out] = random_times_pipesim(fmt::format("simulate {} --precision {}", file, bad));
    EXPECT_EQ(code, 2) << out;
    EXPECT_NE(out.find("--precision"), std::string::npos) << out;
  }
  auto [code, out] = random_times_pipesim(fmt::format("simulate {} --precision 0.01 --warmup 10", file));
  EXPECT_EQ(code, 2) << out;
  EXPECT_NE(out.find("detected"), std::string::npos) << out;
  const std::string bad_yaml = random_times_scenario("  precision: 2\n");
  auto [yaml_code, yaml_out] = random_times_pipesim("simulate " + bad_yaml);
  EXPECT_EQ(yaml_code, 2) << yaml_out;
  for (const char* part : {"exponential.yaml:13:", "simulation.precision", "value '2'"})
    EXPECT_NE(yaml_out.find(part), std::string::npos) << part << " missing in: " << yaml_out;
}

TEST(RandomTimesCli, MaxStatesBoundsTheChainOfMarkings)
{
  // The two-stage line's chain has 3 states (above): a limit of 2 stops it, a limit of 3 does not.
  const std::string two = random_times_scenario("  datasets: 100\nanalytic: {max_states: 2}\n");
  auto [code, out]      = random_times_pipesim("map --format json " + two);
  ASSERT_EQ(code, 0) << out;
  const nlohmann::json stoc = nlohmann::json::parse(out).at("stochastic");
  EXPECT_TRUE(stoc.at("exponential_period").is_null()) << stoc.dump();
  EXPECT_NE(stoc.at("exponential_reason").get<std::string>().find("more than 2"), std::string::npos) << stoc.dump();
  const std::string three      = random_times_scenario("  datasets: 100\nanalytic: {max_states: 3}\n");
  auto [three_code, three_out] = random_times_pipesim("map --format json " + three);
  ASSERT_EQ(three_code, 0) << three_out;
  EXPECT_NEAR(nlohmann::json::parse(three_out).at("stochastic").at("exponential_period").get<double>(), 1.5, 1e-9);
  for (const char* bad : {"0", "2000001", "x"}) {
    const std::string file = random_times_scenario(fmt::format("  datasets: 100\nanalytic: {{max_states: {}}}\n", bad));
    auto [bad_code, bad_out] = random_times_pipesim("map " + file);
    EXPECT_EQ(bad_code, 2) << bad_out;
    for (const std::string& part :
         {std::string("exponential.yaml:14:"), std::string("analytic.max_states"), fmt::format("value '{}'", bad)})
      EXPECT_NE(bad_out.find(part), std::string::npos) << part << " missing in: " << bad_out;
  }
}

TEST(RandomTimesCli, MultiPortMaxPlusPeriodIsTheSimulatedOneOnTheSameWindow)
{
  // The fidelity atlas's run 128 (a random interval mapping of a br07 instance, multi-port allotted, exponential
  // work and sizes, 100 data sets): the max-plus output times are the simulated ones (exact network), and the two
  // estimates must agree as well. A multi-port run drains once P_in has fed its last data set, so the simulation leaves
  // its last N/4 outputs out of the estimate (or simulation.cooldown; none when a precision stops it early); the
  // oracle leaves out the same ones. Before that, the two differed by -18 % to +14 % on every multi-port atlas row.
  auto dir = std::filesystem::temp_directory_path() / fmt::format("pipesim-random-times-mp-{}", getpid());
  std::filesystem::create_directories(dir);
  int compared = 0;
  for (const std::string buffer : {"1", "2", "4"})
    for (const std::string extra : {"", ", cooldown: 10", ", precision: 0.2, max_datasets: 400"}) {
      auto path = dir / "multiport.yaml";
      std::ofstream(path) << R"(name: atlas-run-128
pipeline:
  generate: {preset: br07-exp2, n: 8, seed: 1}
  variability: {work: exponential, size: exponential}
platform: {generate: {preset: br07, p: 10, latency: [0, 0.1], seed: 1}}
mapper: random.interval
mapper_options: {seed: 1}
analytic: {max_states: 1000}
simulation: {model: multi-port, allocation: allotted, buffer: )"
                          << buffer << ", network: exact, datasets: 100, seed: 1" << extra << "}\n";
      auto [code, out] = random_times_pipesim("simulate --format json " + path.string());
      ASSERT_EQ(code, 0) << out;
      const nlohmann::json j    = nlohmann::json::parse(out);
      const nlohmann::json sim  = j.at("simulated");
      const nlohmann::json stoc = j.at("stochastic");
      const std::string where   = "buffer " + buffer + extra + ": " + j.dump();
      EXPECT_EQ(stoc.at("maxplus_datasets").get<int>(), sim.at("datasets_used").get<int>()) << where;
      EXPECT_EQ(stoc.at("maxplus_warmup").get<int>(), sim.at("warmup_detected").get<int>()) << where;
      EXPECT_EQ(stoc.at("maxplus_estimate").get<std::string>(), sim.at("estimate").get<std::string>()) << where;
      if (stoc.at("maxplus_period").is_null()) continue; // not estimable (MSER-5 at its cap): neither says a period
      const double simulated = sim.at("period").get<double>();
      EXPECT_NEAR(stoc.at("maxplus_period").get<double>(), simulated, 1e-9 * simulated) << where;
      EXPECT_NEAR(stoc.at("maxplus_ci").at(0).get<double>(), sim.at("period_ci").at(0).get<double>(), 1e-9 * simulated)
          << where;
      ++compared;
    }
  EXPECT_GE(compared, 7); // buffer 4 with 100 data sets is the one not estimable
}

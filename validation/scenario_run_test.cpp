// The outputs of `pipesim simulate` echo the failure settings of the scenario (no SimGrid: a made-up result).
#include "validation/scenario_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace pipesim;

namespace {

ScenarioRun simulated_run(const Scenario& scenario)
{
  ScenarioRun run = map_scenario(scenario);
  SimulationResult sim;
  sim.period    = 8.0 / 3;
  sim.makespan  = 600;
  sim.network   = "exact";
  run.simulated = sim;
  return run;
}

} // namespace

TEST(SimulateOutputs, EchoTheFailureSettings)
{
  ScenarioRun run = simulated_run(load_scenario(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/failures.yaml"));
  nlohmann::json j = simulate_json(run)["simulated"];
  EXPECT_EQ(j["runs"], 200);
  EXPECT_EQ(j["failures"]["model"], "probability");
  EXPECT_EQ(j["failures"]["election"], "first");
  EXPECT_EQ(j["failures"]["window"], nlohmann::json::array({0.0, 0.5}));
  EXPECT_FALSE(j["failures"].contains("crashes"));
  std::string table = simulate_table(run);
  EXPECT_NE(table.find("failures   probability, window [0, 0.5], R = 200 runs"), std::string::npos) << table;
}

TEST(SimulateOutputs, EchoATrace)
{
  Scenario s       = parse_scenario(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}, {name: P2, speed: 1}], bandwidth: 1}
mapping: [{stages: [1], replicas: [P1, P2]}]
simulation: {failures: {model: trace, crashes: [{host: P2, time: 1.5}]}}
)",
                                    "test.yaml");
  ScenarioRun run  = simulated_run(s);
  nlohmann::json j = simulate_json(run)["simulated"];
  EXPECT_EQ(j["runs"], 1);
  EXPECT_EQ(j["failures"]["model"], "trace");
  EXPECT_EQ(j["failures"]["crashes"], nlohmann::json::parse(R"([{"host": "P2", "time": 1.5}])"));
  EXPECT_FALSE(j["failures"].contains("window"));
  EXPECT_NE(simulate_table(run).find("failures   trace, 1 crash, R = 1 runs"), std::string::npos);
}

TEST(SimulateOutputs, NoFailureLineWithoutFailures)
{
  ScenarioRun run =
      simulated_run(load_scenario(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/multiport.yaml"));
  EXPECT_EQ(simulate_json(run)["simulated"]["failures"]["model"], "none");
  EXPECT_EQ(simulate_table(run).find("failures   "), std::string::npos);
}

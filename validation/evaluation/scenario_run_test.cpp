// The outputs of `pipesim simulate` echo the failure settings of the scenario (no SimGrid: a made-up result).
#include "validation/evaluation/scenario_run.hpp"

#include <fmt/format.h>
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
  sim.network   = NetworkMode::exact;
  run.simulated = sim;
  return run;
}

} // namespace

TEST(SimulateOutputs, EchoTheFailureSettings)
{
  ScenarioRun run = simulated_run(load_scenario(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/failures.yaml"));
  nlohmann::json j = nlohmann::json(run)["simulated"];
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
  nlohmann::json j = nlohmann::json(run)["simulated"];
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
  EXPECT_EQ(nlohmann::json(run)["simulated"]["failures"]["model"], "none");
  EXPECT_EQ(simulate_table(run).find("failures   "), std::string::npos);
}

TEST(SimulateOutputs, TheElectionPolicyElectsTheFormulasSendersAndIsReported)
{
  // fixtures::ElectionExample as a scenario: first-alive elects (P1, P3, P1), Algorithm 1 gives 1 (P1's card
  // 20/20); MinComm elects (P1, P3, P2), 2/3 (P2's card 10/15). The fault-free runs of `pipesim simulate` elect by
  // the policy, so the formula they are compared with does too.
  auto scenario = [](const std::string& election) {
    return parse_scenario(R"(pipeline: {w: [1, 1, 1], delta: [1, 10, 1, 10]}
platform:
  processors: [{name: P1, speed: 100, nic_out: 20}, {name: P2, speed: 100, nic_out: 15}, {name: P3, speed: 100}]
  bandwidth: 100
mapping: [{stages: [1], replicas: [P1, P2]}, {stages: [2], replicas: [P3]}, {stages: [3], replicas: [P1, P2]}]
simulation: {model: multi-port, allocation: allotted, failures: {model: trace, crashes: [{host: P1, time: 5}], )" +
                              election + "}}\n",
                          "test.yaml");
  };
  EXPECT_DOUBLE_EQ(map_scenario(scenario("election: first")).analytic.period, 1.0);
  EXPECT_DOUBLE_EQ(map_scenario(scenario("election: first-alive")).analytic.period, 1.0);
  ScenarioRun run = simulated_run(scenario("election: min-comm"));
  EXPECT_DOUBLE_EQ(run.analytic.period, 2.0 / 3);
  SimulationResult crash;
  crash.failures.verdict   = Verdict::survived;
  crash.failures.election  = ElectionPolicy::min_comm;
  crash.failures.elections = 2;
  crash.failures.crashes   = {Crash{"P1", 5}};
  run.crash_run            = crash;
  nlohmann::json j         = nlohmann::json(run)["simulated"];
  EXPECT_EQ(j["failures"]["election"], "min-comm");
  EXPECT_EQ(j["crash_run"]["election"], "min-comm");
  std::string table = simulate_table(run);
  EXPECT_NE(table.find("  election    min-comm: 2 re-elections, duplicates dropped 0"), std::string::npos) << table;
}

TEST(MapOutputs, ShowHedpmsPredictionNextToTheExactPeriod)
{
  // scenarios/examples/hedpm-case-study.yaml: HeDPM's mapping (docs/hedpm.md, Table 2) predicts 3.5826 by hedpm
  // eqs. (1)-(2) (S5 on P3 receives from P1's dealt replica at 2.2 one data set in three); its exact one-port period
  // (event graph, deal over P1, P5, P2) is 3.709667: the model is optimistic there.
  ScenarioRun run =
      map_scenario(load_scenario(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/hedpm-case-study.yaml"));
  ASSERT_TRUE(run.hedpm_period);
  EXPECT_NEAR(*run.hedpm_period, 3.5826, 1e-4);
  EXPECT_NEAR(run.event_graph_period, 3.709667, 1e-6);
  nlohmann::json j = nlohmann::json(run);
  EXPECT_EQ(j["hedpm"]["formula"], "seed002-eq1-2");
  EXPECT_DOUBLE_EQ(j["hedpm"]["production_time"].get<double>(), *run.hedpm_period);
  std::string table = map_table(run);
  EXPECT_NE(table.find("  HeDPM production time       3.58"), std::string::npos) << table;
  EXPECT_NE(table.find("seed002-eq1-2"), std::string::npos) << table;

  // Without replication the prediction is br07 eq. (2); with active replication the model does not apply.
  Scenario s = load_scenario(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/hedpm-case-study.yaml");
  s.mapper   = "hedpm.exact";
  run        = map_scenario(s);
  ASSERT_TRUE(run.hedpm_period);
  EXPECT_DOUBLE_EQ(*run.hedpm_period, run.analytic.period);
  EXPECT_EQ(run.analytic.formula, "seed000-eq2");
  run = map_scenario(parse_scenario(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}, {name: P2, speed: 1}], bandwidth: 1}
mapping: [{stages: [1], replicas: [P1, P2]}]
)",
                                    "active.yaml"));
  EXPECT_FALSE(run.hedpm_period);
  EXPECT_FALSE(nlohmann::json(run).contains("hedpm"));
}

TEST(SimulateOutputs, ACrashOfADealtReplicaIsNamed)
{
  // A dealt interval has no redundancy: the table says a replica crashed, not that the interval lost its last one.
  ScenarioRun run = simulated_run(load_scenario(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/deal.yaml"));
  SimulationResult crash;
  crash.failures.verdict         = Verdict::failed;
  crash.failures.failure_time    = 12.5;
  crash.failures.failed_interval = 1;
  crash.failures.delivered       = 3;
  crash.failures.crashes         = {{"P3", 12.5}};
  crash.makespan                 = 12.5;
  run.crash_run                  = crash;
  std::string table              = simulate_table(run);
  EXPECT_NE(table.find("failed at t = 12.5: a replica of interval 2 crashed with data sets left (dealt: no "
                       "redundancy), 3 of 300 data sets delivered"),
            std::string::npos)
      << table;
}

TEST(MapOutputs, AProvedLowerBoundAndTheGapAreShownWhenALimitStoppedTheMapper)
{
  // Two stages on two processors of speed 1 and 2, b = 1: exact.interval proves its optimum (lower bound = the
  // objective, gap 0, no bound line); the same result marked as stopped by a limit with a bound of 3/4 of the
  // objective has the gap (1 - 3/4) = 25 % in the JSON and in the table.
  Scenario s      = parse_scenario(R"(pipeline: {w: [1, 2], delta: [1, 1, 1]}
platform: {processors: [{name: P1, speed: 1}, {name: P2, speed: 2}], bandwidth: 1}
mapper: exact.interval
)",
                                   "test.yaml");
  ScenarioRun run = map_scenario(s);
  ASSERT_EQ(run.mapper.status, SolveStatus::optimal);
  nlohmann::json j = nlohmann::json(run);
  EXPECT_EQ(j["lower_bound"], run.mapper.objective);
  EXPECT_EQ(j["gap"], 0.0);
  EXPECT_EQ(map_table(run).find("bound      "), std::string::npos);

  run.mapper.status      = SolveStatus::time_limit;
  run.mapper.lower_bound = 0.75 * run.mapper.objective;
  j                      = nlohmann::json(run);
  EXPECT_EQ(j["lower_bound"], 0.75 * run.mapper.objective);
  EXPECT_DOUBLE_EQ(j["gap"].get<double>(), 0.25);
  std::string table = map_table(run);
  EXPECT_NE(table.find(fmt::format("bound      {:.10g} proved <= the optimum <= {:.10g}, gap 25 %",
                                   0.75 * run.mapper.objective, run.mapper.objective)),
            std::string::npos)
      << table;

  run.mapper.lower_bound.reset(); // heuristics prove nothing: no keys
  EXPECT_FALSE(nlohmann::json(run).contains("gap"));
}

TEST(SimulateOutputs, APeriodOverLessThanTwoDealRoundsIsFlagged)
{
  // deal.yaml deals S_2 over 3 replicas: L = 3. N = 5 holds fewer than two rounds (measured_period falls back to the
  // plain formula over part of a round); N = 6 holds two, and the note goes.
  Scenario s            = load_scenario(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/deal.yaml");
  s.simulation.datasets = 5;
  ScenarioRun run       = simulated_run(s);
  run.simulated->output_times.assign(5, 1.0);
  EXPECT_NE(simulate_table(run).find("note: the dealt mapping repeats every L = 3 data sets and N = 5 holds fewer "
                                     "than two rounds"),
            std::string::npos)
      << simulate_table(run);
  nlohmann::json j = run;
  EXPECT_EQ(j["simulated"]["deal_round"], 3);
  EXPECT_EQ(j["simulated"]["whole_rounds"], false);
  s.simulation.datasets = 6;
  run                   = simulated_run(s);
  run.simulated->output_times.assign(6, 1.0);
  EXPECT_EQ(simulate_table(run).find("note:"), std::string::npos);
  j = run;
  EXPECT_EQ(j["simulated"]["whole_rounds"], true);
}

// What refuses a scenario before anything runs (issue 31): a mapper that cannot handle the problem (also a pipeline
// mapper on a task chain), what the evaluators cannot handle, and a campaign with one such run, refused before any
// worker starts with the run's parameters.
#include "validation/evaluation/run_checks.hpp"

#include "base/input_error.hpp"
#include "scenarios/campaign.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace pipesim;
using ::testing::HasSubstr;

namespace {

const char* chain_tasks = R"(task_chain:
  tasks:
    - {name: a, exec: [0, 2, 0], replicable: true, icom: 0, ecom: 0.1}
    - {name: b, exec: [0, 2, 0], replicable: true}
platform:
  generate: {class: fully-homogeneous, p: 4, speed: 1, bandwidth: 1, seed: 1}
)";

/// The InputError message of map_scenario on `text`, or "mapped".
std::string map_error(const std::string& text)
{
  try {
    map_scenario(parse_scenario(text, "test.yaml"));
    return "mapped";
  } catch (const InputError& e) {
    return e.what();
  }
}

/// The InputError message of check_campaign_runs on every run of campaign `text`, or "accepted".
std::string campaign_error(const std::string& text)
{
  Campaign c = parse_campaign(text, "test-campaign.yaml", ".");
  std::vector<int> ids;
  for (const CampaignRun& run : c.runs)
    ids.push_back(run.id);
  try {
    check_campaign_runs(c, ids);
    return "accepted";
  } catch (const InputError& e) {
    return e.what();
  }
}

} // namespace

TEST(RunChecks, PipelineMappersRefuseTaskChains)
{
  // HeDPM mapped the chain's stand-in pipeline (w = 0, delta = 0) and sv95 priced its mapping: 2.24 printed
  // for a problem HeDPM never saw
  EXPECT_EQ(map_error(std::string(chain_tasks) + "mapper: hedpm\n"),
            "test.yaml:7: key 'mapper': value 'hedpm': mapper 'hedpm' cannot handle this problem: the scenario is a "
            "task_chain (sv95's data-parallel tasks, priced by their response functions), and this mapper maps a "
            "pipeline's w and delta: it would map the chain's stand-in pipeline, whose w and delta are all 0; use an "
            "sv95.* mapper or an explicit mapping");
  EXPECT_THAT(map_error(std::string(chain_tasks) + "mapper: br07.h7b-bsc\n"), HasSubstr("stand-in pipeline"));
  EXPECT_EQ(map_error(std::string(chain_tasks) + "mapper: sv95.dp\n"), "mapped");
  EXPECT_EQ(map_error(std::string(chain_tasks) + "mapping:\n  - {stages: [1, 2], replicas: [[P1, P2]]}\n"), "mapped");
  // and the converse: the sv95 mappers need a chain (their own refusal, now at the mapper's line)
  EXPECT_THAT(map_error("pipeline: {w: [1, 2], delta: [1, 1, 1]}\nplatform:\n  generate: {class: fully-homogeneous, "
                        "p: 4, speed: 1, bandwidth: 1, seed: 1}\nmapper: sv95.dp\n"),
              HasSubstr("test.yaml:4: key 'mapper': value 'sv95.dp': mapper 'sv95.dp' cannot handle this problem: the "
                        "problem has no task chain"));
}

TEST(RunChecks, EvaluatorsRefuseWhatTheyCannotHandleAtTheScenariosLine)
{
  const std::string pipeline = "pipeline: {w: [1, 2], delta: [1, 1, 1]}\nplatform:\n  generate: {class: "
                               "fully-homogeneous, p: 4, speed: 1, bandwidth: 1, seed: 1}\n";
  EXPECT_EQ(map_error(pipeline + "mapping:\n  - {stages: 1, replicas: [[P1, P2]]}\n  - {stages: 2, replicas: [P3]}\n"),
            "test.yaml:5: key 'mapping[0].replicas[0]': value '[P1, P2]': a data-parallel processor group is a seed "
            "001 module instance, which only a task_chain has; the pipeline's formulas, event graph and "
            "simulator take one processor per replica");
  // simulator refusals: checked by simulate_run before any process starts
  ScenarioRun dealt = map_scenario(parse_scenario(
      pipeline + "mapping:\n  - {stages: 1, replicas: [P1, P2], replication: deal}\n  - {stages: 2, replicas: [P3]}\n"
                 "simulation:\n  failures: {model: none, election: min-comm}\n",
      "test.yaml"));
  EXPECT_THAT([&] { simulate_run(dealt); },
              ::testing::ThrowsMessage<InputError>(
                  HasSubstr("test.yaml:8: key 'simulation.failures.election': value 'min-comm': this policy elects "
                            "among active replicas only (seed 004), and mapping[0].replication deals its data sets")));
  ScenarioRun chain = map_scenario(parse_scenario(
      std::string(chain_tasks) + "mapper: sv95.dp\nsimulation:\n  failures: exponential\n", "test.yaml"));
  EXPECT_THAT([&] { simulate_run(chain); },
              ::testing::ThrowsMessage<InputError>(
                  HasSubstr("test.yaml:9: key 'simulation.failures': value 'exponential': seed 001's modules "
                            "(task_chain) are simulated without failures")));
}

TEST(RunChecks, CampaignWithARunItsMapperRefusesIsRefusedBeforeAnyWorker)
{
  // hedpm takes the one-port model only: a campaign over mapper x model ran every hedpm/multi-port row to `error`
  // and exited 0, where `map` exits 2
  const std::string base = R"(name: c
mode: analytic
base:
  pipeline: {generate: {n: 4, w: [1, 20], delta: [1, 10], seed: 1}}
  platform: {generate: {class: fully-heterogeneous, p: 4, speed: [1, 20], bandwidth: [1, 10], seed: 1}}
  mapper: hedpm
)";
  EXPECT_THAT(campaign_error(base + "sweep:\n  mapper: [random.interval, hedpm]\n  simulation.model: [one-port, "
                                    "multi-port]\n"),
              HasSubstr("test-campaign.yaml:8: key 'mapper': value 'hedpm': run 3 (mapper=hedpm "
                        "simulation.model=multi-port) cannot run: "));
  EXPECT_THAT(campaign_error(base + "sweep:\n  mapper: [random.interval, hedpm]\n  simulation.model: [one-port, "
                                    "multi-port]\n"),
              HasSubstr("cannot run: mapper 'hedpm' cannot handle this problem: it accepts the "
                        "one-port model (HeDPM's t(n, p) adds receive, compute and send: hedpm §3's synchronous "
                        "communications), not multi-port; every run of a campaign must be one its mapper and "
                        "evaluators take: leave the others out of the sweep, e.g. with a `zip`"));
  // the combinations that go together, as a zip: accepted
  EXPECT_EQ(campaign_error(base + "zip:\n  - {mapper: [random.interval, random.interval, hedpm], simulation.model: "
                                  "[one-port, multi-port, one-port]}\n"),
            "accepted");
}

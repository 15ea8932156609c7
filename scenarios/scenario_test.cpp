// Tests of scenario files: the shipped examples parse to the values they state, and bad input names file:line.
#include "scenarios/scenario.hpp"

#include "base/input_error.hpp"
#include "model/analytic.hpp"
#include "scenarios/scenario_test_util.hpp"

#include <filesystem>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

Scenario load_example(const std::string& name)
{
  return load_scenario(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/" + name);
}

std::vector<std::vector<std::string>> hosts_of(const MappingSpec::IntervalSpec& interval)
{
  std::vector<std::vector<std::string>> out;
  for (const auto& group : interval.replicas)
    out.push_back(group.hosts);
  return out;
}

TEST(ScenarioExamples, Quickstart)
{
  Scenario s = load_example("quickstart.yaml");
  EXPECT_EQ(s.name, "quickstart");
  EXPECT_EQ(s.pipeline.n(), 3);
  EXPECT_EQ(s.pipeline.w, (std::vector<double>{10, 20, 5}));
  EXPECT_EQ(s.pipeline.delta, (std::vector<double>{10, 10, 10, 10}));
  EXPECT_EQ(s.mapper, "br07.one-to-one");
  EXPECT_FALSE(s.mapping.has_value());
  EXPECT_EQ(s.objective.kind, Objective::Kind::min_period);
  EXPECT_EQ(s.mapper_options.seed, 7u);
  EXPECT_EQ(s.mapper_options.time_limit, 60);
  EXPECT_EQ(s.simulation.model, CommModel::one_port);
  EXPECT_EQ(s.simulation.network, NetworkMode::exact);
  EXPECT_EQ(s.simulation.datasets, 200);
  EXPECT_EQ(s.simulation.effective_warmup(), 100);
  EXPECT_EQ(s.simulation.seed, 42u);
  EXPECT_FALSE(s.simulation.record_trace);
  ASSERT_EQ(s.platform.kind, PlatformSpec::Kind::model);
  const Platform& platform = s.platform.model;
  ASSERT_EQ(platform.p(), 4);
  const double speeds[] = {12, 8, 10, 6};
  for (int u = 0; u < 4; ++u) {
    EXPECT_EQ(platform.processor(u).name, "P" + std::to_string(u + 1));
    EXPECT_EQ(platform.speed(u), speeds[u]);
    EXPECT_DOUBLE_EQ(platform.processor(u).failure_probability, 0.1);
    EXPECT_EQ(platform.processor(u).nic_in, 20);
    EXPECT_EQ(platform.processor(u).nic_out, 20);
  }
  EXPECT_EQ(platform.bandwidth(platform.in(), 0), 10);
  EXPECT_EQ(platform.bandwidth(1, 2), 10);
  EXPECT_EQ(platform.bandwidth(3, platform.out()), 10);
  EXPECT_EQ(platform.latency(0, 1), 0);
  EXPECT_EQ(platform.classify(), PlatformClass::communication_homogeneous);
  EXPECT_EQ(s.platform.in_name, "in");
  EXPECT_EQ(s.platform.out_name, "out");
}

TEST(ScenarioExamples, Eq6General)
{
  Scenario s = load_example("eq6_general.yaml");
  EXPECT_EQ(s.pipeline.w, (std::vector<double>{1, 10, 1}));
  EXPECT_EQ(s.pipeline.delta, (std::vector<double>{10, 1, 1, 10}));
  EXPECT_EQ(s.mapper, "explicit");
  ASSERT_TRUE(s.mapping.has_value());
  ASSERT_EQ(s.mapping->intervals.size(), 3u);
  const std::vector<std::vector<std::string>> on_p1{{"P1"}}, on_p2{{"P2"}};
  EXPECT_EQ(hosts_of(s.mapping->intervals[0]), on_p1);
  EXPECT_EQ(hosts_of(s.mapping->intervals[1]), on_p2);
  EXPECT_EQ(hosts_of(s.mapping->intervals[2]), on_p1);
  EXPECT_EQ(s.simulation.datasets, 100);
  EXPECT_EQ(s.simulation.effective_warmup(), 50);

  const Platform& platform = s.platform.model;
  ASSERT_EQ(platform.p(), 2);
  EXPECT_TRUE(platform.io_same_host());
  EXPECT_EQ(platform.in_name(), "io");
  EXPECT_EQ(platform.speed(0), 1);                     // s_1
  EXPECT_EQ(platform.speed(1), 10);                    // s_2
  EXPECT_EQ(platform.bandwidth(platform.in(), 0), 10); // b_{0,1}
  EXPECT_EQ(platform.bandwidth(0, platform.out()), 10);
  EXPECT_EQ(platform.bandwidth(platform.in(), 1), 1); // b_{0,2}
  EXPECT_EQ(platform.bandwidth(1, platform.out()), 1);
  EXPECT_EQ(platform.bandwidth(0, 1), 1); // b_{1,2}
  EXPECT_EQ(platform.bandwidth(1, 0), 1);

  Mapping mapping = resolve_mapping(*s.mapping, s.pipeline, platform);
  EXPECT_EQ(classify(mapping), MappingRule::general);
  EXPECT_EQ(mapping.interval(0).replicas, (std::vector<ProcessorGroup>{{0}}));
  EXPECT_EQ(mapping.interval(1).replicas, (std::vector<ProcessorGroup>{{1}}));
  EXPECT_EQ(mapping.interval(2).replicas, (std::vector<ProcessorGroup>{{0}}));
  // br07 eq. (6): 10/10 + 1/1 + 1/1 + 10/10 + 1/1 + 1/1 + 10/10 = 7.
  EXPECT_NEAR(br07_eq45_period(s.pipeline, platform, mapping), 7.0, 1e-12);
}

TEST(ScenarioExamples, Replicated)
{
  Scenario s = load_example("replicated.yaml");
  EXPECT_EQ(s.pipeline.n(), 4);
  EXPECT_EQ(s.objective.kind, Objective::Kind::min_failure_probability);
  EXPECT_EQ(s.objective.period_bound, 10);
  EXPECT_EQ(s.simulation.effective_warmup(), 100); // default N/2
  EXPECT_EQ(s.mapper_options.seed, 42u);           // defaults to simulation.seed
  ASSERT_EQ(s.mapping->intervals.size(), 3u);
  const auto& middle = s.mapping->intervals[1];
  EXPECT_EQ(middle.first, 2);
  EXPECT_EQ(middle.last, 3);
  EXPECT_EQ(middle.replication, Replication::active);
  EXPECT_EQ(hosts_of(middle), (std::vector<std::vector<std::string>>{{"P2"}, {"P3"}}));
  Mapping mapping = resolve_mapping(*s.mapping, s.pipeline, s.platform.model);
  EXPECT_TRUE(mapping.replicated());
  EXPECT_EQ(classify(mapping), MappingRule::interval);
  EXPECT_EQ(mapping.interval(1).replicas, (std::vector<ProcessorGroup>{{1}, {2}}));
}

TEST(ScenarioExamples, StarXml)
{
  const std::string xml = std::string(PIPESIM_SOURCE_DIR) + "/platforms/examples/star.xml";
  Scenario s            = load_example("star_xml.yaml");
  ASSERT_EQ(s.platform.kind, PlatformSpec::Kind::xml);
  EXPECT_TRUE(std::filesystem::equivalent(s.platform.xml_file, xml));
  EXPECT_EQ(s.platform.in_name, "io");
  EXPECT_EQ(s.platform.out_name, "io");
  EXPECT_EQ(s.pipeline.w, (std::vector<double>{2e9, 7e9, 1.5e9}));
  EXPECT_EQ(s.pipeline.delta, (std::vector<double>{1e8, 5e7, 5e7, 1e8}));
  EXPECT_EQ(s.mapper, "explicit");
  ASSERT_EQ(s.mapping->intervals.size(), 3u);
  EXPECT_EQ(hosts_of(s.mapping->intervals[0]), (std::vector<std::vector<std::string>>{{"cpu-2"}}));
  EXPECT_EQ(hosts_of(s.mapping->intervals[1]), (std::vector<std::vector<std::string>>{{"cpu-3"}}));
  EXPECT_EQ(hosts_of(s.mapping->intervals[2]), (std::vector<std::vector<std::string>>{{"cpu-5"}}));
  EXPECT_EQ(s.simulation.effective_warmup(), 50);
}

TEST(ScenarioExamples, EveryShippedExampleParses)
{
  for (const auto& entry : std::filesystem::directory_iterator(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples"))
    if (entry.path().extension() == ".yaml") {
      EXPECT_NO_THROW(load_scenario(entry.path().string())) << entry.path();
    }
}

TEST(ScenarioParse, DefaultsAndGeneratedPipeline)
{
  Scenario s = parse_scenario(R"(pipeline:
  generate: {n: 20, w: [1, 20], delta: 10, seed: 3}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: br07.h1a-gr
)",
                              "dir/test.yaml");
  EXPECT_EQ(s.name, "test");
  EXPECT_EQ(s.file, "dir/test.yaml");
  EXPECT_EQ(s.pipeline.n(), 20);
  for (double w : s.pipeline.w) {
    EXPECT_GE(w, 1);
    EXPECT_LE(w, 20);
  }
  EXPECT_EQ(s.pipeline.delta, std::vector<double>(21, 10.0));
  EXPECT_EQ(s.simulation.datasets, 200);
  EXPECT_EQ(s.simulation.warmup, -1);
  EXPECT_EQ(s.simulation.model, CommModel::one_port);
  EXPECT_EQ(s.mapper_options.seed, 42u);
  EXPECT_EQ(s.mapper_options.period_test, PeriodTest::worst_case);
}

TEST(ScenarioParse, PeriodTestOfTheReliabilityHeuristics)
{
  Scenario s = parse_scenario(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: bbr10.best
mapper_options: {period_test: all-alive-best-election}
)",
                              "test.yaml");
  EXPECT_EQ(s.mapper_options.period_test, PeriodTest::all_alive_best_election);
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: bbr10.best
mapper_options:
  period_test: all-alive
)",
                     {"test.yaml:5:", "mapper_options.period_test", "'all-alive'",
                      "expected one of: worst-case, all-alive-best-election"});
}

TEST(ScenarioParse, SimulationSettings)
{
  Scenario s = parse_scenario(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
simulation: {network: simgrid, datasets: 10, warmup: 0, seed: 5, trace: true,
             simgrid: ["--cfg=network/model:LV08", "--log=root.thresh:info"]}
)",
                              "test.yaml");
  EXPECT_EQ(s.simulation.network, NetworkMode::simgrid);
  EXPECT_EQ(s.simulation.effective_warmup(), 0);
  EXPECT_EQ(s.simulation.seed, 5u);
  EXPECT_TRUE(s.simulation.record_trace);
  EXPECT_EQ(s.simulation.simgrid_args,
            (std::vector<std::string>{"--cfg=network/model:LV08", "--log=root.thresh:info"}));
}

TEST(ScenarioErrors, MalformedYaml)
{
  expect_input_error(R"(name: bad
pipeline:
  w: [1]
  delta: [1, 1]
    extra: 3
)",
                     {"test.yaml:5:", "YAML syntax error"});
}

TEST(ScenarioErrors, UnknownTopLevelKey)
{
  expect_input_error(R"(name: t
pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: br07.one-to-one
colour: blue
)",
                     {"test.yaml:5:", "'colour'", "simulation"});
}

TEST(ScenarioErrors, UnknownSimulationKey)
{
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
simulation:
  datasets: 10
  speed_up: 2
)",
                     {"test.yaml:6:", "simulation.speed_up"});
}

TEST(ScenarioErrors, NegativeSpeed)
{
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform:
  processors:
    - {name: P1, speed: 2}
    - {name: P2, speed: -3}
  bandwidth: 1
mapper: x
)",
                     {"test.yaml:5:", "speed", "-3"});
}

TEST(ScenarioErrors, DeltaOfWrongLength)
{
  expect_input_error(R"(pipeline:
  w: [1, 2, 3]
  delta: [1, 1]
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
)",
                     {"test.yaml:3:", "pipeline.delta", "expected n+1 = 4 values", "got 2"});
}

TEST(ScenarioErrors, NegativeWork)
{
  expect_input_error(R"(pipeline:
  w: [1, -2]
  delta: [1, 1, 1]
)",
                     {"test.yaml:2:", "pipeline.w[1]", "'-2'"});
}

TEST(ScenarioErrors, BothMapperAndMapping)
{
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: br07.one-to-one
mapping: [{stages: [1], replicas: [P1]}]
)",
                     {"test.yaml:4:", "mapping", "not both"});
}

TEST(ScenarioErrors, NeitherMapperNorMapping)
{
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
)",
                     {"test.yaml:1: key 'mapper': missing key (and no 'mapping')"});
}

TEST(ScenarioErrors, WarmupNotBelowDatasets)
{
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
simulation:
  datasets: 10
  warmup: 10
)",
                     {"test.yaml:6:", "simulation.warmup", "value '10'", "[0, 9]"});
}

TEST(ScenarioErrors, SimgridArgument)
{
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
simulation:
  simgrid: ["--cfg=network/model:LV08", "-cfg=foo"]
)",
                     {"test.yaml:5:", "simulation.simgrid[1]", "'-cfg=foo'", "--cfg= or --log="});
}

// Issue 16: a SimGrid typo in simulation.simgrid was an internal error or a SimGrid abort, with no file or line.
TEST(ScenarioErrors, SimgridArgumentSimgridRefuses)
{
  const std::string head = R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
simulation:
  simgrid:
    - --cfg=network/model:LV08
)";
  expect_input_error(head + "    - --cfg=network/model:Fooo\n",
                     {"test.yaml:7:", "simulation.simgrid[1]", "'--cfg=network/model:Fooo'",
                      "SimGrid: Model 'Fooo' is invalid! Valid models are: LV08, Constant, SMPI, IB, CM02, ns-3."});
  expect_input_error(head + "    - --cfg=bogus/opt:1\n",
                     {"test.yaml:7:", "simulation.simgrid[1]", "SimGrid: Bad config key: bogus/opt"});
  expect_input_error(head + "    - --log=garbage\n",
                     {"test.yaml:7:", "simulation.simgrid[1]", "SimGrid: Invalid control string 'garbage'"});
}

// Issue 16: limits stated, not hours of silence or an exhausted memory.
TEST(ScenarioErrors, DatasetsAndRunsHaveLimits)
{
  const std::string head = R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1, failure_probability: 0.1}], bandwidth: 1}
mapper: x
)";
  expect_input_error(head + "simulation: {datasets: 2000000000}\n",
                     {"test.yaml:4:", "simulation.datasets", "value '2000000000'", "[2, 10000000]"});
  expect_input_error(head + "simulation: {datasets: 99999999999999999999}\n",
                     {"test.yaml:4:", "simulation.datasets", "99999999999999999999"});
  expect_input_error(head + "simulation: {failures: {model: probability}, runs: 1000001}\n",
                     {"test.yaml:4:", "simulation.runs", "value '1000001'", "[1, 1000000]"});
  Scenario s = parse_scenario(head + "simulation: {datasets: 10000000, warmup: 0}\n", "test.yaml");
  EXPECT_EQ(s.simulation.datasets, 10'000'000);
}

TEST(ScenarioErrors, MultiPortKeys)
{
  Scenario s = parse_scenario(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
simulation: {model: multi-port, allocation: allotted, buffer: 3, datasets: 100, cooldown: 10}
)",
                              "test.yaml");
  EXPECT_EQ(s.simulation.model, CommModel::multi_port);
  EXPECT_EQ(s.simulation.allocation, Allocation::allotted);
  EXPECT_EQ(s.simulation.buffer, 3);
  EXPECT_EQ(s.simulation.effective_cooldown(), 10);
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
simulation:
  allocation: fair
)",
                     {"test.yaml:5:", "simulation.allocation", "multi-port model only"});
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
simulation:
  model: multi-port
  allocation: greedy
)",
                     {"test.yaml:6:", "simulation.allocation", "'greedy'", "fair or allotted"});
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
simulation:
  model: two-port
)",
                     {"test.yaml:5:", "simulation.model", "'two-port'", "one-port or multi-port"});
}

TEST(ScenarioErrors, Objective)
{
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
objective: {minimize: period, period_bound: 3}
)",
                     {"test.yaml:4:", "objective.period_bound", "only applies"});
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
objective:
  minimize: failure_probability
)",
                     {"test.yaml:5:", "objective", "period_bound"});
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: x
objective: {minimize: latency}
)",
                     {"test.yaml:4:", "objective.minimize", "'latency'"});
}

TEST(ScenarioErrors, PlatformFileNotFound)
{
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform:
  file: nowhere/missing.xml
  io: {in: io, out: io}
mapper: x
)",
                     {"test.yaml:3:", "platform.file", "'nowhere/missing.xml'", "file not found"});
}

TEST(ScenarioErrors, PlatformFileWithModelKeys)
{
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform:
  file: scenarios/examples/quickstart.yaml
  bandwidth: 3
mapper: x
)",
                     {"test.yaml:4:", "platform.bandwidth"});
}

TEST(ScenarioErrors, ExplicitMapperWithoutMapping)
{
  expect_input_error(R"(pipeline: {w: [1], delta: [1, 1]}
platform: {processors: [{name: P1, speed: 1}], bandwidth: 1}
mapper: explicit
)",
                     {"test.yaml:3:", "mapper", "mapping"});
}

} // namespace
} // namespace pipesim

namespace pipesim {
namespace {

TEST(ScenarioParse, PlatformSelectionAndEditsOnAYamlPlatform)
{
  const std::string platform = R"(platform:
  processors:
    - {name: P1, speed: 1}
    - {name: P2, speed: 2}
    - {name: P3, speed: 3}
  bandwidth: 10
  hosts: ["P[23]"]
  edits:
    - {scale_speed: 2, hosts: P3}
    - {scale_bandwidth: 0.5, route: [P2, P3]}
)";
  Scenario s =
      parse_scenario("pipeline: {w: [1, 1], delta: [1, 1, 1]}\n" + platform + "mapper: br07.h2-gsw\n", "test.yaml");
  Platform p = model_platform(s.platform);
  ASSERT_EQ(p.p(), 2);
  EXPECT_EQ(p.processor(0).name, "P2");
  EXPECT_EQ(p.speed(1), 6.0);
  EXPECT_EQ(p.bandwidth(0, 1), 5.0);
  EXPECT_EQ(p.bandwidth(p.in(), 0), 10.0);
  EXPECT_EQ(s.platform.model.p(), 3); // the unedited model is kept: a what-if adds edits to it
  // a mapping on a host the selection leaves out: the host's line
  expect_input_error("pipeline: {w: [1], delta: [1, 1]}\n" + platform + "mapping:\n  - {stages: [1], replicas: [P1]}\n",
                     {"test.yaml:13", "P1"});
  // an edit that matches nothing: its line and pattern
  expect_input_error(
      "pipeline: {w: [1], delta: [1, 1]}\nplatform:\n  processors: [{name: P1, speed: 1}]\n  bandwidth: 1\n  edits:\n"
      "    - {remove_hosts: Q*}\nmapper: br07.h2-gsw\n",
      {"test.yaml:6", "Q*", "matches no processor"});
}

} // namespace
} // namespace pipesim

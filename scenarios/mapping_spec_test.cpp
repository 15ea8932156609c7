// Tests of explicit mappings in scenarios: shapes accepted, and each check's message with file:line and key.
#include "scenarios/mapping_spec.hpp"

#include "base/input_error.hpp"
#include "scenarios/scenario_test_util.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

// Three lines, so the mapping's entries start at line 4.
const std::string prefix = R"(pipeline: {w: [1, 1, 1], delta: [1, 1, 1, 1]}
platform: {processors: [{name: P1, speed: 1}, {name: P2, speed: 1}, {name: P3, speed: 1}], bandwidth: 1, io: {in: src, out: dst}}
mapping:
)";

Platform three_processors() { return Platform({Processor{"P1"}, Processor{"P2"}, Processor{"P3"}}, "src", "dst"); }

TEST(MappingSpec, Shapes)
{
  Scenario s = parse_scenario(prefix + R"(  - {stages: 1, replicas: [P1]}
  - stages: [2, 3]
    replicas:
      - [P2, P3]
      - P1
    replication: deal
)",
                              "test.yaml");
  ASSERT_TRUE(s.mapping);
  const MappingSpec& spec = *s.mapping;
  EXPECT_EQ(spec.file, "test.yaml");
  ASSERT_EQ(spec.intervals.size(), 2u);
  EXPECT_EQ(spec.intervals[0].first, 1);
  EXPECT_EQ(spec.intervals[0].last, 1);
  EXPECT_EQ(spec.intervals[0].line, 4);
  EXPECT_EQ(spec.intervals[0].replication, Replication::active);
  EXPECT_EQ(spec.intervals[1].first, 2);
  EXPECT_EQ(spec.intervals[1].last, 3);
  EXPECT_EQ(spec.intervals[1].line, 5);
  EXPECT_EQ(spec.intervals[1].replication, Replication::deal);
  ASSERT_EQ(spec.intervals[1].replicas.size(), 2u);
  EXPECT_EQ(spec.intervals[1].replicas[0].hosts, (std::vector<std::string>{"P2", "P3"}));
  EXPECT_EQ(spec.intervals[1].replicas[0].line, 7);
  EXPECT_EQ(spec.intervals[1].replicas[1].hosts, (std::vector<std::string>{"P1"}));
  EXPECT_EQ(spec.intervals[1].replicas[1].line, 8);

  Mapping mapping = resolve_mapping(spec, s.pipeline, s.platform.model);
  EXPECT_TRUE(mapping.data_parallel());
  EXPECT_TRUE(mapping.has_deal());
  EXPECT_EQ(mapping.interval(1).replicas, (std::vector<ProcessorGroup>{{1, 2}, {0}}));
}

TEST(MappingSpec, OverlappingIntervals)
{
  expect_input_error(
      prefix + R"(  - {stages: [1, 2], replicas: [P1]}
  - {stages: [2, 3], replicas: [P2]}
)",
      {"test.yaml:5:", "mapping[1].stages", "stages 2-3 overlap the previous interval ending at stage 2"});
}

TEST(MappingSpec, StageLeftOut)
{
  expect_input_error(prefix + R"(  - {stages: [1], replicas: [P1]}
  - {stages: [3], replicas: [P2]}
)",
                     {"test.yaml:5:", "mapping[1].stages", "stage 2 is not covered"});
  expect_input_error(prefix + R"(  - {stages: [1], replicas: [P1]}
  - {stages: [2], replicas: [P2]}
)",
                     {"test.yaml:5:", "interval ends at stage 2 but the pipeline has 3 stages"});
}

TEST(MappingSpec, StageOutOfRange)
{
  expect_input_error(prefix + R"(  - {stages: [1, 4], replicas: [P1]}
)",
                     {"test.yaml:4:", "mapping[0].stages", "'[1, 4]'", "stage 4 is outside 1..3"});
  expect_input_error(prefix + R"(  - {stages: [3, 1], replicas: [P1]}
)",
                     {"test.yaml:4:", "first stage 3 exceeds last stage 1"});
  expect_input_error(prefix + R"(  - {stages: [1, 2, 3], replicas: [P1]}
)",
                     {"test.yaml:4:", "mapping[0].stages", "[first, last]"});
}

TEST(MappingSpec, GroupNamesProcessorTwice)
{
  expect_input_error(prefix + R"(  - stages: [1, 3]
    replicas:
      - [P2]
      - [P1, P1]
)",
                     {"test.yaml:7:", "mapping[0].replicas[1]", "'P1'", "names processor P1 twice"});
}

TEST(MappingSpec, ProcessorInTwoReplicas)
{
  expect_input_error(prefix + R"(  - {stages: [1, 3], replicas: [P1, [P2, P1]]}
)",
                     {"test.yaml:4:", "mapping[0].replicas[1]", "processor P1 is already in replica 0"});
}

TEST(MappingSpec, UnknownHost)
{
  expect_input_error(prefix + R"(  - {stages: [1, 2], replicas: [P1]}
  - {stages: [3], replicas: [P9]}
)",
                     {"test.yaml:5:", "mapping[1].replicas[0]", "unknown host 'P9'", "P1, P2, P3"});
}

TEST(MappingSpec, IoServerIsNotAProcessor)
{
  expect_input_error(prefix + R"(  - {stages: [1, 3], replicas: [src]}
)",
                     {"test.yaml:4:", "'src'", "I/O server P_in"});
}

TEST(MappingSpec, ShapeErrors)
{
  expect_input_error(prefix + R"(  - {stages: [1, 3], replicas: []}
)",
                     {"test.yaml:4:", "mapping[0].replicas", "at least one replica"});
  expect_input_error(prefix + R"(  - {stages: [1, 3], replicas: [[]]}
)",
                     {"test.yaml:4:", "mapping[0].replicas[0]", "at least one host"});
  expect_input_error(prefix + R"(  - {stages: [1, 3], replicas: [P1], replication: lazy}
)",
                     {"test.yaml:4:", "mapping[0].replication", "'lazy'", "active or deal"});
  expect_input_error(prefix + R"(  - {stages: [1, 3], replicas: [P1], processors: [P2]}
)",
                     {"test.yaml:4:", "mapping[0].processors"});
  expect_input_error(prefix + R"(  - {stages: [1, 3]}
)",
                     {"test.yaml:4:", "mapping[0].replicas"});
  expect_input_error(prefix + "  []\n", {"test.yaml:4:", "mapping", "at least one interval"});
}

TEST(MappingSpec, XmlPlatformChecksStagesAtLoadAndHostsOnResolve)
{
  const auto dir = std::filesystem::temp_directory_path();
  std::ofstream(dir / "pipesim_mapping_spec_test.xml") << "<platform version=\"4.1\"/>\n";
  const std::string head = R"(pipeline: {w: [1, 1, 1], delta: [1, 1, 1, 1]}
platform: {file: pipesim_mapping_spec_test.xml, io: {in: src, out: dst}}
mapping:
)";
  // Structure errors surface at load time, before the XML is read.
  EXPECT_THROW(parse_scenario(head + "  - {stages: [1, 2], replicas: [P1]}\n", "test.yaml", dir.string()), InputError);
  // Host names wait for the platform.
  Scenario s = parse_scenario(head + "  - {stages: [1, 3], replicas: [P7]}\n", "test.yaml", dir.string());
  EXPECT_EQ(s.platform.kind, PlatformSpec::Kind::xml);
  EXPECT_EQ(s.platform.xml_file, (dir / "pipesim_mapping_spec_test.xml").lexically_normal().string());
  EXPECT_EQ(s.platform.in_name, "src");
  try {
    resolve_mapping(*s.mapping, s.pipeline, three_processors());
    ADD_FAILURE() << "P7 resolved";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("test.yaml:4: key 'mapping[0].replicas[0]': value 'P7': unknown host"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove(dir / "pipesim_mapping_spec_test.xml");
}

TEST(MappingSpec, ResolveWithoutYaml)
{
  MappingSpec spec;
  spec.file = "m.yaml";
  spec.intervals.push_back({1, 2, {{{"P3"}, 10}}, Replication::active, 9});
  spec.intervals.push_back({3, 3, {{{"P1"}, 11}, {{"P2"}, 12}}, Replication::active, 11});
  Pipeline pipeline{{1, 1, 1}, {1, 1, 1, 1}};
  Mapping mapping = resolve_mapping(spec, pipeline, three_processors());
  ASSERT_EQ(mapping.m(), 2);
  EXPECT_EQ(mapping.interval(0).replicas, (std::vector<ProcessorGroup>{{2}}));
  EXPECT_EQ(mapping.interval(1).replicas, (std::vector<ProcessorGroup>{{0}, {1}}));
  EXPECT_EQ(classify(mapping), MappingRule::interval);
}

} // namespace
} // namespace pipesim

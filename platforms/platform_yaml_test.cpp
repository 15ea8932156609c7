// Tests of parse_platform_yaml: explicit lists with link overrides, generators, and error messages.
#include "platforms/platform_yaml.hpp"

#include "base/input_error.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

Platform parse_platform_yaml(const std::string& text)
{
  return parse_platform_yaml(load_yaml_text(text, "test.yaml").at("platform"));
}

std::string yaml_error_of(const std::string& text)
{
  try {
    parse_platform_yaml(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// Checks that the message names the file and line and contains every fragment.
void expect_error(const std::string& text, int line, std::initializer_list<const char*> fragments)
{
  std::string message = yaml_error_of(text);
  EXPECT_EQ(message.rfind("test.yaml:" + std::to_string(line) + ": ", 0), 0u) << message;
  for (const char* fragment : fragments)
    EXPECT_NE(message.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << message;
}

const char* const explicit_platform = R"(platform:
  processors:
    - {name: A, speed: 2e9, failure_probability: 0.1, nic_in: 1e8}
    - {name: B, speed: 1e9, nic_out: 5e7, mtbf: 3600}
    - {name: C, speed: 3e9}
  io: {in: src, out: dst}
  bandwidth:
    default: 1e7
    links:
      - {from: A, to: B, bandwidth: 2e7}
      - {from: B, to: C, bandwidth: 3e7, directed: true}
      - {from: src, to: C, bandwidth: 4e7}
  latency:
    default: 0.001
    links:
      - {from: C, to: A, latency: 0.5, directed: true}
)";

TEST(PlatformYaml, ExplicitListWithOverrides)
{
  Platform platform = parse_platform_yaml(explicit_platform);
  ASSERT_EQ(platform.p(), 3);
  EXPECT_EQ(platform.in_name(), "src");
  EXPECT_EQ(platform.out_name(), "dst");
  EXPECT_FALSE(platform.io_same_host());
  const auto& a = platform.processor(0);
  EXPECT_EQ(a.name, "A");
  EXPECT_EQ(a.speed, 2e9);
  EXPECT_EQ(a.failure_probability, 0.1);
  EXPECT_EQ(a.nic_in, 1e8);
  EXPECT_EQ(a.nic_out, unbounded);
  EXPECT_EQ(a.mtbf, unbounded);
  EXPECT_EQ(platform.processor(1).nic_out, 5e7);
  EXPECT_EQ(platform.processor(1).mtbf, 3600);
  EXPECT_EQ(platform.processor(2).failure_probability, 0.0);

  const int A = 0, B = 1, C = 2, in = platform.in(), out = platform.out();
  EXPECT_EQ(platform.bandwidth(A, B), 2e7); // undirected override: both directions
  EXPECT_EQ(platform.bandwidth(B, A), 2e7);
  EXPECT_EQ(platform.bandwidth(B, C), 3e7); // directed: only B -> C
  EXPECT_EQ(platform.bandwidth(C, B), 1e7);
  EXPECT_EQ(platform.bandwidth(in, C), 4e7);
  EXPECT_EQ(platform.bandwidth(C, in), 4e7);
  EXPECT_EQ(platform.bandwidth(C, out), 1e7);
  EXPECT_EQ(platform.bandwidth(A, C), 1e7);
  EXPECT_EQ(platform.latency(C, A), 0.5);
  EXPECT_EQ(platform.latency(A, C), 0.001);
  EXPECT_EQ(platform.latency(in, A), 0.001);
  EXPECT_EQ(platform.latency(A, A), 0.0);
  EXPECT_EQ(platform.classify(), PlatformClass::fully_heterogeneous);
}

TEST(PlatformYaml, NumberShapesAndDefaults)
{
  Platform platform = parse_platform_yaml(R"(platform:
  processors: [{name: P1, speed: 5}, {name: P2, speed: 5}]
  bandwidth: 100
)");
  EXPECT_EQ(platform.in_name(), "in");
  EXPECT_EQ(platform.out_name(), "out");
  EXPECT_EQ(platform.bandwidth(0, 1), 100);
  EXPECT_EQ(platform.bandwidth(platform.in(), 1), 100);
  EXPECT_EQ(platform.latency(0, 1), 0.0);
  EXPECT_EQ(platform.classify(), PlatformClass::fully_homogeneous);
  platform = parse_platform_yaml(R"(platform:
  processors: [{name: P1, speed: 5}, {name: P2, speed: 7}]
  bandwidth: 100
  latency: 0.25
)");
  EXPECT_EQ(platform.latency(platform.in(), 0), 0.25);
  EXPECT_EQ(platform.classify(), PlatformClass::communication_homogeneous);
}

TEST(PlatformYaml, SharedIoHostOverrideCoversPinAndPout)
{
  Platform platform = parse_platform_yaml(R"(platform:
  processors: [{name: P1, speed: 5}, {name: P2, speed: 5}]
  io: {in: io, out: io}
  bandwidth: {default: 100, links: [{from: io, to: P2, bandwidth: 7}]}
)");
  EXPECT_TRUE(platform.io_same_host());
  EXPECT_EQ(platform.bandwidth(platform.in(), 1), 7);
  EXPECT_EQ(platform.bandwidth(1, platform.out()), 7);
  EXPECT_EQ(platform.bandwidth(platform.in(), 0), 100);
  EXPECT_EQ(platform.bandwidth(platform.in(), platform.out()), unbounded); // one host: local
  EXPECT_EQ(platform.latency(platform.out(), platform.in()), 0.0);
}

std::string generator(const std::string& cls, int seed)
{
  return "platform:\n  generate:\n    class: " + cls +
         "\n    p: 5\n    speed: [1, 20]\n    bandwidth: {min: 10, max: 100}\n    failure_probability: [0, 0.2]\n"
         "    nic_out: 1e9\n    seed: " +
         std::to_string(seed) + "\n";
}

TEST(PlatformYaml, GeneratorIsDeterministicAndHasItsClass)
{
  for (const char* cls : {"fully-homogeneous", "communication-homogeneous", "fully-heterogeneous"}) {
    Platform a = parse_platform_yaml(generator(cls, 1));
    Platform b = parse_platform_yaml(generator(cls, 1));
    Platform c = parse_platform_yaml(generator(cls, 2));
    EXPECT_EQ(to_string(a.classify()), std::string(cls));
    ASSERT_EQ(a.p(), 5);
    EXPECT_EQ(a.processor(4).name, "P5");
    EXPECT_EQ(a.processor(2).nic_out, 1e9);
    EXPECT_EQ(a.processor(2).nic_in, unbounded);
    bool differs = false;
    for (int u = 0; u < a.p(); ++u) {
      EXPECT_EQ(a.speed(u), b.speed(u));
      EXPECT_EQ(a.processor(u).failure_probability, b.processor(u).failure_probability);
      EXPECT_LT(a.processor(u).failure_probability, 0.2);
      differs = differs || a.speed(u) != c.speed(u);
      for (int v = 0; v < a.nodes(); ++v) {
        EXPECT_EQ(a.bandwidth(u, v), b.bandwidth(u, v));
        differs = differs || a.bandwidth(u, v) != c.bandwidth(u, v);
      }
    }
    EXPECT_TRUE(differs) << cls;
  }
}

TEST(PlatformYaml, ErrorNegativeSpeed)
{
  expect_error("platform:\n  processors:\n    - {name: A, speed: -3}\n  bandwidth: 1\n", 3,
               {"key 'platform.processors[0].speed'", "value '-3'", "positive"});
}

TEST(PlatformYaml, ErrorUnknownProcessorKey)
{
  expect_error("platform:\n  processors:\n    - name: A\n      speed: 1\n      sped: 2\n  bandwidth: 1\n", 5,
               {"key 'platform.processors[0].sped': unknown key", "speed"});
}

TEST(PlatformYaml, ErrorDuplicateProcessorName)
{
  expect_error("platform:\n  processors:\n    - {name: A, speed: 1}\n    - {name: A, speed: 2}\n  bandwidth: 1\n", 4,
               {"key 'platform.processors[1].name'", "value 'A'", "duplicate", "line 3"});
}

TEST(PlatformYaml, ErrorUnknownHostInLinkOverride)
{
  expect_error(R"(platform:
  processors: [{name: A, speed: 1}, {name: B, speed: 1}]
  bandwidth:
    default: 1
    links:
      - {from: A, to: Z, bandwidth: 2}
)",
               6, {"key 'platform.bandwidth.links[0].to'", "value 'Z'", "unknown host", "A, B, in, out"});
}

TEST(PlatformYaml, ErrorMissingBandwidth)
{
  expect_error("platform:\n  processors:\n    - {name: A, speed: 1}\n", 2, {"key 'platform.bandwidth': missing"});
}

TEST(PlatformYaml, ErrorProcessorsAndGenerateTogether)
{
  expect_error(R"(platform:
  processors: [{name: A, speed: 1}]
  generate: {class: fully-homogeneous, p: 2, speed: 1, bandwidth: 1, seed: 1}
)",
               2, {"key 'platform.processors'", "not both", "generate"});
}

TEST(PlatformYaml, ErrorFailureProbabilityOne)
{
  expect_error("platform:\n  processors:\n    - {name: A, speed: 1, failure_probability: 1.0}\n  bandwidth: 1\n", 3,
               {"key 'platform.processors[0].failure_probability'", "value '1.0'", "[0, 1)"});
  expect_error(R"(platform:
  generate:
    class: fully-heterogeneous
    p: 3
    speed: 1
    bandwidth: 1
    failure_probability: [0.5, 1]
    seed: 1
)",
               7, {"key 'platform.generate.failure_probability'", "value '[0.5, 1]'", "[0, 1)"});
}

TEST(PlatformYaml, OtherErrors)
{
  expect_error("platform:\n  bandwidth: 1\n", 2, {"key 'platform'", "'processors'", "'generate'"});
  expect_error("platform:\n  processors: [{name: A, speed: 1}]\n  bandwidth: 0\n", 3,
               {"key 'platform.bandwidth'", "value '0'"});
  expect_error("platform:\n  processors: [{name: A, speed: 1}]\n  bandwidth: {links: []}\n", 3,
               {"key 'platform.bandwidth.default': missing"});
  expect_error("platform:\n  processors: [{name: in, speed: 1}]\n  bandwidth: 1\n", 2,
               {"key 'platform.processors[0].name'", "value 'in'", "io host"});
  expect_error("platform:\n  generate: {class: fully, p: 2, speed: 1, bandwidth: 1, seed: 1}\n", 2,
               {"key 'platform.generate.class'", "value 'fully'", "fully-heterogeneous"});
  expect_error("platform:\n  generate: {class: fully-homogeneous, p: 2, speed: 1, bandwidth: 1}\n", 2,
               {"key 'platform.generate.seed': missing"});
  expect_error("platform:\n  generate: {class: fully-homogeneous, p: 0, speed: 1, bandwidth: 1, seed: 1}\n", 2,
               {"key 'platform.generate.p'", "value '0'"});
  expect_error(
      "platform:\n  io: {in: P2}\n  generate: {class: fully-homogeneous, p: 2, speed: 1, bandwidth: 1, seed: 1}\n", 2,
      {"key 'platform.io'", "P2"});
  expect_error(R"(platform:
  processors: [{name: A, speed: 1}, {name: B, speed: 1}]
  bandwidth:
    default: 1
    links:
      - {from: A, to: B, bandwidth: 2}
      - {from: B, to: A, bandwidth: 3, directed: true}
)",
               7, {"key 'platform.bandwidth.links[1]'", "B -> A", "line 6"});
  expect_error(R"(platform:
  processors: [{name: A, speed: 1}]
  bandwidth: {default: 1, links: [{from: A, to: A, bandwidth: 2}]}
)",
               3, {"key 'platform.bandwidth.links[0].to'", "value 'A'", "two different hosts"});
}

} // namespace
} // namespace pipesim

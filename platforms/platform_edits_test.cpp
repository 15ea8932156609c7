// Host selection and what-if edits: parsing, and their effect on a YAML-built platform.
#include "base/input_error.hpp"
#include "base/yaml_node.hpp"
#include "platforms/platform_edits.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace pipesim {
namespace {

PlatformOptions options(const std::string& yaml)
{
  YamlNode root = load_yaml_text(yaml, "edits.yaml");
  PlatformOptions o;
  if (auto hosts = root.find("hosts")) o.hosts = parse_host_pattern(*hosts);
  if (auto edits = root.find("edits")) o.edits = parse_platform_edits(*edits);
  return o;
}

template <class F>
std::string edits_error_of(F f)
{
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return {};
}

void expect_parts(const std::string& message, const std::vector<std::string>& parts)
{
  for (const auto& part : parts)
    EXPECT_NE(message.find(part), std::string::npos) << "message: " << message << "\nlacks: " << part;
}

std::vector<std::string> names(const Platform& platform)
{
  std::vector<std::string> out;
  for (const auto& proc : platform.processors())
    out.push_back(proc.name);
  return out;
}

int node(const Platform& platform, const std::string& name)
{
  if (auto u = platform.find(name)) return *u;
  throw std::out_of_range("no processor " + name);
}

/// P1..P4 (speeds 1..4, f = 0.1), io "in"/"out", every pair b = 10, c = 1.
Platform small_model()
{
  std::vector<Processor> procs;
  for (int u = 1; u <= 4; ++u)
    procs.push_back(Processor{fmt::format("P{}", u), double(u), 0.1});
  return Platform(procs, "in", "out", 10.0, 1.0);
}

TEST(PlatformEdits, ParsesEveryKind)
{
  PlatformOptions o = options(R"(
hosts: ["P*", {regex: "Q[0-9]+"}]
edits:
  - {scale_speed: 0.5, hosts: P1}
  - {scale_bandwidth: 0.5, links: [backbone, "l*"]}
  - {scale_latency: 2, route: [P1, P2]}
  - {remove_hosts: [P3, {zone: "site-*"}]}
  - {set_failure_probability: 0.2, hosts: P2}
  - {scale_failure_probability: 3, hosts: P2}
  - {fail_link: backbone, at: 12.5}
)");
  ASSERT_EQ(o.hosts.items.size(), 2U);
  EXPECT_EQ(o.hosts.items[1].kind, PatternItem::Kind::regex);
  ASSERT_EQ(o.edits.size(), 7U);
  EXPECT_EQ(o.edits[0].describe(), "scale_speed 0.5 on hosts P1");
  EXPECT_EQ(o.edits[1].describe(), "scale_bandwidth 0.5 on links backbone, l*");
  EXPECT_EQ(o.edits[2].describe(), "scale_latency 2 on the route P1 <-> P2");
  EXPECT_EQ(o.edits[3].describe(), "remove_hosts P3, {zone: site-*}");
  EXPECT_EQ(o.edits[4].describe(), "set_failure_probability 0.2 on hosts P2");
  EXPECT_EQ(o.edits[5].describe(), "scale_failure_probability 3 on hosts P2");
  EXPECT_EQ(o.edits[6].describe(), "fail_link backbone at 12.5 s");
  EXPECT_EQ(o.edits[6].at, 12.5);
  EXPECT_EQ(o.edits[3].line, 7);
  EXPECT_EQ(o.edits[3].key, "edits[3]");
}

TEST(PlatformEdits, BadEditsNameFileLineAndValue)
{
  expect_parts(edits_error_of([] { options("edits:\n  - {scale_speed: 0.5, remove_hosts: P1}\n"); }),
               {"edits.yaml:2", "one action", "scale_speed", "remove_hosts"});
  expect_parts(edits_error_of([] { options("edits:\n  - {hosts: P1}\n"); }), {"edits.yaml:2", "needs one action"});
  expect_parts(edits_error_of([] { options("edits:\n  - {scale_speed: -2, hosts: P1}\n"); }), {"edits.yaml:2", "-2"});
  expect_parts(edits_error_of([] { options("edits:\n  - {scale_bandwidth: 0.5}\n"); }),
               {"edits.yaml:2", "'links'", "'route'"});
  expect_parts(edits_error_of([] { options("edits:\n  - {scale_latency: 2, route: [P1]}\n"); }),
               {"edits.yaml:2", "two host names"});
  expect_parts(edits_error_of([] { options("edits:\n  - {set_failure_probability: 1.5, hosts: P1}\n"); }),
               {"edits.yaml:2", "1.5"});
  expect_parts(edits_error_of([] { options("hosts: {regex: \"a[\"}\n"); }), {"edits.yaml:1", "regular expression"});
  expect_parts(edits_error_of([] { options("edits:\n  - {scale_speed: 2, hosts: P1, at: 3}\n"); }),
               {"edits.yaml:2", "at"});
}

// Found by fuzz_edits: a regex with a back-reference "\\666...6" (19 digits) was undefined behaviour inside
// libstdc++'s regex compiler (signed overflow, UBSan); 40,000 characters overflowed its recursive compiler's stack;
// {n} copies its operand n times.
TEST(PlatformEdits, RegexesStdRegexCannotTakeAreRefused)
{
  expect_parts(edits_error_of([] { options("hosts: {regex: \"b\\\\6666666666666666666\"}\n"); }),
               {"edits.yaml:1", "hosts.regex", "at most 4 digits"});
  expect_parts(edits_error_of([] { options("hosts: {regex: \"a{100000000}\"}\n"); }),
               {"edits.yaml:1", "'a{100000000}'", "at most 4 digits"});
  expect_parts(edits_error_of([] { options("hosts: {regex: \"a{2,99999}\"}\n"); }), {"edits.yaml:1", "4 digits"});
  expect_parts(edits_error_of([] { options("hosts: {regex: \"" + std::string(300, 'a') + "\"}\n"); }),
               {"edits.yaml:1", "at most 256 characters, got 300"});
  // host names with long numbers, bounded quantifiers and back-references stay usable
  for (const char* ok : {"node-123456", "b-[0-9]{1,3}", "(a)\\\\1", "x{2,1000}"})
    EXPECT_NO_THROW(options(fmt::format("hosts: {{regex: \"{}\"}}\n", ok))) << ok;
}

TEST(PlatformEdits, ModelSelectionAndHostEdits)
{
  Platform base     = small_model();
  Platform platform = apply_platform_options(base, options(R"(
hosts: ["P[1-3]"]
edits:
  - {scale_speed: 0.5, hosts: P3}
  - {remove_hosts: P1}
  - {set_failure_probability: 0.3, hosts: P2}
  - {scale_failure_probability: 2, hosts: "P*"}
  - {scale_bandwidth: 0.25, route: [P2, out]}
  - {scale_latency: 3, route: [P2, P3]}
)"));
  EXPECT_EQ(names(platform), (std::vector<std::string>{"P2", "P3"}));
  const int p2 = node(platform, "P2"), p3 = node(platform, "P3");
  EXPECT_EQ(platform.speed(p2), 2.0);
  EXPECT_EQ(platform.speed(p3), 1.5);
  EXPECT_DOUBLE_EQ(platform.processor(p2).failure_probability, 0.6);
  EXPECT_DOUBLE_EQ(platform.processor(p3).failure_probability, 0.2);
  EXPECT_EQ(platform.bandwidth(p2, platform.out()), 2.5); // route edits act on both directions
  EXPECT_EQ(platform.bandwidth(p3, platform.out()), 10.0);
  EXPECT_EQ(platform.latency(p2, p3), 3.0);
  EXPECT_EQ(platform.latency(p3, p2), 3.0);
  EXPECT_EQ(platform.latency(platform.in(), p2), 1.0);
  ASSERT_EQ(platform.applied_edits().size(), 6U);
  EXPECT_EQ(platform.applied_edits()[3].matched, (std::vector<std::string>{"P2", "P3"}));
  EXPECT_EQ(platform.applied_edits()[1].edit, "remove_hosts P1");
}

TEST(PlatformEdits, ModelEditsThatMatchNothingOrNeedXml)
{
  Platform base = small_model();
  expect_parts(edits_error_of([&] { apply_platform_options(base, options("hosts: [P1, Q7]\n")); }),
               {"edits.yaml:1", "'Q7'", "matches no processor"});
  expect_parts(
      edits_error_of([&] { apply_platform_options(base, options("edits:\n  - {scale_speed: 2, hosts: X*}\n")); }),
      {"edits.yaml:2", "scale_speed 2 on hosts X*", "matches no processor"});
  expect_parts(
      edits_error_of([&] { apply_platform_options(base, options("edits:\n  - {scale_bandwidth: 2, links: l1}\n")); }),
      {"edits.yaml:2", "SimGrid XML", "route"});
  expect_parts(edits_error_of([&] { apply_platform_options(base, options("hosts: {zone: ca}\n")); }),
               {"edits.yaml:1", "zone"});
  expect_parts(edits_error_of([&] { apply_platform_options(base, options("edits:\n  - {remove_hosts: \"*\"}\n")); }),
               {"edits.yaml:2", "every processor"});
  expect_parts(edits_error_of([&] {
                 apply_platform_options(base, options("edits:\n  - {scale_failure_probability: 10, hosts: P4}\n"));
               }),
               {"edits.yaml:2", "'P4'", "not below 1"});
  expect_parts(edits_error_of(
                   [&] { apply_platform_options(base, options("edits:\n  - {scale_latency: 2, route: [P1, Z]}\n")); }),
               {"edits.yaml:2", "'Z'"});
}

} // namespace
} // namespace pipesim

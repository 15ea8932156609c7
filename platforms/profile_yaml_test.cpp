// Tests of `platform.profiles` in YAML: the forms of a profile, the generator, and every error with its line.
#include "platforms/profile_yaml.hpp"

#include "base/input_error.hpp"
#include "platforms/platform_yaml.hpp"

#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

namespace pipesim {
namespace {

using ::testing::HasSubstr;

const char* const header = R"(platform:
  processors: [{name: P1, speed: 10}, {name: P2, speed: 20}, {name: P3, speed: 30}]
  bandwidth: 100
  latency: 0.5
  io: {in: io, out: io}
  profiles:
)";

PlatformProfiles parse_profiles(const std::string& profiles, bool xml = false, const std::string& dir = ".")
{
  YamlNode root     = load_yaml_text(header + profiles, "test.yaml");
  Platform platform = parse_platform_yaml(root.at("platform"));
  return parse_profiles_yaml(root.at("platform").at("profiles"), dir, xml ? nullptr : &platform);
}

std::string profile_yaml_error_of(const std::string& profiles, bool xml = false)
{
  try {
    parse_profiles(profiles, xml);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ProfileYaml, ListsMapsAndFiles)
{
  auto dir = std::filesystem::temp_directory_path() / ("pipesim-profile-yaml-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "p3.profile") << "0 0.5\n10 1\nLOOPAFTER 5\n";
  PlatformProfiles p = parse_profiles(R"(    hosts:
      - {host: P1, speed: [[0, 0.5], [60, 0.25]]}
      - {host: P2, speed: {points: [[0, 1], [30, 0.5]], period: 60}, state: [[100, 0], [110, 1]]}
      - {host: P3, speed: {file: p3.profile}, nic_out: [[5, 0.5]]}
    links:
      - {from: io, to: P1, bandwidth: [[10, 0.1]], latency: [[10, 2]]}
      - {from: P1, to: P2, bandwidth: [[20, 0.5]], directed: true}
)",
                                      false, dir.string());
  ASSERT_EQ(p.hosts.size(), 3u);
  EXPECT_EQ(p.hosts[0].speed->points, (std::vector<ProfilePoint>{{0, 0.5}, {60, 0.25}}));
  EXPECT_EQ(p.hosts[0].source, "test.yaml:8");
  EXPECT_EQ(p.hosts[1].speed->period, 60);
  EXPECT_EQ(p.hosts[1].state->points.size(), 2u);
  EXPECT_EQ(p.hosts[2].speed->period, 15); // the file's LOOPAFTER 5 after its last date 10
  EXPECT_EQ(p.hosts[2].nic_out->points.front().value, 0.5);
  ASSERT_EQ(p.pairs.size(), 3u); // io <-> P1 both ways, P1 -> P2 directed
  EXPECT_EQ(p.pairs[1].from, "P1");
  EXPECT_EQ(p.pairs[1].to, "io");
  EXPECT_EQ(p.pairs[2].to, "P2");
  std::filesystem::remove_all(dir);
}

TEST(ProfileYaml, BadInputNamesTheLineTheKeyAndTheValue)
{
  EXPECT_THAT(profile_yaml_error_of("    hosts: [{host: P1, speed: [[0, 1], [10, 0.5], [5, 1]]}]\n"),
              HasSubstr("test.yaml:7: key 'platform.profiles.hosts[0].speed[2]': value '[5, 1]': dates must increase"));
  EXPECT_THAT(profile_yaml_error_of("    hosts: [{host: P1, speed: [[0, -0.5]]}]\n"),
              HasSubstr("expected a speed > 0"));
  EXPECT_THAT(profile_yaml_error_of("    hosts: [{host: P1, speed: [[0, 0]]}]\n"), HasSubstr("expected a speed > 0"));
  EXPECT_THAT(profile_yaml_error_of("    hosts: [{host: P1, state: [[0, -1]]}]\n"), HasSubstr("expected a state >= 0"));
  EXPECT_THAT(profile_yaml_error_of("    links: [{from: P1, to: P2, bandwidth: [[0, -1]]}]\n"),
              HasSubstr("expected a bandwidth > 0"));
  EXPECT_THAT(profile_yaml_error_of("    hosts: [{host: P1, speed: {points: [[0, 1], [10, 2]], period: 10}}]\n"),
              HasSubstr("key 'platform.profiles.hosts[0].speed.period': value '10': the loop period must exceed"));
  EXPECT_THAT(profile_yaml_error_of("    hosts: [{host: P1, speed: {points: [[5, 1], [10, 2]], period: 8}}]\n"),
              HasSubstr("must exceed the last date (10 s)"));
  EXPECT_THAT(profile_yaml_error_of("    hosts: [{host: P9, speed: [[0, 1]]}]\n"),
              HasSubstr("value 'P9': not a processor of the platform (expected one of: P1, P2, P3)"));
  EXPECT_THAT(profile_yaml_error_of("    hosts: [{host: io, speed: [[0, 1]]}]\n"), HasSubstr("not a processor"));
  EXPECT_THAT(profile_yaml_error_of("    links: [{from: P1, to: P7, latency: [[0, 1]]}]\n"),
              HasSubstr("value 'P7': unknown host"));
  EXPECT_THAT(profile_yaml_error_of("    links: [{from: P1, to: P2}]\n"),
              HasSubstr("expected 'bandwidth' or 'latency'"));
  EXPECT_THAT(profile_yaml_error_of(
                  "    links: [{from: P1, to: P2, latency: [[0, 1]]}, {from: P2, to: P1, latency: [[0, 2]]}]\n"),
              HasSubstr("the link P2 -> P1 already has profiles (from test.yaml:7)"));
  EXPECT_THAT(profile_yaml_error_of("    hosts: [{host: P1, speed: [[0, 1]]}, {host: P1, speed: [[0, 2]]}]\n"),
              HasSubstr("host 'P1' already has a speed profile"));
  EXPECT_THAT(
      profile_yaml_error_of("    hosts: [{host: P1, speed: [[0, 1]]}]\n    generate: {seed: 1, epoch: 60, speed: 0.5, "
                            "horizon: 100}\n"),
      HasSubstr("host 'P1' already has a speed profile"));
  EXPECT_THAT(profile_yaml_error_of("    hosts: [{host: P1, speed: {file: nowhere.profile}}]\n"),
              HasSubstr("file not found"));
  EXPECT_THAT(profile_yaml_error_of("    hosts: [{host: P1, speed: 0.5}]\n"),
              HasSubstr("expected [[date, ratio], ...]"));
  EXPECT_THAT(profile_yaml_error_of("    hosts: [{host: P1, sped: [[0, 1]]}]\n"), HasSubstr("sped"));
  EXPECT_THAT(profile_yaml_error_of("    links: [{from: P1, to: P2, latency: [[0, 1]]}]\n", true),
              HasSubstr("the links of an XML platform take their profiles from the XML"));
  EXPECT_THAT(profile_yaml_error_of("    hosts: [{host: P1, nic_in: [[0, 1]]}]\n", true),
              HasSubstr("card profiles need"));
  EXPECT_THAT(profile_yaml_error_of("    generate: {seed: 1, epoch: 60, speed: 0.5, horizon: 100}\n", true),
              HasSubstr("missing key 'hosts'"));
  EXPECT_THAT(profile_yaml_error_of("    generate: {seed: 1, epoch: [0, 60], speed: 0.5, horizon: 100}\n"),
              HasSubstr("platform.profiles.generate.epoch[0]"));
}

TEST(ProfileYaml, GeneratorDrawsSeededEpochsPerHost)
{
  PlatformProfiles a = parse_profiles("    generate: {seed: 7, epoch: [60, 300], speed: [0.25, 1], horizon: 3600}\n");
  PlatformProfiles b =
      parse_profiles("    generate: {seed: 7, hosts: [P2], epoch: [60, 300], speed: [0.25, 1], horizon: 3600}\n");
  PlatformProfiles c = parse_profiles("    generate: {seed: 8, epoch: [60, 300], speed: [0.25, 1], horizon: 3600}\n");
  ASSERT_EQ(a.hosts.size(), 3u);
  ASSERT_EQ(b.hosts.size(), 1u);
  EXPECT_EQ(*a.hosts[1].speed, *b.hosts[0].speed); // a host's epochs do not depend on the other hosts
  EXPECT_NE(*a.hosts[0].speed, *a.hosts[1].speed);
  EXPECT_NE(*a.hosts[0].speed, *c.hosts[0].speed);
  EXPECT_EQ(a.hosts[0].speed->source, "generate (seed 7)");
  for (const auto& h : a.hosts) {
    const auto& points = h.speed->points;
    EXPECT_EQ(points.front().date, 0);
    EXPECT_LT(points.back().date, 3600);
    EXPECT_GE(points.size(), 3600 / 300u) << h.host;
    EXPECT_LE(points.size(), 3600 / 60u) << h.host;
    for (std::size_t i = 0; i < points.size(); ++i) {
      EXPECT_GE(points[i].value, 0.25) << h.host << " epoch " << i;
      EXPECT_LE(points[i].value, 1) << h.host << " epoch " << i;
      if (i == 0) continue;
      EXPECT_GE(points[i].date - points[i - 1].date, 60) << h.host << " epoch " << i;
      EXPECT_LE(points[i].date - points[i - 1].date, 300) << h.host << " epoch " << i;
    }
  }
}

} // namespace
} // namespace pipesim

// Host selection and what-if edits on the shipped XML platform two_clusters.xml (values checked against hand
// computations from the file).
#include "base/input_error.hpp"
#include "base/yaml_node.hpp"
#include "platforms/platform_edits.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace pipesim {
namespace {

std::string edits_example(const std::string& name)
{
  return std::string(PIPESIM_SOURCE_DIR) + "/platforms/examples/" + name;
}

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

std::vector<std::string> edits_names(const Platform& platform)
{
  std::vector<std::string> out;
  for (const auto& proc : platform.processors())
    out.push_back(proc.name);
  return out;
}

int edits_node(const Platform& platform, const std::string& name)
{
  if (auto u = platform.find(name)) return *u;
  throw std::out_of_range("no processor " + name);
}

// two_clusters.xml: a-i -> b-j crosses a-i's private link (125 MB/s, 50 us), ca's backbone (2.25 GB/s, 500 us),
// the link `backbone` (10 MB/s, 5 ms), cb's backbone (1 GB/s, 100 us) and b-j's private link (250 MB/s, 20 us).
TEST(PlatformEditsXml, SelectionByGlobRegexAndZone)
{
  Platform by_glob =
      load_xml_platform(edits_example("two_clusters.xml"), "io", "io", options("hosts: [\"a-[12]\", b-11]\n"));
  EXPECT_EQ(edits_names(by_glob), (std::vector<std::string>{"a-1", "a-2", "b-11"}));
  EXPECT_EQ(by_glob.bandwidth(edits_node(by_glob, "a-1"), edits_node(by_glob, "b-11")), 10e6);
  Platform by_zone = load_xml_platform(edits_example("two_clusters.xml"), "io", "io", options("hosts: {zone: cb}\n"));
  EXPECT_EQ(edits_names(by_zone), (std::vector<std::string>{"b-8", "b-9", "b-10", "b-11"}));
  Platform by_regex =
      load_xml_platform(edits_example("two_clusters.xml"), "io", "io", options("hosts: {regex: \"(a-3|b-1[01])\"}\n"));
  EXPECT_EQ(edits_names(by_regex), (std::vector<std::string>{"a-3", "b-10", "b-11"}));
  // the zone of the whole grid holds them all; the io host is never a processor
  EXPECT_EQ(load_xml_platform(edits_example("two_clusters.xml"), "io", "io", options("hosts: {zone: grid}\n")).p(), 8);
  expect_parts(edits_error_of([] {
                 load_xml_platform(edits_example("two_clusters.xml"), "io", "io",
                                   options("hosts: [a-1, {zone: cc}]\n"));
               }),
               {"edits.yaml:1", "{zone: cc}", "matches no processor"});
}

TEST(PlatformEditsXml, LinkEditsChangeTheRoutesThatCrossThem)
{
  Platform platform = load_xml_platform(edits_example("two_clusters.xml"), "io", "io", options(R"(
edits:
  - {scale_bandwidth: 0.5, links: backbone}
  - {scale_latency: 2, links: backbone}
)"));
  const int a1 = edits_node(platform, "a-1"), a2 = edits_node(platform, "a-2"), b8 = edits_node(platform, "b-8");
  EXPECT_EQ(platform.bandwidth(a1, b8), 5e6);
  EXPECT_EQ(platform.bandwidth(b8, a1), 5e6);
  EXPECT_NEAR(platform.latency(a1, b8), 50e-6 + 500e-6 + 10e-3 + 100e-6 + 20e-6, 1e-15);
  EXPECT_EQ(platform.bandwidth(a1, a2), 125e6); // inside cluster ca: unchanged
  ASSERT_EQ(platform.link_settings().size(), 1U);
  EXPECT_EQ(platform.link_settings()[0].link, "backbone");
  EXPECT_EQ(platform.link_settings()[0].bandwidth, 5e6);
  EXPECT_DOUBLE_EQ(platform.link_settings()[0].latency, 10e-3);
  ASSERT_EQ(platform.applied_edits().size(), 2U);
  EXPECT_EQ(platform.applied_edits()[0].matched, (std::vector<std::string>{"backbone"}));
}

TEST(PlatformEditsXml, RouteEditScalesEveryLinkOfTheRoute)
{
  Platform platform = load_xml_platform(edits_example("two_clusters.xml"), "io", "io",
                                        options("edits:\n  - {scale_bandwidth: 0.5, route: [a-1, b-8]}\n"));
  const int a1 = edits_node(platform, "a-1"), a2 = edits_node(platform, "a-2"), b8 = edits_node(platform, "b-8");
  EXPECT_EQ(platform.bandwidth(a1, b8), 5e6);
  EXPECT_EQ(platform.bandwidth(a1, a2), 62.5e6); // a-1's private link is on the route: halved
  EXPECT_EQ(platform.bandwidth(a2, platform.out()), 100e6);
  EXPECT_GE(platform.applied_edits().at(0).matched.size(), 3U);
}

TEST(PlatformEditsXml, HostEditsAndRemoval)
{
  Platform platform = load_xml_platform(edits_example("two_clusters.xml"), "io", "io", options(R"(
edits:
  - {scale_speed: 0.5, hosts: {zone: cb}}
  - {remove_hosts: [a-4, b-11]}
  - {set_failure_probability: 0.01, hosts: "a-*"}
  - {scale_failure_probability: 2, hosts: {zone: ca}}
)"));
  EXPECT_EQ(edits_names(platform), (std::vector<std::string>{"a-1", "a-2", "a-3", "b-8", "b-9", "b-10"}));
  EXPECT_EQ(platform.speed(edits_node(platform, "b-9")), 1.25e9);
  EXPECT_EQ(platform.speed(edits_node(platform, "a-1")), 1e9);
  EXPECT_EQ(platform.processor(edits_node(platform, "a-2")).failure_probability, 0.02);
  EXPECT_EQ(platform.processor(edits_node(platform, "b-8")).failure_probability, 0.0);
  EXPECT_EQ(platform.applied_edits().at(1).matched, (std::vector<std::string>{"a-4", "b-11"}));
}

TEST(PlatformEditsXml, LinkDownFromTheStartMakesItsRoutesUnreachable)
{
  Platform platform =
      load_xml_platform(edits_example("two_clusters.xml"), "io", "io", options("edits:\n  - {fail_link: backbone}\n"));
  const int a1 = edits_node(platform, "a-1"), a2 = edits_node(platform, "a-2"), b8 = edits_node(platform, "b-8");
  EXPECT_FALSE(platform.reachable(a1, b8));
  EXPECT_FALSE(platform.reachable(b8, a1));
  EXPECT_EQ(platform.transfer_time(a1, b8, 1.0), unbounded);
  EXPECT_TRUE(platform.reachable(a1, a2));
  EXPECT_TRUE(platform.reachable(platform.in(), b8)); // io reaches each cluster by its own link
  ASSERT_EQ(platform.link_failures().size(), 1U);
  EXPECT_EQ(platform.link_failures()[0].link, "backbone");
  EXPECT_EQ(platform.link_failures()[0].time, 0.0);
}

TEST(PlatformEditsXml, LaterLinkFailureKeepsTheRoutesForTheModel)
{
  // the analytic figures describe the platform before the failure; the simulations turn the link off at 30 s
  Platform platform = load_xml_platform(edits_example("two_clusters.xml"), "io", "io",
                                        options("edits:\n  - {fail_link: [backbone, io_link], at: 30}\n"));
  const int a1 = edits_node(platform, "a-1"), b8 = edits_node(platform, "b-8");
  EXPECT_EQ(platform.bandwidth(a1, b8), 10e6);
  ASSERT_EQ(platform.link_failures().size(), 2U);
  EXPECT_EQ(platform.link_failures()[1].link, "io_link");
  EXPECT_EQ(platform.link_failures()[1].time, 30.0);
  EXPECT_EQ(platform.applied_edits().at(0).matched, (std::vector<std::string>{"backbone", "io_link"}));
}

TEST(PlatformEditsXml, EditsThatMatchNothingAreErrors)
{
  const std::string file = edits_example("two_clusters.xml");
  expect_parts(edits_error_of([&] {
                 load_xml_platform(file, "io", "io",
                                   options("edits:\n  - {scale_bandwidth: 2, links: [backbone, bb2]}\n"));
               }),
               {"edits.yaml:2", "'bb2'"});
  expect_parts(edits_error_of(
                   [&] { load_xml_platform(file, "io", "io", options("edits:\n  - {scale_speed: 2, hosts: c-*}\n")); }),
               {"edits.yaml:2", "c-*", "matches no processor"});
  expect_parts(
      edits_error_of([&] { load_xml_platform(file, "io", "io", options("edits:\n  - {remove_hosts: io}\n")); }),
      {"edits.yaml:2", "io", "matches no processor"});
  expect_parts(edits_error_of([&] {
                 load_xml_platform(file, "io", "io",
                                   options("edits:\n  - {scale_latency: 2, route: [a-1, nowhere]}\n"));
               }),
               {"edits.yaml:2", "'nowhere'"});
}

TEST(PlatformEditsXml, SitesWithoutRouteAreUnreachable)
{
  // two zones and no zoneRoute between them: SimGrid has no route from one to the other
  auto dir = std::filesystem::temp_directory_path() / fmt::format("pipesim-islands-{}", ::getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "islands.xml") << R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="left" prefix="l-" suffix="" radical="1-2" speed="1Gf" bw="125MBps" lat="50us"/>
    <cluster id="right" prefix="r-" suffix="" radical="1-2" speed="1Gf" bw="125MBps" lat="50us"/>
    <zone id="io_zone" routing="None"><host id="io" speed="1Gf"/></zone>
    <link id="io_l" bandwidth="100MBps" latency="1ms"/>
    <zoneRoute src="io_zone" dst="left" gw_src="io" gw_dst="l-left_router"><link_ctn id="io_l"/></zoneRoute>
    <zoneRoute src="io_zone" dst="right" gw_src="io" gw_dst="r-right_router"><link_ctn id="io_l"/></zoneRoute>
  </zone>
</platform>
)";
  Platform platform = load_xml_platform((dir / "islands.xml").string(), "io", "io");
  std::filesystem::remove_all(dir);
  const int l1 = edits_node(platform, "l-1"), l2 = edits_node(platform, "l-2"), r1 = edits_node(platform, "r-1");
  EXPECT_FALSE(platform.reachable(l1, r1));
  EXPECT_FALSE(platform.reachable(r1, l1));
  EXPECT_TRUE(platform.reachable(l1, l2));
  EXPECT_TRUE(platform.reachable(platform.in(), r1));
  EXPECT_EQ(platform.bandwidth(l1, l2), 125e6);
}

} // namespace
} // namespace pipesim

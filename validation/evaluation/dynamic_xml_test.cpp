// Time-varying XML platforms (DESIGN.md §3.11, issue 34): a platform written for these tests on the model of SimGrid's
// examples/platforms/small_platform_profile.xml and two_hosts_profiles.xml (a host with a looping speed profile, a
// link with bandwidth and latency profiles, a host with a state profile), simulated in both network modes in bounded
// memory; and the export of a YAML platform with profiles, which must simulate exactly as the YAML one.
#include "base/input_error.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "platforms/simgrid/simgrid_profiles.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace pipesim;
namespace fs = std::filesystem;

namespace {

/// A fresh directory for one test's files, removed at the end.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / fmt::format("pipesim-{}-{}", name, ::getpid()))
  {
    fs::create_directories(path / "profiles");
  }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string& file, const std::string& text) const { std::ofstream(path / file) << text; }
};

/// Five hosts, a link of its own between each two (10 B/s, 0.1 s). P1's speed halves from 150 s to 300 s and again
/// every 300 s (as jupiter_speed.profile, LOOPAFTER after the last point); the io - P1 link goes to 5 B/s at 100 and
/// back to 10 at 250, its latency to 0.3 at 50 and back to 0.1 at 200, both repeating every 350 s (as
/// link1_bandwidth.profile and link1_latency.profile: absolute values); P3 turns off at 500 (trace_A_failure.profile).
void write_platform(const TempDir& dir)
{
  std::vector<std::string> hosts{"io", "P1", "P2", "P3", "P4"};
  std::string xml = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                    "<platform version=\"4.1\">\n  <zone id=\"AS0\" routing=\"Full\">\n"
                    "    <host id=\"io\" speed=\"1f\"/>\n"
                    "    <host id=\"P1\" speed=\"10f\" speed_file=\"profiles/p1_speed.profile\"/>\n"
                    "    <host id=\"P2\" speed=\"20f\"/>\n"
                    "    <host id=\"P3\" speed=\"15f\" state_file=\"profiles/p3_state.profile\"/>\n"
                    "    <host id=\"P4\" speed=\"10f\"/>\n";
  std::string routes;
  for (std::size_t a = 0; a < hosts.size(); ++a)
    for (std::size_t b = a + 1; b < hosts.size(); ++b) {
      std::string id = hosts[a] + "-" + hosts[b];
      xml += "    <link id=\"" + id + "\" bandwidth=\"10Bps\" latency=\"100ms\"" +
             (id == "io-P1" ? " bandwidth_file=\"profiles/link_bandwidth.profile\" "
                              "latency_file=\"profiles/link_latency.profile\""
                            : "") +
             "/>\n";
      routes += "    <route src=\"" + hosts[a] + "\" dst=\"" + hosts[b] + "\"><link_ctn id=\"" + id + "\"/></route>\n";
    }
  dir.write("platform.xml", xml + routes + "  </zone>\n</platform>\n");
  dir.write("profiles/p1_speed.profile", "0 1.0\n150 0.5\nLOOPAFTER 150\n");
  dir.write("profiles/link_bandwidth.profile", "100 5\n250 10\nLOOPAFTER 100\n");
  dir.write("profiles/link_latency.profile", "50 0.3\n200 0.1\nLOOPAFTER 150\n");
  dir.write("profiles/p3_state.profile", "500 0.0\n");
}

std::string scenario(const std::string& network)
{
  return fmt::format(R"(pipeline: {{w: [20, 40, 30], delta: [10, 5, 8, 4]}}
platform: {{file: platform.xml, io: {{in: io, out: io}}}}
mapping: [{{stages: [1], replicas: [P1]}}, {{stages: [2], replicas: [P2]}}, {{stages: [3], replicas: [P3, P4]}}]
simulation: {{datasets: 400, window: 3, seed: 1, network: {}}}
)",
                     network);
}

/// Simulations run in children that inherit this bound: a looping profile must not make memory grow without end.
void bound_memory()
{
#ifndef PIPESIM_SANITIZE
  rlimit limit{std::size_t{4} << 30, std::size_t{4} << 30};
  ASSERT_EQ(::setrlimit(RLIMIT_AS, &limit), 0);
#endif
}

TEST(DynamicXml, TheModelReadsTheProfileFiles)
{
  TempDir dir("dynamic-xml-model");
  write_platform(dir);
  Platform p                       = load_xml_platform((dir.path / "platform.xml").string(), "io", "io");
  const PlatformProfiles& profiles = p.profiles();
  ASSERT_NE(profiles.host("P1"), nullptr);
  EXPECT_EQ(profiles.host("P1")->speed->period, 300); // last date 150 + LOOPAFTER 150
  EXPECT_TRUE(profiles.host("P1")->speed_from_xml);
  EXPECT_TRUE(profiles.host("P3")->state_from_xml);
  ASSERT_NE(profiles.link("io-P1"), nullptr);
  EXPECT_EQ(profiles.link("io-P1")->latency_profile->period, 350);
  EXPECT_EQ(profiles.routes.size(), 4u); // P_in -> P1, P1 -> P_in, P_out -> P1, P1 -> P_out (io is both)
  int p1 = *p.find("P1");
  EXPECT_EQ(platform_at(p, 120).bandwidth(p.in(), p1), 5);
  EXPECT_NEAR(platform_at(p, 120).latency(p.in(), p1), 0.3, 1e-15);
  EXPECT_EQ(platform_at(p, 260).bandwidth(p.in(), p1), 10);
  EXPECT_EQ(platform_at(p, 460).bandwidth(p.in(), p1), 5); // 100 + 350
  EXPECT_EQ(platform_at(p, 460).speed(p1), 5);             // [450, 600): 0.5 x 10 flop/s
  EXPECT_EQ(platform_at(p, 620).speed(p1), 10);
  EXPECT_EQ(hosts_off_at(p, 510), std::vector<std::string>{"P3"});
}

TEST(DynamicXml, AScenarioAddsHostProfilesToTheXmlOnes)
{
  TempDir dir("dynamic-xml-merge");
  write_platform(dir);
  auto load = [&](const std::string& profiles) {
    std::string text = scenario("exact");
    text.replace(text.find("io: {in: io, out: io}}"), 22,
                 "io: {in: io, out: io}, profiles: {hosts: [" + profiles + "]}}");
    return load_platform(parse_scenario(text, "test.yaml", dir.path.string()));
  };
  Platform p = load("{host: P2, speed: [[10, 0.5]]}, {host: P1, state: [[700, 0]]}");
  ASSERT_NE(p.profiles().host("P2"), nullptr);
  EXPECT_EQ(platform_at(p, 20).speed(*p.find("P2")), 10);
  EXPECT_TRUE(p.profiles().host("P1")->speed_from_xml); // the XML's speed profile stays, the state is added
  EXPECT_EQ(hosts_off_at(p, 800), (std::vector<std::string>{"P1", "P3"}));
  try {
    load("{host: P1, speed: [[10, 0.5]]}");
    ADD_FAILURE() << "a second speed profile for P1 was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("test.yaml:2: key 'platform.profiles': value 'P1': the XML already gives it "
                                         "a speed profile"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(load("{host: P9, speed: [[10, 0.5]]}"), InputError);
}

TEST(DynamicXml, ExactModeFollowsTheAnalyticSeriesAndSimgridModeEnds)
{
  TempDir dir("dynamic-xml-run");
  write_platform(dir);
  bound_memory();
  for (const char* network : {"exact", "simgrid"}) {
    ScenarioRun run = map_scenario(parse_scenario(scenario(network), "test.yaml", dir.path.string()));
    simulate_run(run);
    ASSERT_TRUE(run.simulated && run.series) << network;
    EXPECT_EQ(run.simulated->failures.verdict, Verdict::survived) << network;
    EXPECT_EQ(run.simulated->output_times.size(), 400u) << network;
    if (std::string(network) == "simgrid") continue;
    auto epochs = compare_series(run.series->analytic, run.series->throughput, run.simulated->output_times, 1e-9);
    int steady = 0, epochs_with_steady = 0;
    for (std::size_t i = 0; i < epochs.size(); ++i) {
      EXPECT_EQ(epochs[i].mismatched, 0) << "epoch from " << run.series->analytic[i].start << ": largest error "
                                         << epochs[i].max_error;
      steady += epochs[i].steady;
      epochs_with_steady += epochs[i].steady > 0;
    }
    EXPECT_GE(run.series->analytic.size(), 10u);
    EXPECT_GE(epochs_with_steady, 8);
    EXPECT_GE(steady, 60);
  }
}

TEST(DynamicXml, AnExportedYamlPlatformSimulatesAsTheYamlOne)
{
  // every kind a model platform takes (a looping speed, a state, a pair's bandwidth and latency), written out as XML
  // and profile files: the exact simulation of both gives the same output times.
  TempDir dir("dynamic-export");
  const std::string yaml = R"(pipeline: {w: [20, 40, 30], delta: [10, 5, 8, 4]}
platform:
  processors: [{name: P1, speed: 10}, {name: P2, speed: 20}, {name: P3, speed: 15}, {name: P4, speed: 10}]
  bandwidth: 10
  latency: 0.1
  io: {in: io, out: io}
  profiles:
    hosts:
      - {host: P1, speed: {points: [[0, 1], [150, 0.5]], period: 300}}
      - {host: P3, state: [[500, 0]]}
    links: [{from: io, to: P1, bandwidth: [[100, 0.5], [250, 1]], latency: [[50, 3], [200, 1]]}]
mapping: [{stages: [1], replicas: [P1]}, {stages: [2], replicas: [P2]}, {stages: [3], replicas: [P3, P4]}]
simulation: {datasets: 300, seed: 1}
)";
  Scenario from_yaml     = parse_scenario(yaml, "test.yaml");
  Platform model         = load_platform(from_yaml);
  dir.write("exported.xml", export_xml(model, "exported-"));
  for (const auto& file : exported_profiles(model, "exported-"))
    dir.write(file.file, file.text);
  Scenario from_xml          = from_yaml;
  from_xml.platform          = PlatformSpec{};
  from_xml.platform.kind     = PlatformSpec::Kind::xml;
  from_xml.platform.xml_file = (dir.path / "exported.xml").string();
  from_xml.platform.in_name = from_xml.platform.out_name = "io";
  ScenarioRun a                                          = map_scenario(from_yaml);
  ScenarioRun b                                          = map_scenario(from_xml);
  simulate_run(a);
  simulate_run(b);
  ASSERT_EQ(a.simulated->output_times.size(), 300u);
  ASSERT_EQ(b.simulated->output_times.size(), 300u);
  for (std::size_t k = 0; k < 300; ++k)
    ASSERT_NEAR(a.simulated->output_times[k], b.simulated->output_times[k], 1e-9 * a.simulated->output_times[k])
        << "data set " << k + 1;
  ASSERT_EQ(a.series->analytic.size(), b.series->analytic.size());
  for (std::size_t i = 0; i < a.series->analytic.size(); ++i)
    EXPECT_NEAR(a.series->analytic[i].period, b.series->analytic[i].period, 1e-12 * a.series->analytic[i].period);
}

} // namespace

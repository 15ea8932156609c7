// Tests of `simulation.failures` and `simulation.runs`: every form parses to its settings, bad input names file:line.
#include "base/input_error.hpp"
#include "model/analytic.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/scenario_test_util.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

/// A scenario on P1, P2 (YAML platform) whose `simulation:` section starts at line 4, then `lines`.
std::string with_simulation(const std::string& lines)
{
  return "pipeline: {w: [1], delta: [1, 1]}\n"
         "platform: {processors: [{name: P1, speed: 1}, {name: P2, speed: 2}], bandwidth: 1}\n"
         "mapping: [{stages: [1], replicas: [P1, P2]}]\n"
         "simulation:\n" +
         lines;
}

/// The same on platforms/examples/star.xml (processors cpu-1..cpu-5, io).
std::string on_xml(const std::string& lines)
{
  return "pipeline: {w: [1], delta: [1, 1]}\n"
         "platform: {file: platforms/examples/star.xml, io: {in: io, out: io}}\n"
         "mapping: [{stages: [1], replicas: [cpu-1]}]\n"
         "simulation:\n" +
         lines;
}

FailureSettings failures_of(const std::string& text)
{
  return parse_scenario(text, "test.yaml", PIPESIM_SOURCE_DIR).simulation.failures;
}

TEST(ScenarioFailures, ShippedExample)
{
  Scenario s = load_scenario(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/failures.yaml");
  EXPECT_EQ(s.simulation.model, CommModel::multi_port);
  EXPECT_EQ(s.simulation.failures.model, FailureModel::probability);
  EXPECT_EQ(s.simulation.failures.window_begin, 0);
  EXPECT_EQ(s.simulation.failures.window_end, 0.5);
  EXPECT_EQ(s.simulation.failures.election, ElectionPolicy::first);
  EXPECT_EQ(s.simulation.runs, 200);
  Mapping mapping = resolve_mapping(*s.mapping, s.pipeline, s.platform.model);
  EXPECT_TRUE(mapping.replicated());
  EXPECT_EQ(classify(mapping), MappingRule::interval);
  // The header's F: bbr10 eq. (2), 1 - (1 - 0.3 * 0.4)(1 - 0.2 * 0.3).
  EXPECT_NEAR(bbr10_eq2_failure_probability(s.platform.model, mapping), 0.1728, 1e-12);
}

TEST(ScenarioFailures, Defaults)
{
  Scenario s = parse_scenario(with_simulation("  datasets: 10\n"), "test.yaml");
  EXPECT_EQ(s.simulation.failures.model, FailureModel::none);
  EXPECT_FALSE(s.simulation.failures.enabled());
  EXPECT_EQ(s.simulation.failures.window_begin, 0);
  EXPECT_EQ(s.simulation.failures.window_end, 0.5);
  EXPECT_TRUE(s.simulation.failures.trace.empty());
  EXPECT_EQ(s.simulation.failures.election, ElectionPolicy::first);
  EXPECT_EQ(s.simulation.runs, 1);
}

TEST(ScenarioFailures, StringForms)
{
  for (const char* name : {"none", "probability", "exponential"}) {
    FailureSettings f = failures_of(with_simulation(std::string("  failures: ") + name + "\n"));
    EXPECT_STREQ(to_string(f.model), name);
    EXPECT_EQ(f.window_begin, 0);
    EXPECT_EQ(f.window_end, 0.5);
    EXPECT_EQ(f.election, ElectionPolicy::first);
  }
  EXPECT_EQ(failures_of(on_xml("  failures: platform\n")).model, FailureModel::platform);
}

TEST(ScenarioFailures, MapForms)
{
  FailureSettings p = failures_of(with_simulation("  failures: {model: probability, window: [0.1, 0.9]}\n"));
  EXPECT_EQ(p.model, FailureModel::probability);
  EXPECT_EQ(p.window_begin, 0.1);
  EXPECT_EQ(p.window_end, 0.9);
  FailureSettings point = failures_of(with_simulation("  failures: {model: probability, window: [0.3, 0.3]}\n"));
  EXPECT_EQ(point.window_begin, 0.3);
  EXPECT_EQ(point.window_end, 0.3);
  FailureSettings e = failures_of(with_simulation("  failures: {model: exponential, election: first}\n"));
  EXPECT_EQ(e.model, FailureModel::exponential);
  EXPECT_EQ(e.election, ElectionPolicy::first);
  FailureSettings t = failures_of(with_simulation(R"(  failures:
    model: trace
    crashes:
      - {host: P2, time: 0.5}
      - {host: P1, time: 0}
)"));
  EXPECT_EQ(t.model, FailureModel::trace);
  EXPECT_EQ(t.trace, (std::vector<Crash>{{"P2", 0.5}, {"P1", 0.0}}));
  EXPECT_TRUE(failures_of(with_simulation("  failures: {model: trace, crashes: []}\n")).trace.empty());
  EXPECT_EQ(failures_of(on_xml("  failures: {model: platform}\n")).model, FailureModel::platform);
  // On an XML platform the hosts are checked when the schedule is drawn (draw_crash_schedule), not here.
  FailureSettings x = failures_of(on_xml("  failures: {model: trace, crashes: [{host: cpu-9, time: 1}]}\n"));
  EXPECT_EQ(x.trace, (std::vector<Crash>{{"cpu-9", 1.0}}));
}

TEST(ScenarioFailures, Runs)
{
  Scenario s = parse_scenario(with_simulation("  failures: probability\n  runs: 200\n"), "test.yaml");
  EXPECT_EQ(s.simulation.runs, 200);
  EXPECT_EQ(parse_scenario(with_simulation("  runs: 1\n"), "test.yaml").simulation.runs, 1);
  expect_input_error(with_simulation("  runs: 0\n"), {"test.yaml:5:", "simulation.runs", "value '0'", "[1, 1000000]"});
  expect_input_error(with_simulation("  runs: 2.5\n"), {"test.yaml:5:", "simulation.runs", "'2.5'", "integer"});
}

TEST(ScenarioFailuresErrors, UnknownModel)
{
  expect_input_error(with_simulation("  failures: weibull\n"),
                     {"test.yaml:5:", "key 'simulation.failures'", "value 'weibull'",
                      "expected one of: none, probability, exponential, trace, platform"});
  expect_input_error(with_simulation("  failures:\n    model: weibull\n"),
                     {"test.yaml:6:", "simulation.failures.model", "'weibull'", "none, probability"});
  expect_input_error(with_simulation("  failures: [probability]\n"),
                     {"test.yaml:5:", "simulation.failures", "{model: ..., ...}"});
}

TEST(ScenarioFailuresErrors, UnknownOrMissingKey)
{
  expect_input_error(
      with_simulation("  failures:\n    model: probability\n    shape: 2\n"),
      {"test.yaml:7:", "simulation.failures.shape", "expected one of: model, window, crashes, election"});
  expect_input_error(with_simulation("  failures:\n    window: [0, 1]\n"),
                     {"test.yaml:6:", "key 'simulation.failures.model': missing"});
}

TEST(ScenarioFailuresErrors, Window)
{
  expect_input_error(with_simulation("  failures: {model: exponential, window: [0, 1]}\n"),
                     {"test.yaml:5:", "simulation.failures.window", "probability model only"});
  expect_input_error(with_simulation("  failures:\n    model: probability\n    window: [0.6, 0.2]\n"),
                     {"test.yaml:7:", "simulation.failures.window", "'[0.6, 0.2]'", "0 <= begin <= end"});
  expect_input_error(with_simulation("  failures:\n    model: probability\n    window: [0, 0.5, 1]\n"),
                     {"test.yaml:7:", "simulation.failures.window", "[begin, end]"});
  expect_input_error(with_simulation("  failures:\n    model: probability\n    window: 0.5\n"),
                     {"test.yaml:7:", "simulation.failures.window", "'0.5'", "[begin, end]"});
  expect_input_error(with_simulation("  failures:\n    model: probability\n    window: [-0.1, 0.5]\n"),
                     {"test.yaml:7:", "simulation.failures.window[0]", "'-0.1'", ">= 0"});
  expect_input_error(with_simulation("  failures:\n    model: probability\n    window: [0, .inf]\n"),
                     {"test.yaml:7:", "simulation.failures.window[1]", "'.inf'", "expected a number"});
}

TEST(ScenarioFailuresErrors, Trace)
{
  expect_input_error(with_simulation("  failures: trace\n"),
                     {"test.yaml:5:", "simulation.failures", "'trace'", "needs its crashes"});
  expect_input_error(with_simulation("  failures:\n    model: trace\n"),
                     {"test.yaml:6:", "simulation.failures", "needs 'crashes'"});
  expect_input_error(with_simulation("  failures:\n    model: probability\n    crashes: [{host: P1, time: 1}]\n"),
                     {"test.yaml:7:", "simulation.failures.crashes", "trace model only"});
  expect_input_error(with_simulation(R"(  failures:
    model: trace
    crashes:
      - {host: P1, time: 1}
      - {host: P2, time: -1}
)"),
                     {"test.yaml:9:", "simulation.failures.crashes[1].time", "'-1'", ">= 0"});
  expect_input_error(with_simulation(R"(  failures:
    model: trace
    crashes:
      - {host: P1, when: 1}
)"),
                     {"test.yaml:8:", "simulation.failures.crashes[0].when", "expected one of: host, time"});
  expect_input_error(with_simulation(R"(  failures:
    model: trace
    crashes:
      - {time: 1}
)"),
                     {"test.yaml:8:", "key 'simulation.failures.crashes[0].host': missing"});
  expect_input_error(with_simulation(R"(  failures:
    model: trace
    crashes:
      - {host: P1, time: 1}
      - {host: P9, time: 2}
)"),
                     {"test.yaml:9:", "simulation.failures.crashes[1].host", "'P9'",
                      "not a processor of the platform (expected one of: P1, P2)"});
  expect_input_error(with_simulation("  failures: {model: trace, crashes: [{host: in, time: 2}]}\n"),
                     {"test.yaml:5:", "simulation.failures.crashes[0].host", "'in'", "not a processor"});
}

TEST(ScenarioFailuresErrors, PlatformModelNeedsAnXmlPlatform)
{
  expect_input_error(with_simulation("  failures: platform\n"),
                     {"test.yaml:5:", "key 'simulation.failures'", "value 'platform'", "SimGrid XML", "platform.file"});
  expect_input_error(with_simulation("  failures:\n    model: platform\n"),
                     {"test.yaml:6:", "simulation.failures.model", "'platform'", "platform.file"});
}

TEST(ScenarioFailures, EveryElectionPolicyParses)
{
  // `first` (the default) and the bbr10 §6.1 elections by the names of bbr10_election
  // (model/bbr10/election_table.hpp)
  for (const char* name :
       {"first", "first-alive", "random", "max-bout", "min-comm", "min-nb-procs", "best", "exhaustive"}) {
    FailureSettings f =
        failures_of(with_simulation(std::string("  failures: {model: probability, election: ") + name + "}\n"));
    EXPECT_STREQ(to_string(f.election), name);
  }
}

TEST(ScenarioFailuresErrors, Election)
{
  expect_input_error(with_simulation("  failures:\n    model: probability\n    election: last\n"),
                     {"test.yaml:7:", "simulation.failures.election", "value 'last'",
                      "unknown election policy (expected one of: first, best, exhaustive, first-alive, max-bout, "
                      "min-comm, min-nb-procs, random)"});
  // the names are case-sensitive and spelled with hyphens, as bbr10_election takes them
  expect_input_error(with_simulation("  failures: {model: none, election: MinComm}\n"),
                     {"test.yaml:5:", "simulation.failures.election", "value 'MinComm'", "min-comm"});
  expect_input_error(with_simulation("  failures: {model: none, election: min_comm}\n"),
                     {"test.yaml:5:", "simulation.failures.election", "value 'min_comm'"});
  expect_input_error(with_simulation("  failures: {model: none, election: [first]}\n"),
                     {"test.yaml:5:", "simulation.failures.election"});
}

} // namespace
} // namespace pipesim

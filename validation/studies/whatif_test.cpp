// What-if studies on the shipped two_clusters.xml: periods after edits against eq. (2) written out by hand, the
// simulation against them, and the statuses of mappings that an edit breaks.
#include "base/input_error.hpp"
#include "validation/evaluation/scenario_run.hpp"
#include "validation/studies/whatif.hpp"
#include "validation/studies/whatif_plots.hpp"

#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

const std::string source_dir = PIPESIM_SOURCE_DIR;

Scenario whatif_example(int datasets)
{
  Scenario s                = load_scenario(source_dir + "/scenarios/examples/whatif.yaml");
  s.simulation.datasets     = datasets;
  s.simulation.warmup       = -1;
  s.simulation.failures     = FailureSettings{}; // fault-free: the periods are the point here
  s.simulation.runs         = 1;
  s.simulation.record_trace = false;
  return s;
}

WhatIfOptions whatif_options(bool simulate)
{
  WhatIfOptions o;
  o.simulate = simulate;
  o.jobs     = 2;
  return o;
}

TEST(WhatIf, BackboneHalvedFixedMappingMatchesEq2ByHand)
{
  // two_clusters.xml: a-i -> b-j crosses a-i's private link (125 MB/s, 50 us), ca's backbone (2.25 GB/s, 500 us),
  // `backbone` (10 MB/s, 5 ms), cb's backbone (1 GB/s, 100 us), b-j's private link (250 MB/s, 20 us).
  WhatIfStudy study = run_whatif(whatif_example(40),
                                 parse_whatif_variants("- {name: halved, edits: [{scale_bandwidth: 0.5, links: "
                                                       "backbone}]}\n",
                                                       "edits.yaml"),
                                 whatif_options(true));
  ASSERT_EQ(study.baseline.mapping, "[1]:b-8 [2]:b-9 [3]:b-10 [4]:b-11 [5]:a-1 [6]:a-2");
  // the bottleneck is a-1 (stage 5): receive delta_4 = 2e6 from b-11 across the backbone, compute 2e9 at 1e9,
  // send delta_5 = 1e6 to a-2 (125 MB/s, 50 + 500 + 50 us)
  const double c_backbone = 20e-6 + 100e-6 + 5e-3 + 500e-6 + 50e-6;
  const double out        = 1e6 / 125e6 + 600e-6;
  EXPECT_NEAR(study.baseline.analytic_period, 2e6 / 10e6 + c_backbone + 2.0 + out, 1e-12);
  const WhatIfRow& row = study.rows.at(0);
  ASSERT_EQ(row.fixed.status, WhatIfStatus::ok);
  const double halved = 2e6 / 5e6 + c_backbone + 2.0 + out;
  EXPECT_NEAR(row.fixed.analytic_period, halved, 1e-12);
  ASSERT_TRUE(row.fixed.simulated_period);
  EXPECT_NEAR(*row.fixed.simulated_period, halved, 1e-9 * halved);
  ASSERT_EQ(row.edits.size(), 1U);
  EXPECT_EQ(row.edits[0].matched, (std::vector<std::string>{"backbone"}));
  EXPECT_EQ(row.remapped.status, WhatIfStatus::ok);
  EXPECT_LE(row.remapped.analytic_period, row.fixed.analytic_period + 1e-12); // re-mapping never does worse (optimal)
}

/// Eq. (2) of br07 for a one-to-one mapping, written out: max over the used processors of
/// delta_in / b + c + w / s + delta_out / b + c, with every bandwidth multiplied by `scale`.
double eq2_by_hand(const Pipeline& pipeline, const Platform& platform, const std::vector<int>& procs, double scale)
{
  double period = 0;
  for (std::size_t i = 0; i < procs.size(); ++i) {
    int u     = procs[i];
    int from  = i == 0 ? platform.in() : procs[i - 1];
    int to    = i + 1 == procs.size() ? platform.out() : procs[i + 1];
    auto s    = static_cast<int>(i) + 1; // stage
    double in = pipeline.data(s - 1) / (scale * platform.bandwidth(from, u)) + platform.latency(from, u);
    double ot = pipeline.data(s) / (scale * platform.bandwidth(u, to)) + platform.latency(u, to);
    period    = std::max(period, in + pipeline.work(s, s) / platform.speed(u) + ot);
  }
  return period;
}

TEST(WhatIf, HalvingEveryBandwidthDoublesTheCommunicationTerms)
{
  // mesh_latency.xml: a dedicated link per pair, so no two transfers of this mapping share a link (on
  // two_clusters.xml P_in's and P_out's transfers share io_link and the simulation is slower than eq. (2):
  // docs/whatif.md) communication-bound: 40 MB per transfer, 0.1 Gflop per stage
  Scenario s         = parse_scenario(fmt::format(R"(pipeline: {{w: [1e8, 1e8], delta: [4e7, 4e7, 4e7]}}
platform: {{file: {}/platforms/examples/mesh_latency.xml, io: {{in: io, out: io}}}}
mapping:
  - {{stages: [1], replicas: [m1]}}
  - {{stages: [2], replicas: [m4]}}
simulation: {{model: one-port, network: exact, datasets: 30, seed: 3}}
)",
                                                  source_dir),
                                      "halving.yaml");
  ScenarioRun base   = map_scenario(s);
  std::vector<int> p = {*base.platform.find("m1"), *base.platform.find("m4")};
  double before      = eq2_by_hand(s.pipeline, base.platform, p, 1.0);
  double after       = eq2_by_hand(s.pipeline, base.platform, p, 0.5);
  ASSERT_NEAR(base.analytic.period, before, 1e-12 * before);
  // every transfer term doubles, latencies and computations stay: the bottleneck's period grows by its X/b terms
  WhatIfStudy study =
      run_whatif(s, parse_whatif_variants("- {name: all, edits: [{scale_bandwidth: 0.5, links: \"*\"}]}\n", "e.yaml"),
                 whatif_options(true));
  const WhatIfFigures& fixed = study.rows.at(0).fixed;
  ASSERT_EQ(fixed.status, WhatIfStatus::ok);
  EXPECT_NEAR(fixed.analytic_period, after, 1e-12 * after);
  EXPECT_GT(after, 1.9 * before); // communication-bound: nearly doubled (latencies and 0.1 s of compute stay)
  ASSERT_TRUE(fixed.simulated_period && study.baseline.simulated_period);
  EXPECT_NEAR(*study.baseline.simulated_period, before, 1e-9 * before);
  EXPECT_NEAR(*fixed.simulated_period, after, 1e-9 * after);
  EXPECT_EQ(study.rows[0].remapped.status, WhatIfStatus::not_applicable); // the scenario gives its mapping
}

TEST(WhatIf, RemovedHostsAndFailedLinksBreakTheFixedMappingOnly)
{
  WhatIfStudy study = run_whatif(whatif_example(20),
                                 parse_whatif_variants(R"(
variants:
  - {name: rack, edits: [{remove_hosts: [b-10, b-11]}]}
  - {name: cut, edits: [{fail_link: backbone, at: 1}]}
  - {name: down, edits: [{fail_link: backbone}]}
)",
                                                       "e.yaml"),
                                 whatif_options(true));
  ASSERT_EQ(study.rows.size(), 3U);
  EXPECT_EQ(study.rows[0].fixed.status, WhatIfStatus::removed);
  EXPECT_NE(study.rows[0].fixed.note.find("'b-10'"), std::string::npos);
  EXPECT_EQ(study.rows[0].remapped.status, WhatIfStatus::ok);
  EXPECT_EQ(study.rows[0].remapped.mapping.find("b-10"), std::string::npos);
  // the backbone fails at 1 s: the model is the platform before the failure (same mapping, same period), and the
  // run of the fixed mapping fails on its first transfer from b-11 to a-1; nothing is delivered
  const WhatIfFigures& cut = study.rows[1].fixed;
  EXPECT_EQ(cut.status, WhatIfStatus::ok);
  EXPECT_EQ(cut.analytic_period, study.baseline.analytic_period);
  ASSERT_TRUE(cut.verdict);
  EXPECT_NE(cut.verdict->find("failed at t = "), std::string::npos);
  EXPECT_NE(cut.verdict->find("0 of 20"), std::string::npos) << *cut.verdict;
  EXPECT_FALSE(cut.simulated_period);
  EXPECT_EQ(study.rows[1].remapped.mapping, study.baseline.mapping); // the mapper cannot know: it fails too
  EXPECT_TRUE(study.rows[1].remapped.verdict);
  // down from the start: the fixed mapping is unreachable, the re-mapped one keeps to one side of the cut
  const WhatIfFigures& down = study.rows[2].fixed;
  EXPECT_EQ(down.status, WhatIfStatus::unreachable);
  EXPECT_NE(down.note.find("'b-11' to 'a-1'"), std::string::npos) << down.note;
  EXPECT_FALSE(down.verdict);
  const WhatIfFigures& remapped = study.rows[2].remapped;
  ASSERT_EQ(remapped.status, WhatIfStatus::ok);
  EXPECT_TRUE(std::isfinite(remapped.analytic_period));
  ASSERT_TRUE(remapped.simulated_period);
  EXPECT_NEAR(*remapped.simulated_period, remapped.analytic_period, 1e-9 * remapped.analytic_period);
  EXPECT_FALSE(remapped.verdict);
}

TEST(WhatIf, ReliabilityFollowsTheFailureEdits)
{
  WhatIfStudy study = run_whatif(whatif_example(10),
                                 parse_whatif_variants(R"(
- {name: twice, edits: [{scale_failure_probability: 2, hosts: {zone: cb}}]}
- {name: set, edits: [{set_failure_probability: 0.1, hosts: "a-*"}]}
)",
                                                       "e.yaml"),
                                 whatif_options(false));
  // baseline: b-8..b-11 at f = 0.02 and a-1, a-2 at f = 0.01, no replication: 1 - F = product of (1 - f_u)
  EXPECT_NEAR(study.baseline.reliability, std::pow(0.98, 4) * std::pow(0.99, 2), 1e-12);
  EXPECT_NEAR(study.rows[0].fixed.reliability, std::pow(0.96, 4) * std::pow(0.99, 2), 1e-12);
  EXPECT_NEAR(study.rows[1].fixed.reliability, std::pow(0.98, 4) * std::pow(0.9, 2), 1e-12);
  EXPECT_FALSE(study.baseline.simulated_period); // --no-simulate
}

TEST(WhatIf, EditsFileErrorsNameFileAndLine)
{
  auto message = [](const std::string& text) {
    try {
      parse_whatif_variants(text, "e.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("- {edits: [{remove_hosts: a-1}]}\n").find("e.yaml:1"), std::string::npos);
  EXPECT_NE(message("- {name: x, edits: [{remove_hosts: a-1}]}\n- {name: x, edits: [{remove_hosts: a-2}]}\n")
                .find("two variants"),
            std::string::npos);
  EXPECT_NE(message("- {name: x, edits: []}\n").find("at least one edit"), std::string::npos);
  EXPECT_NE(message("variants: 3\n").find("list of variants"), std::string::npos);
  // an edit that matches nothing on the platform is an error naming the edits file and line
  try {
    run_whatif(whatif_example(10),
               parse_whatif_variants("- {name: x, edits: [{scale_speed: 2, hosts: c-*}]}\n", "e.yaml"),
               whatif_options(false));
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("e.yaml:1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("c-*"), std::string::npos) << e.what();
  }
}

/// A simulated study written by hand: the baseline (period 2, simulated 2.1, 1 - F 0.9, survival 0.88); "cut" (a
/// link fails during the run: analytic figures unchanged, the simulation failed, survival 0); "down" (the fixed
/// mapping is unreachable, the re-mapped one has period 3).
WhatIfStudy failed_variant_study()
{
  WhatIfStudy study;
  study.scenario = "hand";
  WhatIfFigures base;
  base.analytic_period  = 2;
  base.simulated_period = 2.1;
  base.reliability      = 0.9;
  base.survival_rate    = 0.88;
  study.baseline        = base;
  WhatIfFigures cut     = base;
  cut.simulated_period.reset();
  cut.verdict       = "failed at t = 1 (0 of 20 data sets delivered)";
  cut.survival_rate = 0;
  WhatIfFigures down;
  down.status               = WhatIfStatus::unreachable;
  down.note                 = "no route";
  WhatIfFigures remapped    = base;
  remapped.analytic_period  = 3;
  remapped.simulated_period = 3;
  study.rows                = {WhatIfRow{"cut", {}, cut, cut}, WhatIfRow{"down", {}, down, remapped}};
  return study;
}

TEST(WhatIfPlots, AFailedVariantIsMarkedFailedNotNoChange)
{
  WhatIfStudy study  = failed_variant_study();
  GnuplotPlot period = whatif_period_plot(study);
  // columns: fixed analytic, fixed simulated, re-mapped analytic, re-mapped simulated, each a value and a status
  std::string rows = period.data.substr(period.data.find("\"baseline\""));
  EXPECT_EQ(rows, "\"baseline\" 2 ok 2.1 ok 2 ok 2.1 ok\n"
                  "\"cut\" 2 ok ? failed 2 ok ? failed\n"
                  "\"down\" ? unreachable ? unreachable 3 ok 3 ok\n");
  // four series of bars (the study simulated), each with its labels of the bars without figure
  EXPECT_NE(period.commands.find("title 'baseline mapping kept, simulated'"), std::string::npos);
  EXPECT_NE(period.commands.find("(strcol(5) eq 'ok' || strcol(5) eq '-' ? '' : strcol(5)) with labels"),
            std::string::npos)
      << period.commands;
  EXPECT_NE(period.commands.find("set arrow from graph 0, first 2 to graph 1, first 2"), std::string::npos);
  GnuplotPlot reliability = whatif_reliability_plot(study);
  rows                    = reliability.data.substr(reliability.data.find("\"baseline\""));
  EXPECT_EQ(rows, "\"baseline\" 0.9 ok 0.88 ok 0.9 ok 0.88 ok\n"
                  "\"cut\" 0.9 ok 0 failed 0.9 ok 0 failed\n"
                  "\"down\" ? unreachable ? unreachable 0.9 ok 0.88 ok\n");
  // without simulation: two series, the simulated columns say "-" (no label)
  for (auto* f : {&study.baseline, &study.rows[1].remapped}) {
    f->simulated_period.reset();
    f->survival_rate.reset();
  }
  study.rows.erase(study.rows.begin());
  period = whatif_period_plot(study);
  EXPECT_EQ(period.data.substr(period.data.find("\"baseline\"")),
            "\"baseline\" 2 ok ? - 2 ok ? -\n\"down\" ? unreachable ? unreachable 3 ok ? -\n");
  EXPECT_EQ(period.commands.find("simulated'"), std::string::npos) << period.commands;
}

} // namespace
} // namespace pipesim

// edits_period: per list of platform edits and mapper the mean analytic and simulated periods, and the bars whose
// runs failed (a link off during the simulation, status error or timeout) labelled with the reason, never drawn as
// bars; checked on the data rows and the script of hand-built result rows.
#include "validation/reports/report_edits_plot.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

/// One row of a what-if sweep of platform.edits.
CampaignRow edits_row_report_edits(const std::string& mapper, const std::string& edits, const std::string& status,
                                   std::optional<double> analytic, std::optional<double> simulated,
                                   const std::string& verdict = "")
{
  CampaignRow r;
  r.mapper           = mapper;
  r.status           = from_string<RunStatus>(status).value();
  r.params           = {{"platform.edits", edits}, {"seed", 1}};
  r.analytic_period  = analytic;
  r.simulated_period = simulated;
  r.verdict          = verdict;
  return r;
}

std::string data_rows_report_edits(const GnuplotPlot& plot) { return plot.data.substr(plot.data.find("\n\"") + 1); }

TEST(ReportEdits, FailedLinkAndErrorAreLabelledNotBars)
{
  // one ok run, one whose backbone goes off during the simulation (campaign_row.cpp: status ok, the analytic period,
  // verdict failed, no simulated period), one error (no figure at all); the last edit list has no ok run
  CampaignResults results;
  results.mode  = "simulate";
  results.swept = {"platform.edits", "seed"};
  results.rows  = {
       edits_row_report_edits("exact.interval", "[]", "ok", 2, 2.1),
       edits_row_report_edits("exact.interval", "[{fail_link: backbone, at: 1}]", "ok", 2, std::nullopt, "failed"),
       edits_row_report_edits("exact.interval", "[{remove_hosts: [a-1]}]", "error", std::nullopt, std::nullopt)};
  auto plot = edits_bar_plot(results);
  ASSERT_TRUE(plot);
  // value and status of the analytic then the simulated bar: the failed link keeps its analytic period (2, the
  // baseline's) but its simulated bar is the label "failed"; the error list stays on the chart with its label
  EXPECT_EQ(data_rows_report_edits(*plot), "\"no edit\" 2 ok 2.1 ok\n"
                                           "\"[{fail_link: backbone, at: 1}]\" 2 ok ? failed\n"
                                           "\"[{remove_hosts: [a-1]}]\" ? error ? error\n");
  EXPECT_NE(plot->commands.find("title 'exact.interval (analytic)'"), std::string::npos) << plot->commands;
  EXPECT_NE(plot->commands.find("title 'exact.interval (simulated)'"), std::string::npos) << plot->commands;
  // each series has its labels: the status column 5 of the simulated bars
  EXPECT_NE(plot->commands.find("(valid(4) ? column(4) : 0):(strcol(5) eq 'ok' || strcol(5) eq '-' ? '' : strcol(5)) "
                                "with labels"),
            std::string::npos)
      << plot->commands;
  EXPECT_NE(plot->commands.find("set xrange [-0.6:2.6]"), std::string::npos) << plot->commands; // three groups
  EXPECT_EQ(plot->commands.find("set offsets"), std::string::npos) << plot->commands; // no label on top of a bar
  results.swept = {"seed"};
  EXPECT_FALSE(edits_bar_plot(results)); // no what-if sweep, no plot
}

TEST(ReportEdits, SomeRunsFailedMixedReasonsAndAnalyticMode)
{
  CampaignResults results;
  results.mode  = "simulate";
  results.swept = {"platform.edits", "mapper", "seed"};
  results.rows  = {// a: of two runs on E1 one simulation failed: the mean of the other (2.2), labelled "failed 1 of 2"
                  edits_row_report_edits("a", "E1", "ok", 2, 2.2),
                  edits_row_report_edits("a", "E1", "ok", 2, std::nullopt, "failed"),
                  // b: crash runs give a verdict too, but the fault-free run kept its period: an ok bar
                  edits_row_report_edits("b", "E1", "ok", 1, 1.1, "failed"),
                  // a on E2: one error, one timeout; b: two ok runs, means (3 + 5) / 2 = 4 and (3.5 + 5.5) / 2 = 4.5
                  edits_row_report_edits("a", "E2", "error", std::nullopt, std::nullopt),
                  edits_row_report_edits("a", "E2", "timeout", std::nullopt, std::nullopt),
                  edits_row_report_edits("b", "E2", "ok", 3, 3.5), edits_row_report_edits("b", "E2", "ok", 5, 5.5)};
  auto plot     = edits_bar_plot(results);
  ASSERT_TRUE(plot);
  EXPECT_EQ(data_rows_report_edits(*plot), "\"E1\" 2 ok 2.2 \"failed 1 of 2\" 1 ok 1.1 ok\n"
                                           "\"E2\" ? error,timeout ? error,timeout 4 ok 4.5 ok\n");
  EXPECT_NE(plot->commands.find("set offsets 0, 0, graph 0.25, 0"), std::string::npos) << plot->commands;
  EXPECT_NE(plot->commands.find("title 'b (simulated)'"), std::string::npos) << plot->commands;
  // analytic mode: no simulated bar, its status "-" (neither bar nor label), two series
  results.mode = "analytic";
  for (auto& row : results.rows) {
    row.simulated_period = RowNumber();
    row.verdict.clear();
  }
  plot = edits_bar_plot(results);
  ASSERT_TRUE(plot);
  EXPECT_EQ(data_rows_report_edits(*plot), "\"E1\" 2 ok ? - 1 ok ? -\n"
                                           "\"E2\" ? error,timeout ? - 4 ok ? -\n");
  EXPECT_EQ(plot->commands.find("(simulated)"), std::string::npos) << plot->commands;
  EXPECT_NE(plot->commands.find("title 'b (analytic)'"), std::string::npos) << plot->commands;
}

} // namespace
} // namespace pipesim

// The re-mapping table of the report (validation/reports/report_dynamic.hpp) on hand-made rows, and the throughput
// plot's data on a hand-made simulate document.
#include "validation/reports/report_dynamic.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace pipesim;
using testing::HasSubstr;

namespace {

CampaignRow dynamic_fixture_row(std::uint64_t seed, const std::string& policy, std::uint64_t by_horizon, int remaps,
                                double downtime, double makespan)
{
  CampaignRow r;
  r.seed                = seed;
  r.policy              = policy;
  r.dynamic_mapper      = "hedpm";
  r.remaps              = remaps;
  r.load_changes        = 5;
  r.downtime            = downtime;
  r.horizon             = 1000.0;
  r.datasets_by_horizon = by_horizon;
  r.makespan            = makespan;
  r.params = {{"dynamic", "{policy: " + policy + "}"}, {"platform.profiles.generate.seed", seed}, {"mapper", "hedpm"}};
  return r;
}

} // namespace

TEST(ReportDynamic, TableByHand)
{
  CampaignResults results;
  //             seed policy         by H  re-maps downtime makespan
  results.rows       = {dynamic_fixture_row(1, "clairvoyant", 100, 4, 0, 1200),
                        dynamic_fixture_row(1, "static", 60, 0, 0, 1500),
                        dynamic_fixture_row(1, "threshold", 90, 3, 6, 1300),
                        dynamic_fixture_row(2, "clairvoyant", 200, 2, 0, 1100),
                        dynamic_fixture_row(2, "static", 200, 0, 0, 1100),
                        dynamic_fixture_row(2, "threshold", 190, 1, 2, 900)}; // ends before H: saturated
  CampaignRow failed = dynamic_fixture_row(3, "threshold", 1, 1, 1, 1);
  failed.status      = RunStatus::error; // not counted
  results.rows.push_back(failed);
  std::vector<DynamicCell> cells = dynamic_cells(results);
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(cells[0].configuration, "mapper=hedpm");           // the policy and the seeds are not the configuration
  EXPECT_EQ(cells[0].policy, "dynamic={policy: clairvoyant}"); // the swept values of the policy
  const DynamicCell& threshold = cells[2];
  EXPECT_EQ(threshold.runs, 2);
  // vs clairvoyant: 90 / 100 = 0.9 and 190 / 200 = 0.95: mean 0.925, min 0.9
  EXPECT_DOUBLE_EQ(*threshold.vs_clairvoyant_mean, 0.925);
  EXPECT_DOUBLE_EQ(*threshold.vs_clairvoyant_min, 0.9);
  // vs static-best: 90 / 60 = 1.5 and 190 / 200 = 0.95: mean 1.225, min 0.95
  EXPECT_DOUBLE_EQ(*threshold.vs_static_mean, 1.225);
  EXPECT_DOUBLE_EQ(*threshold.vs_static_min, 0.95);
  // (3 + 1) re-maps over (5 + 5) load changes; (6 + 2) s of downtime over 4 re-maps
  EXPECT_DOUBLE_EQ(*threshold.remaps_per_change(), 0.4);
  EXPECT_DOUBLE_EQ(*threshold.mean_downtime(), 2);
  EXPECT_EQ(threshold.saturated, 1);
  const DynamicCell& fixed = cells[1]; // static: 60 / 100, 200 / 200 of clairvoyant; no re-map, no downtime
  EXPECT_DOUBLE_EQ(*fixed.vs_clairvoyant_mean, 0.8);
  EXPECT_DOUBLE_EQ(*fixed.vs_clairvoyant_min, 0.6);
  EXPECT_DOUBLE_EQ(*fixed.vs_static_mean, 1);
  EXPECT_DOUBLE_EQ(*fixed.remaps_per_change(), 0);
  EXPECT_FALSE(fixed.mean_downtime());
  EXPECT_DOUBLE_EQ(*cells[0].remaps_per_change(), 0.6); // clairvoyant: 6 re-maps over 10 changes
  std::string md = dynamic_table_markdown(cells);
  EXPECT_THAT(
      md, HasSubstr("| mapper=hedpm | dynamic={policy: threshold} | hedpm | 2 | 0.925 | 0.900 | 1.225 | 0.950 | 0.400 "
                    "| 2 | 1 |"));
  EXPECT_THAT(
      md, HasSubstr("| mapper=hedpm | dynamic={policy: static} | hedpm | 2 | 0.800 | 0.600 | 1.000 | 1.000 | 0.000 | "
                    "- | 0 |"));
}

TEST(ReportDynamic, RowsWithoutHorizonGiveNoTable)
{
  CampaignResults results;
  CampaignRow r;
  r.policy = "static";
  results.rows.push_back(r);
  EXPECT_TRUE(dynamic_cells(results).empty());
}

TEST(ReportDynamic, ThroughputPlotData)
{
  // two windows of 5 data sets (periods 2 and 4 s: throughputs 0.5 and 0.25), two analytic epochs (periods 2 and 5)
  // and one re-map at 25 s
  nlohmann::json doc = {
      {"simulated",
       {{"throughput_series",
         {{"window", 5},
          {"windows",
           {{{"from", 0}, {"to", 5}, {"start", 10.0}, {"end", 20.0}, {"period", 2.0}},
            {{"from", 5}, {"to", 10}, {"start", 20.0}, {"end", 40.0}, {"period", 4.0}}}}}}}},
      {"analytic_series",
       {{{"start", 0.0}, {"end", 25.0}, {"period", 2.0}}, {{"start", 25.0}, {"end", 50.0}, {"period", 5.0}}}},
      {"dynamic", {{"remaps", {{{"time", 25.0}}}}}}};
  std::optional<GnuplotPlot> plot = throughput_plot(doc, "x.json");
  ASSERT_TRUE(plot);
  EXPECT_THAT(plot->data, HasSubstr("10 0.5\n20 0.25\n40 0.25\n\n")); // windows as steps, closed at 40 s
  EXPECT_THAT(plot->data, HasSubstr("\n\n\n0 0.5\n25 0.20000000000000001\n50 0.20000000000000001\n")); // analytic
  EXPECT_THAT(plot->commands, HasSubstr("set arrow from 25, graph 0 to 25, graph 1 nohead"));
  EXPECT_THAT(plot->commands, HasSubstr("re-map (1)"));
  EXPECT_FALSE(throughput_plot(nlohmann::json::object(), "none.json"));
}

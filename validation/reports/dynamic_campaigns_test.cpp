// The -small twins of the re-mapping campaigns (validation/campaigns/dynamic-*-small.yaml, docs/dynamic.md "The
// experiment") run end to end: every row ok with its re-mapping columns, and every run has its clairvoyant and
// static-best twins in the report's table.
#include "validation/reports/campaign_test_util.hpp"
#include "validation/reports/report_dynamic.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

namespace {

void check_dynamic_small(const std::string& name)
{
#ifdef PIPESIM_SANITIZE
  GTEST_SKIP() << "whole campaigns (the plain build runs them: 8 s and 24 s); under the sanitizers they take 2.5 and 5 "
                  "minutes, and the re-mapping controller, the policies and the columns are checked by their own tests";
#endif
  Campaign c              = test::shipped_campaign(name);
  CampaignResults results = test::run_in_temp(c, name);
  ASSERT_EQ(results.rows.size(), c.runs.size());
  for (const CampaignRow& row : results.rows) {
    ASSERT_TRUE(row.ok()) << row.describe();
    ASSERT_TRUE(row.datasets_by_horizon) << row.describe();
    // N is large enough: every run is still producing at the horizon (no saturated count)
    EXPECT_GT(*row.makespan, *row.horizon) << row.describe();
    EXPECT_GT(*row.load_changes, 0) << row.describe();
    if (row.policy == "static") {
      EXPECT_EQ(*row.remaps, 0) << row.describe();
    }
    if (row.policy == "clairvoyant") {
      EXPECT_LE(*row.remaps, *row.load_changes) << row.describe();
    }
  }
  std::vector<DynamicCell> cells = dynamic_cells(results);
  ASSERT_FALSE(cells.empty());
  for (const DynamicCell& cell : cells) {
    EXPECT_EQ(cell.vs_clairvoyant_runs, cell.runs) << cell.configuration << " " << cell.policy;
    EXPECT_EQ(cell.vs_static_runs, cell.runs) << cell.configuration << " " << cell.policy;
    EXPECT_EQ(cell.saturated, 0);
  }
}

} // namespace

TEST(DynamicCampaigns, HedpmSmallRunsWithEveryTwin) { check_dynamic_small("dynamic-hedpm-small"); }

TEST(DynamicCampaigns, Br07SmallRunsWithEveryTwin) { check_dynamic_small("dynamic-br07-small"); }

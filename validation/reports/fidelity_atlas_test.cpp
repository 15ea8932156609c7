// The fidelity atlas (fidelity_atlas.hpp) on hand-made rankings, and the shipped fidelity-atlas-small campaign end
// to end: exact where the formulas are exact, positive errors where SimGrid's LV08 network is slower.
#include "validation/reports/campaign_test_util.hpp"
#include "validation/reports/fidelity_atlas.hpp"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace pipesim;

namespace {

std::string atlas_param(const CampaignRow& row, const std::string& key)
{
  if (!row.params.contains(key)) return "";
  const auto& v = row.params[key];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

/// Rows of the model platforms (the generators'), whose links are dedicated: one per ordered pair.
bool atlas_model_platform(const CampaignRow& row)
{
  return atlas_param(row, "platform").find("generate") != std::string::npos;
}

double atlas_error(const CampaignRow& row)
{
  return (*row.simulated_period - *row.analytic_period) / *row.analytic_period;
}

} // namespace

TEST(FidelityAtlas, KendallTauByHand)
{
  EXPECT_DOUBLE_EQ(*kendall_tau_b({1, 2, 3}, {10, 20, 30}), 1.0);
  EXPECT_DOUBLE_EQ(*kendall_tau_b({1, 2, 3}, {30, 20, 10}), -1.0);
  // pairs (1,2) concordant, (1,3) concordant, (2,3) discordant: (2 - 1) / 3
  EXPECT_DOUBLE_EQ(*kendall_tau_b({1, 2, 3}, {1, 3, 2}), 1.0 / 3);
  // x ties its first pair: 2 concordant, 0 discordant; n1 = 2 (pairs untied in x), n2 = 3: 2 / sqrt(2 x 3)
  EXPECT_DOUBLE_EQ(*kendall_tau_b({1, 1, 2}, {1, 2, 3}), 2 / std::sqrt(6.0));
  // equal within 1e-9 is a tie; everything tied: undefined
  EXPECT_FALSE(kendall_tau_b({1, 1 + 1e-12}, {1, 2}));
  EXPECT_FALSE(kendall_tau_b({1}, {1}));
}

TEST(FidelityAtlas, SmallCampaignIsExactWhereTheFormulasAreAndLv08CorrectsOnePort)
{
  Campaign c              = test::shipped_campaign("fidelity-atlas-small");
  CampaignResults results = test::run_in_temp(c, "fidelity-atlas-small");
  ASSERT_EQ(results.rows.size(), 240u);
  int exact_checked = 0, lv08_checked = 0;
  for (const auto& row : results.rows) {
    ASSERT_TRUE(row.ok()) << row.run_id << " " << row.error;
    ASSERT_TRUE(row.simulated_period && row.analytic_period) << row.run_id;
    if (!atlas_model_platform(row)) continue;
    const double e          = atlas_error(row);
    const bool sim_exact    = atlas_param(row, "simulation.network") == "exact";
    const bool lv08         = atlas_param(row, "analytic.network") == "lv08";
    const bool one_port     = atlas_param(row, "simulation.model") == "one-port";
    const bool crosstraffic = atlas_param(row, "simulation.simgrid") == "~";
    if (sim_exact && !lv08) { // both models on dedicated links: the formulas are exact
      EXPECT_LT(std::abs(e), 1e-9) << row.run_id;
      ++exact_checked;
    }
    if (!sim_exact && lv08 && (one_port || !crosstraffic)) { // the lv08 correction is exact there
      EXPECT_LT(std::abs(e), 1e-9) << row.run_id;
      ++lv08_checked;
    }
    if (!sim_exact && !lv08) {
      EXPECT_GT(e, -1e-9) << row.run_id; // LV08 is never faster than the formula
    }
  }
  EXPECT_EQ(exact_checked, 3 * 4 * 2);      // 3 model families x 4 models x 2 mappings
  EXPECT_EQ(lv08_checked, 3 * (2 + 3) * 2); // one-port: both LV08 networks; multi-port: without cross traffic
  FidelityAtlas atlas = fidelity_atlas(results);
  ASSERT_EQ(atlas.conditions.size(), 4u * 3u * 2u);
  for (const auto& cond : atlas.conditions) {
    EXPECT_EQ(cond.errors.runs, 10) << cond.label;
    EXPECT_EQ(cond.rankings.instances, 5) << cond.label;
    const bool simgrid = cond.label.find("simulation.network=simgrid") != std::string::npos;
    const bool lv08    = cond.label.find("analytic.network=lv08") != std::string::npos;
    if (simgrid && !lv08) { // the LV08 network is slower than the formulas as written
      EXPECT_GT(cond.errors.mean, 0.05) << cond.label;
      EXPECT_GT(cond.errors.median_abs, 0.01) << cond.label;
    }
  }
  // the report writes the atlas's table
  std::string md = fidelity_atlas_markdown(atlas);
  EXPECT_NE(md.find("analytic.network=lv08 simulation.model=one-port simulation.network=simgrid"), std::string::npos)
      << md;
}

TEST(FidelityAtlas, FullCampaignParsesWithTheVariabilityAxis)
{
  // the campaign as shipped, on one seed (every run's scenario is parsed): 5 families x 4 models and buffers x 3
  // networks x 2 analytic networks x 4 mappings x 5 variabilities
  const std::string dir = std::string(PIPESIM_SOURCE_DIR) + "/validation/campaigns";
  std::ifstream in(dir + "/fidelity-atlas.yaml");
  std::stringstream shipped;
  for (std::string line; std::getline(in, line);)
    shipped << (line == "seed: {from: 1, count: 8}" ? "seed: {from: 1, count: 1}" : line) << "\n";
  Campaign c = parse_campaign(shipped.str(), "fidelity-atlas.yaml", dir);
  ASSERT_EQ(c.runs.size(), 5u * 4 * 3 * 2 * 4 * 5);
  EXPECT_NE(c.runs.back().scenario_yaml.find("lognormal"), std::string::npos);
}

TEST(FidelityAtlas, PlotsLabelEveryFifthOfTheShippedAtlasConditions)
{
  // the shipped atlas has 5 x 4 x 3 x 2 = 120 conditions (variability, model and buffer, network, analytic network):
  // one label each would overlap, so every 5th is labelled; 12 conditions keep one label each
  FidelityAtlas atlas;
  atlas.conditions.resize(120);
  for (auto& c : atlas.conditions) {
    c.errors.abs_quantiles = {0.01, 0.02, 0.03, 0.04, 0.05};
    c.rankings.instances   = 1;
  }
  EXPECT_NE(fidelity_error_plot(atlas)->commands.find("set xtics 5\n"), std::string::npos);
  EXPECT_NE(fidelity_ranking_plot(atlas)->commands.find("set xtics 5\n"), std::string::npos);
  atlas.conditions.resize(12);
  EXPECT_NE(fidelity_error_plot(atlas)->commands.find("set xtics 1\n"), std::string::npos);
}

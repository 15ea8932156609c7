// sv95 §6 reproduced (docs/reproduction-sv95.md): FFT-Hist's programs fitted (scenarios/examples/fft-hist*.yaml and
// their .fitted.yaml), the optimal mapping on the fit, and the campaigns validation/campaigns/fft-hist*.yaml run end to
// end: predicted against simulated (Table 2's 0-12 %) and the optimum against the pure data-parallel mapping.
#include "model/sv95/response.hpp"
#include "validation/reports/campaign_test_util.hpp"
#include "validation/reports/report_data.hpp"
#include "validation/studies/fit_run.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <map>

using namespace pipesim;

namespace {

std::string sv95_example(const std::string& name)
{
  return std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/" + name;
}

TEST(Sv95Reproduction, TheShippedFitsAreWhatPipesimFitMeasures)
{
  // scenarios/examples/fft-hist*.fitted.yaml were written by `pipesim fit ... --out`: refitting gives the same doubles
  for (std::string size : {"", "-512"}) {
    FitRun run       = fit_scenario(load_scenario(sv95_example("fft-hist" + size + ".yaml")), FitOptions{.map = false});
    Scenario shipped = load_scenario(sv95_example("fft-hist" + size + ".fitted.yaml"));
    const TaskChain& c = shipped.task_chain->chain;
    EXPECT_EQ(run.source, FitSource::program);
    for (int i = 1; i <= 3; ++i) {
      EXPECT_EQ(c.task(i).exec.c, run.fit.chain.task(i).exec.c) << size << " exec " << i;
      if (i == 3) continue;
      EXPECT_EQ(c.icom_after(i).c, run.fit.chain.icom_after(i).c) << size << " icom " << i;
      EXPECT_EQ(c.ecom_after(i).c, run.fit.chain.ecom_after(i).c) << size << " ecom " << i;
    }
    // the programs' execution is exactly §5's polynomial: (sequential + parallel / p + overhead p) / 20 Mflop/s
    const TaskProgram& colffts = c.program(1);
    EXPECT_NEAR(c.task(1).exec.c[0], colffts.sequential / 20e6, 1e-12);
    EXPECT_NEAR(c.task(1).exec.c[1], colffts.parallel / 20e6, 1e-12);
    EXPECT_NEAR(c.task(1).exec.c[2], colffts.overhead / 20e6, 1e-12);
  }
}

TEST(Sv95Reproduction, FftHist256OptimumIsTable1sMapping)
{
  // Table 1, 256 x 256, message passing: module 1 = {colffts} with r = 8 instances of p = 3, module 2 = {rowffts,
  // hist} with r = 10 of p = 4; pipesim's inputs are its own (the paper prints none), the mapping is the same
  ScenarioRun run = map_scenario(load_scenario(sv95_example("fft-hist.fitted.yaml")));
  ASSERT_TRUE(run.has_mapping());
  EXPECT_EQ(sv95_modules(run.mapper.mapping), (std::vector<Sv95Module>{{1, 1, 8, 3}, {2, 3, 10, 4}}));
  EXPECT_EQ(to_text(sv95_modules(run.mapper.mapping), run.scenario.task_chain->chain),
            "[colffts] r=8 p=3 | [rowffts, hist] r=10 p=4");
}

/// The ok rows of validation/campaigns/<name>.yaml run in a fresh directory, by mapper ("explicit": data-parallel).
std::map<std::string, CampaignRow> run_campaign_rows(const std::string& name)
{
  std::map<std::string, CampaignRow> rows;
  for (const CampaignRow& row : test::run_in_temp(test::shipped_campaign(name), name).rows) {
    EXPECT_TRUE(row.ok()) << name << " run " << row.run_id << ": " << row.error;
    rows[row.mapper] = row;
  }
  return rows;
}

TEST(Sv95Reproduction, FftHistCampaignsPredictedAgainstSimulatedAndDataParallel)
{
  // Measured (docs/reproduction-sv95.md): 256 x 256, data-parallel 60.78 ms predicted, 60.73 simulated; optimum 6.453
  // predicted, 6.357 simulated (-1.5 %): 9.42 times the data-parallel throughput (paper: 8.75). 512 x 512: 80.55
  // against 30.05 ms predicted, 30.66 simulated (+2.0 %): 2.68 times (paper: 2.17).
#ifdef PIPESIM_SANITIZE
  GTEST_SKIP() << "figures of two whole campaigns (the plain build checks them): 64-host parallel tasks take a minute "
                  "under the sanitizers; FitRun and the other Sv95Reproduction tests run the same code on one mapping";
#endif
  for (auto [name, ratio] : {std::pair{"fft-hist", 9.42}, std::pair{"fft-hist-512", 2.68}}) {
    auto rows = run_campaign_rows(name);
    ASSERT_EQ(rows.size(), 6U) << name;
    for (const auto& [mapper, row] : rows) { // Table 2: predicted and measured within 0-12 %
      ASSERT_TRUE(row.analytic_period && row.simulated_period) << name << " " << mapper;
      EXPECT_LT(std::abs(*row.simulated_period / *row.analytic_period - 1), 0.12) << name << " " << mapper;
    }
    const CampaignRow &optimum = rows["sv95.exact"], &data_parallel = rows["explicit"];
    EXPECT_EQ(*rows["sv95.dp"].analytic_period, *optimum.analytic_period) << name;
    EXPECT_NEAR(*data_parallel.analytic_period / *optimum.analytic_period, ratio, 0.01) << name;
    for (const char* heuristic : {"sv95.dp-maximal", "sv95.greedy", "sv95.greedy-slowest"})
      EXPECT_GE(*rows[heuristic].analytic_period, *optimum.analytic_period) << name << " " << heuristic;
  }
}

} // namespace

// Tests of HeDPM-scan (hedpm Algorithm 4.2): the §4.1 case study's conclusion and the sweep's stopping rules.
#include "mappers/hedpm/hedpm_scan.hpp"

#include "mappers/exact/interval_fixtures.hpp"
#include "mappers/hedpm/hedpm_fixtures.hpp"
#include "model/hedpm/production_time.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

TEST(HedpmScan, CaseStudyConcludesTheInitialMappingIsTheBest)
{
  // §4.1: the last match (S4 on P1, P5, P2) is the least loaded, so the objective is lowered from TObj0 = Tideal =
  // 3.30770 by 0.5 TObj0 / 20 per run "until the smallest Tmatch is not obtained in the last iteration"; then "the
  // total production time increases to 5.08 and [...] the algorithm concludes that the initial mapping is the best".
  // Here: 0.975 and 0.95 TObj0 give the same mapping (3.5826, last still the least loaded); 0.925 TObj0 gathers S1-S2
  // on P8, puts S3 alone on P2 and the last match is no longer the least loaded: the production time rises to 5.2304
  // (printed: 5.08; S3 on P2, the slowest processor, is the bottleneck) and the first mapping is kept.
  Problem problem = fixtures::hedpm_case_study();
  HedpmScan scan  = hedpm_algorithm42(problem);
  EXPECT_DOUBLE_EQ(scan.tobj0, 2 * (0.125 + 10 / 8.75) + 11.8075 / 15.295);
  EXPECT_EQ(scan.direction, -1);
  ASSERT_EQ(scan.steps.size(), 4u);
  EXPECT_TRUE(scan.steps[0].last_least_loaded);
  for (std::size_t k = 1; k < 4; ++k)
    EXPECT_DOUBLE_EQ(scan.steps[k].objective, scan.tobj0 - static_cast<double>(k) * 0.5 * scan.tobj0 / 20) << k;
  EXPECT_NEAR(scan.steps[0].production_time, 3.582643, 1e-6);
  EXPECT_EQ(scan.steps[2].production_time, scan.steps[0].production_time);
  // S3 alone on P2 (s = 1.02): 1.1 from P8, 2.53 / 1.02, then to P1 and P5 in turn, (2.2 + 1.1) / 2 = 1.65.
  EXPECT_NEAR(scan.steps[3].production_time, 1.1 + 2.53 / 1.02 + 1.65, 1e-12);
  EXPECT_FALSE(scan.steps[3].last_least_loaded);
  EXPECT_EQ(to_text(scan.steps[3].run.mapping, problem.platform),
            "[1-2]:P8 [3]:P2 [4]:P1|P5/deal [5]:P3 [6]:P4 [7]:P6 [8]:P7");
  EXPECT_EQ(scan.best, 0u);
  MapperResult result = run_mapper("hedpm.scan", problem, MapperOptions{});
  EXPECT_EQ(result.objective, scan.steps[0].production_time);
  EXPECT_EQ(result.statistics.at("runs"), 4);
  EXPECT_EQ(result.statistics.at("best_objective"), 0);
  EXPECT_EQ(result.statistics.at("direction"), -1);
}

TEST(HedpmScan, SweepsFollowAlgorithm42)
{
  int directions[3] = {0, 0, 0};
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    Problem problem  = fixtures::hedpm_tiny_instance(seed, static_cast<fixtures::HedpmLinks>(seed % 4), 12, 12);
    std::string what = fixtures::describe(seed, problem);
    HedpmScan scan   = hedpm_algorithm42(problem);
    ++directions[scan.direction + 1];
    const HedpmScanStep& first = scan.steps[0];
    EXPECT_EQ(scan.direction, first.last_most_loaded ? 1 : first.last_least_loaded ? -1 : 0) << what;
    EXPECT_LE(scan.steps.size(), static_cast<std::size_t>(hedpm_scan_steps + 1)) << what;
    for (std::size_t k = 1; k < scan.steps.size(); ++k) {
      EXPECT_DOUBLE_EQ(scan.steps[k].objective,
                       scan.tobj0 + scan.direction * static_cast<double>(k) * 0.5 * scan.tobj0 / 20)
          << what;
      const HedpmScanStep& previous = scan.steps[k - 1]; // the loop only goes on while the last stays unbalanced
      EXPECT_TRUE(scan.direction > 0 ? previous.last_most_loaded : previous.last_least_loaded) << what;
    }
    const HedpmScanStep& last = scan.steps.back(); // it stopped because of the bound or of the balance
    if (scan.direction != 0 && scan.steps.size() < hedpm_scan_steps + 1) {
      EXPECT_FALSE(scan.direction > 0 ? last.last_most_loaded : last.last_least_loaded) << what;
    }
    for (const HedpmScanStep& step : scan.steps)
      EXPECT_LE(scan.steps[scan.best].production_time, step.production_time) << what;
    EXPECT_LE(run_mapper("hedpm.scan", problem, MapperOptions{}).objective,
              run_mapper("hedpm", problem, MapperOptions{}).objective)
        << what;
  }
  // Both directions and the "neither" case occur among these instances.
  EXPECT_GT(directions[0], 0);
  EXPECT_GT(directions[1], 0);
  EXPECT_GT(directions[2], 0);
}

} // namespace
} // namespace pipesim

#include "validation/reports/reliability_tables.hpp"

#include <gtest/gtest.h>
#include <tuple>

namespace pipesim {
namespace {

CampaignRow reliability_row(const std::string& mapper, const std::string& p, int seed, const std::string& status,
                            double f)
{
  CampaignRow r;
  r.mapper = mapper;
  r.status = from_string<RunStatus>(status).value();
  r.params = {{"platform.generate.p", p}, {"mapper", mapper}, {"seed", seed}};
  if (r.ok()) r.failure_probability = f;
  return r;
}

TEST(ReliabilityTables, Tables2And3OnHandRows)
{
  // Two scenarios, two general heuristics (A, B) and two interval ones (C, D):
  //   p = 16: A 0.1, B 0.2, C 0.3, D infeasible (F = 1);   p = 32: A 0.4, B 0.2, C 0.2, D 0.1.
  // A third scenario has an error row: left out. bbr10.best rows are ignored.
  const std::string A = "bbr10.partstw-snake-c", B = "bbr10.partprw", C = "bbr10.partstw-snake-c.interval",
                    D = "bbr10.partstc-small.interval";
  CampaignResults results;
  results.rows        = {reliability_row(A, "16", 1, "ok", 0.1),
                         reliability_row(B, "16", 1, "ok", 0.2),
                         reliability_row(C, "16", 1, "ok", 0.3),
                         reliability_row(D, "16", 1, "infeasible", 0),
                         reliability_row(A, "32", 1, "ok", 0.4),
                         reliability_row(B, "32", 1, "ok", 0.2),
                         reliability_row(C, "32", 1, "ok", 0.2),
                         reliability_row(D, "32", 1, "ok", 0.1),
                         reliability_row("bbr10.best", "32", 1, "ok", 0.1),
                         reliability_row(A, "32", 2, "ok", 0.4),
                         reliability_row(B, "32", 2, "error", 0),
                         reliability_row(C, "32", 2, "ok", 0.2),
                         reliability_row(D, "32", 2, "ok", 0.1),
                         reliability_row(A, "64", 3, "infeasible", 0),
                         reliability_row(B, "64", 3, "infeasible", 0),
                         reliability_row(C, "64", 3, "infeasible", 0),
                         reliability_row(D, "64", 3, "infeasible", 0)};
  ReliabilityTables t = reliability_tables(results);
  EXPECT_EQ(t.scenarios, 2);
  EXPECT_EQ(t.all_infeasible, 1);
  ASSERT_EQ(t.general.size(), 2U);
  ASSERT_EQ(t.interval.size(), 2U);
  // general: A deviations 0 and (0.4 - 0.2) / 0.2 = 1; B 1 and 0
  EXPECT_EQ(t.general[0].name, A);
  EXPECT_NEAR(t.general[0].stats.max, 1, 1e-12);
  EXPECT_NEAR(t.general[0].stats.mean, 0.5, 1e-12);
  EXPECT_NEAR(t.general[0].stats.sd, 0.5, 1e-12);
  EXPECT_NEAR(t.general[0].stats.best_rate, 0.5, 1e-12);
  // interval: D deviations (1 - 0.3) / 0.3 and 0
  EXPECT_EQ(t.interval[0].name, D); // the paper's order: Small before Snake
  EXPECT_NEAR(t.interval[0].stats.max, 7.0 / 3, 1e-12);
  EXPECT_NEAR(t.interval[0].stats.mean, 7.0 / 6, 1e-12);
  EXPECT_NEAR(t.interval[0].stats.sd, 7.0 / 6, 1e-12);
  // Table 3: p = 16: interval 0.3 vs general 0.1 (deviation 2); p = 32: interval 0.1 vs general 0.2 (1)
  ASSERT_EQ(t.table3.size(), 2U);
  EXPECT_EQ(t.table3[0].p, "16");
  EXPECT_NEAR(t.table3[0].interval.max, 2, 1e-12);
  EXPECT_EQ(t.table3[0].interval.best_rate, 0);
  EXPECT_EQ(t.table3[0].general.best_rate, 1);
  EXPECT_EQ(t.table3[1].p, "32");
  EXPECT_NEAR(t.table3[1].general.max, 1, 1e-12);
  EXPECT_EQ(t.table3[1].ties, 0);
  std::string md = reliability_tables_markdown(t);
  EXPECT_NE(md.find("| bbr10.partstc-small.interval | 2.33 | 1.17 | 1.17 | 50.0% |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 16 | 1 | interval | 2 | 2 | 0 | 0.0% | 0.0% | 0 |"), std::string::npos) << md;
}

TEST(ReliabilityTables, OneViewPerPeriodTestAndThePapersPairing)
{
  // One scenario (p = 64), a general heuristic G and an interval one I under both period tests:
  //   worst-case: G 0.4, I 0.1;   all-alive-best-election: G 0.05, I 0.08.
  // Views: worst-case (interval wins: general deviation (0.4 - 0.1) / 0.1 = 3), all-alive (general wins: interval
  // (0.08 - 0.05) / 0.05 = 0.6), and the paper's pairing, interval under worst-case against general under
  // all-alive (general wins: interval (0.1 - 0.05) / 0.05 = 1).
  const std::string G = "bbr10.partstw-snake-c", I = "bbr10.partstw-snake-c.interval";
  CampaignResults results;
  for (auto [test, g, i] : {std::tuple{"worst-case", 0.4, 0.1}, std::tuple{"all-alive-best-election", 0.05, 0.08}})
    for (auto [name, f] : {std::pair{G, g}, std::pair{I, i}}) {
      CampaignRow r                          = reliability_row(name, "64", 1, "ok", f);
      r.params["mapper_options.period_test"] = test;
      r.period_test                          = test;
      results.rows.push_back(r);
    }
  auto views = reliability_views(results);
  ASSERT_EQ(views.size(), 3U);
  EXPECT_EQ(views[0].title(), "worst-case");
  EXPECT_EQ(views[1].title(), "all-alive-best-election");
  EXPECT_EQ(views[2].title(), "interval: worst-case, general: all-alive-best-election");
  std::vector<double> interval_max{0, 0.6, 1}, general_max{3, 0, 0};
  for (std::size_t v = 0; v < views.size(); ++v) {
    ReliabilityTables t = reliability_tables(results, views[v]);
    EXPECT_EQ(t.scenarios, 1) << v;
    ASSERT_EQ(t.table3.size(), 1U) << v;
    EXPECT_NEAR(t.table3[0].interval.max, interval_max[v], 1e-12) << v;
    EXPECT_NEAR(t.table3[0].general.max, general_max[v], 1e-12) << v;
  }
  // rows without a period test (written before the option) are worst-case ones
  CampaignResults old;
  old.rows = {reliability_row(G, "64", 1, "ok", 0.4), reliability_row(I, "64", 1, "ok", 0.1)};
  ASSERT_EQ(reliability_views(old).size(), 1U);
  EXPECT_EQ(reliability_views(old)[0].title(), "worst-case");
  std::string md = reliability_tables_markdown(results);
  EXPECT_NE(md.find("## Period test: worst-case\n"), std::string::npos) << md;
  EXPECT_NE(md.find("## Period test: interval: worst-case, general: all-alive-best-election\n"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| 64 | 1 | interval | 1 | 1 | 0 | 0.0% | 0.0% | 0 |"), std::string::npos) << md;
}

} // namespace
} // namespace pipesim

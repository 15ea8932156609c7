// Table 1's statistics on hand-made deviations and rows, and a small elections campaign end to end.
#include "scenarios/campaign.hpp"
#include "validation/campaigns/campaign_row.hpp"
#include "validation/campaigns/campaign_runner.hpp"
#include "validation/campaigns/elections_run.hpp"
#include "validation/campaigns/result_files.hpp"
#include "validation/campaigns/run_execution.hpp"
#include "validation/reports/elections_table.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace pipesim;
namespace fs = std::filesystem;

TEST(ElectionsTable, StatisticsOfHandMadeDeviations)
{
  // deviations 0, 5e-10, 0.1, 0.3, 1.6: max 1.6; mean (2 + 5e-10) / 5 = 0.4 + 1e-10; squared distances to 0.4
  // 0.16 + 0.16 + 0.09 + 0.01 + 1.44 = 1.86 (up to 1e-10), sd sqrt(1.86 / 5) = 0.609918...; 0 and 5e-10 reach the
  // MILP (<= 1e-9): best rate 2/5.
  DeviationSummary s = summarize_deviations({0, 5e-10, 0.1, 0.3, 1.6});
  EXPECT_EQ(s.instances, 5);
  EXPECT_DOUBLE_EQ(s.max, 1.6);
  EXPECT_NEAR(s.mean, 0.4, 1e-9);
  EXPECT_NEAR(s.sd, std::sqrt(0.372), 1e-9);
  EXPECT_DOUBLE_EQ(s.best_rate, 0.4);
  EXPECT_EQ(s.below, 0);

  DeviationSummary below = summarize_deviations({-1e-6, -1e-12, 0.5});
  EXPECT_EQ(below.below, 1); // -1e-12 is within the tolerance, -1e-6 is not
  EXPECT_NEAR(below.best_rate, 2.0 / 3.0, 1e-15);

  DeviationSummary empty = summarize_deviations({});
  EXPECT_EQ(empty.instances, 0);
  EXPECT_EQ(empty.max, 0);
  EXPECT_EQ(empty.best_rate, 0);
  EXPECT_DOUBLE_EQ(relative_deviation(12, 10), 0.2);
}

namespace {
CampaignRow elections_row(int id, int p, double random, double max_bout, double min_comm, double min_nb, double milp,
                          const std::string& milp_status = "optimal", const std::string& status = "ok")
{
  return CampaignRow::from_json({{"run_id", id},
                                 {"p", p},
                                 {"status", status},
                                 {"milp_status", milp_status},
                                 {"period_random", random},
                                 {"period_max_bout", max_bout},
                                 {"period_min_comm", min_comm},
                                 {"period_min_nb_procs", min_nb},
                                 {"period_milp", milp}},
                                "elections_row");
}
} // namespace

TEST(ElectionsTable, GroupsByPAndExcludesUnprovenRows)
{
  std::vector<CampaignRow> rows{elections_row(0, 10, 15, 10, 12, 10, 10),           // deviations 0.5, 0, 0.2, 0
                                elections_row(1, 10, 20, 30, 20, 22, 20),           // 0, 0.5, 0, 0.1
                                elections_row(2, 100, 4, 2, 2, 2, 2),               // 1, 0, 0, 0
                                elections_row(3, 100, 9, 9, 9, 9, 3, "time limit"), // excluded: MILP not proven optimal
                                elections_row(4, 10, 1, 1, 1, 1, 1, "optimal", "error")}; // excluded: not ok
  ElectionsTable t = elections_table(rows);
  EXPECT_EQ(t.excluded_runs, (std::vector<int>{3, 4}));
  ASSERT_EQ(t.rows.size(), 12u); // 2 values of p x (4 heuristics, best, milp)
  std::vector<std::string> names;
  for (std::size_t i = 0; i < 6; ++i)
    names.push_back(t.rows[i].heuristic);
  EXPECT_EQ(names, (std::vector<std::string>{"random", "max-bout", "min-comm", "min-nb-procs", "best", "milp"}));
  const auto& random10 = t.rows[0];
  EXPECT_EQ(random10.p, 10);
  EXPECT_EQ(random10.stats.instances, 2);
  EXPECT_DOUBLE_EQ(random10.stats.max, 0.5);
  EXPECT_DOUBLE_EQ(random10.stats.mean, 0.25);
  EXPECT_DOUBLE_EQ(random10.stats.sd, 0.25);
  EXPECT_DOUBLE_EQ(random10.stats.best_rate, 0.5);
  EXPECT_DOUBLE_EQ(t.rows[3].stats.mean, 0.05); // MinNbProcs at p = 10: 0 and 0.1
  EXPECT_DOUBLE_EQ(t.rows[4].stats.max, 0);     // best of the four: 0 on both p = 10 instances
  EXPECT_DOUBLE_EQ(t.rows[4].stats.best_rate, 1);
  EXPECT_EQ(t.rows[5].heuristic, "milp");
  EXPECT_DOUBLE_EQ(t.rows[5].stats.best_rate, 1);
  EXPECT_EQ(t.rows[6].p, 100);
  EXPECT_EQ(t.rows[6].stats.instances, 1);
  EXPECT_DOUBLE_EQ(t.rows[6].stats.max, 1);

  EXPECT_EQ(elections_table_columns(), (std::vector<std::string>{"p", "instances", "heuristic", "max", "average", "sd",
                                                                 "best_rate", "below_milp"}));
  std::string csv = elections_table_csv(t);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "p,instances,heuristic,max,average,sd,best_rate,below_milp");
  EXPECT_NE(csv.find("\n10,2,random,0.5,0.25,0.25,0.5,0\n"), std::string::npos) << csv;
  std::string md = elections_table_markdown(t);
  EXPECT_EQ(md.substr(0, md.find('\n')), "| p | instances | heuristic | max | av. | stdv. | best rate | below MILP |");
  EXPECT_NE(md.find("| 10 | 2 | random | 0.500 | 0.250 | 0.250 | 50.00% | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("runs 3, 4."), std::string::npos) << md;
}

namespace {
#ifdef PIPESIM_SANITIZE
const int seeds = 2; // CI runs this suite under ASan too: fewer instances
#else
const int seeds = 5;
#endif

std::string small_elections_campaign()
{
  return fmt::format(R"(name: table1-tiny
mode: elections
milp_time_limit: 30
base:
  pipeline: {{generate: {{preset: bbr10-table1, n: 4, seed: 1}}}}
  platform: {{generate: {{preset: bbr10, p: 6, seed: 1}}}}
  mapper: random.stage-sets
  simulation: {{model: multi-port}}
sweep:
  platform.generate.p: [4, 8]
  pipeline.generate.n: [3, 8]
seed: {{from: 1, count: {}, distinct: true}}
)",
                     seeds);
}
} // namespace

TEST(ElectionsCampaign, NoHeuristicBelowTheMilpAndTheTableAddsUp)
{
  Campaign c = parse_campaign(small_elections_campaign(), "tiny.yaml", ".");
  ASSERT_EQ(c.mode, CampaignMode::elections);
  EXPECT_EQ(c.milp_time_limit, 30);
  ASSERT_EQ(c.runs.size(), static_cast<std::size_t>(4 * seeds));
  std::vector<CampaignRow> rows;
  for (const auto& run : c.runs) {
    EXPECT_EQ(run.seed, 1u + static_cast<unsigned>(run.id)); // distinct seeds
    nlohmann::json r = execute_run(c, run, "").to_json();
    ASSERT_EQ(r["status"], "ok") << r.dump();
    ASSERT_EQ(r["milp_status"], "optimal") << run.describe();
    EXPECT_EQ(r["rule"], "general") << r["mapping"];
    EXPECT_EQ(r["random_seed"], run.seed ^ 0xE1EC7ULL);
    double milp = r["period_milp"].get<double>();
    for (const auto& h : table1_heuristics())
      EXPECT_GE(r[election_period_column(to_string(h))].get<double>(), milp * (1 - 1e-9))
          << h << " below the MILP on run " << run.id << " (" << run.describe() << "), mapping " << r["mapping"];
    rows.push_back(CampaignRow::from_json(r, "run " + std::to_string(run.id)));
  }
  ElectionsTable t = elections_table(rows);
  EXPECT_TRUE(t.excluded_runs.empty());
  ASSERT_EQ(t.rows.size(), 12u);
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const auto& r = t.rows[i];
    EXPECT_EQ(r.p, i < 6 ? 4 : 8);
    EXPECT_EQ(r.stats.instances, 2 * seeds);
    EXPECT_EQ(r.stats.below, 0) << r.heuristic;
    EXPECT_GE(r.stats.mean, -1e-9);
    EXPECT_LE(r.stats.mean, r.stats.max);
    EXPECT_GE(r.stats.best_rate, 0);
    EXPECT_LE(r.stats.best_rate, 1);
  }
  for (std::size_t base : {0u, 6u}) { // best is the smallest of the four, the MILP row is exact
    for (std::size_t h = 0; h < 4; ++h) {
      EXPECT_LE(t.rows[base + 4].stats.max, t.rows[base + h].stats.max + 1e-12);
      EXPECT_GE(t.rows[base + 4].stats.best_rate, t.rows[base + h].stats.best_rate);
    }
    EXPECT_EQ(t.rows[base + 5].stats.max, 0);
    EXPECT_EQ(t.rows[base + 5].stats.best_rate, 1);
  }
}

TEST(ElectionsCampaign, RunnerWritesTheElectionColumnsAndTheTable)
{
  Campaign c = parse_campaign(small_elections_campaign(), "tiny.yaml", ".");
  auto dir   = fs::temp_directory_path() / fmt::format("pipesim-elections-{}", getpid());
  fs::remove_all(dir);
  RunnerOptions o;
  o.out_dir = dir.string();
  o.jobs    = 2;
  o.quiet   = true;
  o.only    = {0, 1, 2};
  run_campaign(c, o);
  std::ifstream csv(dir / "results.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header, CampaignRow::csv_header(c.swept, CampaignMode::elections));
  EXPECT_NE(header.find(",timing.wall_seconds,timing.milp_seconds,timing.heuristics_seconds,"), std::string::npos)
      << header;
  EXPECT_NE(header.find(",period_random,period_max_bout,period_min_comm,period_min_nb_procs,period_milp,milp_status,"),
            std::string::npos)
      << header;
  auto simulate_columns = csv_columns(c.swept);
  EXPECT_EQ(std::find(simulate_columns.begin(), simulate_columns.end(), "period_milp"), simulate_columns.end());

  ElectionsTable t = write_elections_table(dir.string());
  int instances    = 0;
  for (const auto& r : t.rows)
    instances += r.heuristic == to_string(ElectionPolicy::random) ? r.stats.instances : 0;
  EXPECT_EQ(instances, 3);
  std::ifstream table_csv(dir / "elections-table.csv");
  std::getline(table_csv, header);
  EXPECT_EQ(header, "p,instances,heuristic,max,average,sd,best_rate,below_milp");
  EXPECT_TRUE(fs::exists(dir / "elections-table.md"));
  fs::remove_all(dir);
}

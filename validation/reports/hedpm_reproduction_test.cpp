// The -small twins of hedpm's reproduction campaigns (validation/campaigns/hedpm-*-small.yaml) run end to end, and
// the figures docs/reproduction-hedpm.md compares with the paper computed from their rows (validation/hedpm_tables).
#include "validation/reports/campaign_test_util.hpp"
#include "validation/reports/hedpm_tables.hpp"

#include <fmt/format.h>
#include <functional>
#include <gtest/gtest.h>
#include <tuple>

using namespace pipesim;

namespace {

/// Runs validation/campaigns/<name>.yaml (in `mode`, only the runs `keep` accepts) into a fresh directory and reads
/// its rows back. Simulated rows must have the event graph's period (the simulator's oracle, docs/semantics.md "Deal
/// replication") within 1e-9 relative: the -small campaigns simulate enough data sets for two rounds of L after the
/// warm-up on the rows kept here.
HedpmTables run_small(const std::string& name, CampaignMode mode = CampaignMode::simulate,
                      const std::function<bool(const CampaignRun&)>& keep = {})
{
  Campaign c = test::shipped_campaign(name);
  c.mode     = mode;
  if (keep) std::erase_if(c.runs, [&](const CampaignRun& run) { return not keep(run); });
  RunnerSummary summary;
  CampaignResults results = test::run_in_temp(c, name, &summary);
  EXPECT_EQ(summary.failures, 0);
  for (const auto& row : results.rows) {
    EXPECT_TRUE(row.ok()) << name << " run " << row.run_id << ": " << row.status << " " << row.error;
    if (mode != CampaignMode::simulate || not row.ok()) continue;
    EXPECT_TRUE(row.simulated_period && row.event_graph_period) << name << " run " << row.run_id;
    if (row.simulated_period && row.event_graph_period) {
      EXPECT_NEAR(*row.simulated_period / *row.event_graph_period, 1.0, 1e-9) << name << " run " << row.run_id;
    }
  }
  return results.rows.size() == c.runs.size() ? hedpm_tables(results) : HedpmTables{};
}

/// The value of a swept key in a run ("" when not swept).
std::string param(const CampaignRun& run, const std::string& key)
{
  for (const auto& [k, v] : run.params)
    if (k == key) return v.as<std::string>();
  return "";
}

const HedpmDistance* distance(const HedpmTables& t, const std::string& mapper, HedpmMeasure measure)
{
  for (const auto& d : t.distances)
    if (d.mapper == mapper && d.measure == measure) return &d;
  return nullptr;
}

const HedpmRatio* ratio(const HedpmTables& t, const std::string& mapper)
{
  for (const auto& r : t.ratios)
    if (r.mapper == mapper) return &r;
  return nullptr;
}

} // namespace

TEST(HedpmReproduction, Fig1Small)
{
#ifdef PIPESIM_SANITIZE
  GTEST_SKIP() << "figures of a whole campaign (the plain build checks them); under the sanitizers the mappers, the "
                  "event graph and the runner they use are checked by their own tests and Figs23SmallSimulated";
#endif
  // N = P = 4, seeds 1..10 of the `hedpm` presets: HeDPM 18.65 % above the §5.1 optimum on average (the full
  // campaign: 23.2 %; the paper: 40.8 %), HeDPM-scan 13.49 %; dealing gathered intervals too lowers the optimum by
  // 8.1 %. On these uniform links HeDPM's model is the exact period of every mapping (ratio 1), and the simulation
  // (200 data sets, one-port, exact network) measures it.
  HedpmTables t = run_small("hedpm-fig1-small");
  EXPECT_EQ(t.reference, "hedpm.exhaustive");
  for (HedpmMeasure m : hedpm_measures) {
    const HedpmDistance* h = distance(t, "hedpm", m);
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(h->instances, 10);
    EXPECT_NEAR(h->mean, 0.1865, 5e-5);
    EXPECT_NEAR(h->max, 0.4051, 5e-5);
    EXPECT_EQ(h->optimal, 1);
    EXPECT_EQ(h->histogram, (std::vector<int>{3, 5, 2, 0, 0, 0, 0, 0}));
    const HedpmDistance* scan = distance(t, "hedpm.scan", m);
    ASSERT_NE(scan, nullptr);
    EXPECT_NEAR(scan->mean, 0.1349, 5e-5);
    const HedpmDistance* beyond = distance(t, "hedpm.exact.replicated-intervals", m);
    ASSERT_NE(beyond, nullptr);
    EXPECT_NEAR(beyond->mean, -0.0810, 5e-5);
  }
  for (const auto& r : t.ratios) {
    EXPECT_EQ(r.rows, 10) << r.mapper;
    EXPECT_EQ(r.differ, 0) << r.mapper;
  }
}

TEST(HedpmReproduction, Figs23Small)
{
#ifdef PIPESIM_SANITIZE
  GTEST_SKIP() << "figures of a whole campaign (the plain build checks them); under the sanitizers the mappers, the "
                  "event graph and the runner they use are checked by their own tests and Figs23SmallSimulated";
#endif
  // N = 30, P = 10, 30, 60, 100, seeds 1..3. Delta = 10 (Fig. 2): BSC better at 10 and 30, HeDPM at 60 (the scan at
  // 60 and 100). Delta in [1, 100] (Fig. 3): BSC better at 10 and 30 (by 3x at P = 10), HeDPM from 60 on. Links
  // b in [1, 20] (the other reading of Fig. 3): BSC better everywhere, and HeDPM's model below the exact period.
  // Analytic: simulating the 108 runs takes about a minute (P = 100 with dealt replicas, L up to 840 data sets, and
  // the 500 data sets of the -small campaign are less than a round there); Figs23SmallSimulated simulates P = 10.
  HedpmTables t = run_small("hedpm-fig23-small", CampaignMode::analytic);
  ASSERT_FALSE(t.means.empty());
  const std::string hom   = "pipeline.generate.preset=hedpm-5.2-hom platform.generate.bandwidth=10 "
                            "platform.generate.class=communication-homogeneous";
  const std::string het   = "pipeline.generate.preset=hedpm-5.2-het platform.generate.bandwidth=10 "
                            "platform.generate.class=communication-homogeneous";
  const std::string links = "pipeline.generate.preset=hedpm-5.2-het platform.generate.bandwidth=[1, 20] "
                            "platform.generate.class=fully-heterogeneous";
  for (HedpmMeasure m : {HedpmMeasure::model, HedpmMeasure::event_graph}) {
    EXPECT_EQ(hedpm_better_than_bsc(t, hom, "hedpm", m), "60");
    EXPECT_EQ(hedpm_better_than_bsc(t, hom, "hedpm.scan", m), "60-100");
    EXPECT_EQ(hedpm_better_than_bsc(t, het, "hedpm", m), "60-100");
    EXPECT_EQ(hedpm_better_than_bsc(t, het, "hedpm.scan", m), "60-100");
    EXPECT_EQ(hedpm_better_than_bsc(t, links, "hedpm.scan", m), "none");
  }
  auto mean = [&](const std::string& family, int p, const std::string& mapper, HedpmMeasure m) {
    for (const auto& x : t.means)
      if (x.family == family && x.p == p && x.mapper == mapper && x.measure == m) return x.mean;
    return -1.0;
  };
  EXPECT_NEAR(mean(hom, 10, "hedpm", HedpmMeasure::model), 9.0404, 5e-5);
  EXPECT_NEAR(mean(hom, 10, "br07.h7b-bsc", HedpmMeasure::model), 6.0823, 5e-5);
  EXPECT_NEAR(mean(het, 100, "hedpm.scan", HedpmMeasure::event_graph), 6.4824, 5e-5);
  EXPECT_NEAR(mean(het, 100, "br07.h7b-bsc", HedpmMeasure::event_graph), 11.0959, 5e-5);
  EXPECT_NEAR(mean(links, 60, "hedpm", HedpmMeasure::model), 16.2574, 5e-5);
  EXPECT_NEAR(mean(links, 60, "hedpm", HedpmMeasure::event_graph), 17.7844, 5e-5);
  // BSC's mappings have one processor per interval: the model is br07 eq. (2), exact. HeDPM's dealt mappings on
  // heterogeneous links: the model is optimistic, down to 0.6926 of the exact period.
  const HedpmRatio* bsc = ratio(t, "br07.h7b-bsc");
  ASSERT_NE(bsc, nullptr);
  EXPECT_EQ(bsc->differ, 0);
  const HedpmRatio* hedpm = ratio(t, "hedpm");
  ASSERT_NE(hedpm, nullptr);
  EXPECT_EQ(hedpm->rows, 36);
  EXPECT_EQ(hedpm->differ, 3);
  EXPECT_NEAR(hedpm->min, 0.692620, 5e-7);
  EXPECT_NEAR(hedpm->max, 1.0, 1e-12);
}

TEST(HedpmReproduction, Figs23SmallSimulated)
{
  // The P = 10 runs of hedpm-fig23-small simulated (seed 1 only under the sanitizers): six of the 18 HeDPM mappings
  // deal replicas; every simulated period is the event graph's (run_small), so BSC stays better at P = 10 in every
  // family by the simulation too, with the means of Figs23Small.
  HedpmTables t = run_small("hedpm-fig23-small", CampaignMode::simulate, [](const CampaignRun& run) {
#ifdef PIPESIM_SANITIZE
    if (run.seed != 1) return false;
#endif
    return param(run, "platform.generate.p") == "10";
  });
  ASSERT_FALSE(t.means.empty());
  const std::string hom = "pipeline.generate.preset=hedpm-5.2-hom platform.generate.bandwidth=10 "
                          "platform.generate.class=communication-homogeneous";
  for (const auto& x : t.means)
    EXPECT_EQ(hedpm_better_than_bsc(t, x.family, x.mapper, HedpmMeasure::simulation), "none") << x.family;
#ifndef PIPESIM_SANITIZE
  auto mean = [&](const std::string& mapper) {
    for (const auto& x : t.means)
      if (x.family == hom && x.p == 10 && x.mapper == mapper && x.measure == HedpmMeasure::simulation) return x.mean;
    return -1.0;
  };
  EXPECT_NEAR(mean("hedpm"), 9.0404, 5e-5);
  EXPECT_NEAR(mean("br07.h7b-bsc"), 6.0823, 5e-5);
#endif
}

TEST(HedpmReproduction, FerretSmall)
{
#ifdef PIPESIM_SANITIZE
  GTEST_SKIP() << "figures of a whole campaign (the plain build checks them); under the sanitizers the mappers, the "
                  "event graph and the runner they use are checked by their own tests and Figs23SmallSimulated";
#endif
  // hedpm §5.3 with pipesim's choices (the campaign's comment): the orderly assignment over HeDPM's mapping,
  // test systems 1 and 2: 11.66x and 2.22x (the paper: 9.2x on its own system); the optimum of HeDPM's space 13.33x
  // and 2.67x. Simulated (700 data sets): the same ratios as by the event graph.
  HedpmTables t = run_small("hedpm-ferret-small");
  auto speedup  = [&](const std::string& mapper) -> const HedpmSpeedup* {
    for (const auto& s : t.speedups)
      if (s.mapper == mapper && s.measure == HedpmMeasure::simulation) return &s;
    return nullptr;
  };
  ASSERT_NE(speedup("hedpm"), nullptr);
  EXPECT_EQ(speedup("hedpm")->instances, 2);
  EXPECT_NEAR(speedup("hedpm")->max, 20.002 / 1.715, 5e-3);
  EXPECT_NEAR(speedup("hedpm")->min, 4.002 / 1.8, 5e-3);
  ASSERT_NE(speedup("hedpm.exact"), nullptr);
  EXPECT_NEAR(speedup("hedpm.exact")->max, 20.002 / 1.501, 5e-3);
}

TEST(HedpmReproduction, ATieWithBscIsNotBetter)
{
  // Near the transfer floor HeDPM and BSC reach the same period; simulated means of a tie differ in the last digits
  // (2.988 against 2.988 + 3e-15 at P = 90 of the docs' sample), which must not count as HeDPM better.
  HedpmTables t;
  const std::string family = "delta-10";
  for (auto [p, hedpm, bsc] : {std::tuple{80, 2.5, 3.0}, {90, 2.988, 2.988 + 3e-15}, {100, 2.988 - 1e-6, 2.988}}) {
    t.means.push_back({family, p, "hedpm", HedpmMeasure::simulation, 1, hedpm});
    t.means.push_back({family, p, "br07.h7b-bsc", HedpmMeasure::simulation, 1, bsc});
  }
  EXPECT_EQ(hedpm_better_than_bsc(t, family, "hedpm", HedpmMeasure::simulation), "80, 100");
}

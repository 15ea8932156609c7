// The report's mean period per mapper and family: one curve per mapper and per value of every other swept key, each
// point the closed-form mean of the rows it covers; keys that do not vary within a mapper split nothing.
#include "validation/reports/report_means.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace pipesim {
namespace {

/// hedpm-fig23-small's sweep in miniature: three communication families (a zip of preset, class and bandwidth), P on
/// the x axis, two mappers, three seeds. Run period = base(mapper) + offset(family) + P / 10 + seed, so the mean over
/// the seeds 1..3 of one (mapper, family, P) is base + offset + P / 10 + 2, in closed form. The offsets 0, 10 and 100
/// make the mean over the families (base + 36.67 + P / 10 + 2) equal to none of them.
struct Family {
  const char* preset;
  const char* klass;
  nlohmann::json bandwidth;
  double offset;
};
const Family families[]                        = {{"hedpm-5.2-hom", "communication-homogeneous", "10", 0},
                                                  {"hedpm-5.2-het", "communication-homogeneous", "10", 10},
                                                  {"hedpm-5.2-het", "fully-heterogeneous", nlohmann::json::array({1, 20}), 100}};
const std::pair<const char*, double> mappers[] = {{"hedpm", 1000}, {"br07.h7b-bsc", 2000}};
const int processors[]                         = {10, 30};

CampaignResults fig23_like()
{
  CampaignResults results;
  results.swept = {"pipeline.generate.preset",
                   "platform.generate.class",
                   "platform.generate.bandwidth",
                   "platform.generate.p",
                   "mapper",
                   "seed"};
  int id        = 0;
  for (const Family& family : families)
    for (int p : processors)
      for (const auto& [mapper, base] : mappers)
        for (int seed = 1; seed <= 3; ++seed) {
          CampaignRow row;
          row.run_id           = id++;
          row.mapper           = mapper;
          row.status           = RunStatus::ok;
          row.p                = p;
          row.params           = {{"pipeline.generate.preset", family.preset},
                                  {"platform.generate.class", family.klass},
                                  {"platform.generate.bandwidth", family.bandwidth},
                                  {"platform.generate.p", std::to_string(p)},
                                  {"mapper", mapper},
                                  {"seed", seed}};
          row.analytic_period  = base + family.offset + p / 10.0 + seed;
          row.simulated_period = *row.analytic_period * 2;
          results.rows.push_back(row);
        }
  CampaignRow failed     = results.rows.front(); // not ok: in no mean
  failed.status          = RunStatus::error;
  failed.analytic_period = 1e9;
  results.rows.push_back(failed);
  return results;
}

TEST(ReportMeans, OneCurvePerMapperAndFamilyWithClosedFormMeans)
{
  std::vector<MapperMean> means = mapper_means(fig23_like(), "platform.generate.p");
  ASSERT_EQ(means.size(), 2u * 3u * 2u); // mappers x families x P
  std::size_t i = 0;
  for (const auto& [mapper, base] : mappers)
    for (const Family& family : families)
      for (int p : processors) {
        const MapperMean& m = means[i++];
        SCOPED_TRACE(fmt::format("{} {} P = {}", mapper, family.offset, p));
        EXPECT_EQ(m.mapper, mapper);
        EXPECT_EQ(m.x, p);
        EXPECT_EQ(m.p, p);
        EXPECT_EQ(m.runs, 3);
        ASSERT_TRUE(m.analytic && m.simulated);
        EXPECT_DOUBLE_EQ(*m.analytic, base + family.offset + p / 10.0 + 2);
        EXPECT_DOUBLE_EQ(*m.simulated, 2 * (base + family.offset + p / 10.0 + 2));
        // every splitting key in full; the title needs preset and class only (the bandwidth follows the class)
        std::string bandwidth =
            family.bandwidth.is_string() ? family.bandwidth.get<std::string>() : family.bandwidth.dump();
        EXPECT_EQ(m.family, fmt::format("pipeline.generate.preset={} platform.generate.class={} "
                                        "platform.generate.bandwidth={}",
                                        family.preset, family.klass, bandwidth));
        EXPECT_EQ(m.title(), fmt::format("{}, preset = {}, class = {}", mapper, family.preset, family.klass));
      }
}

TEST(ReportMeans, KeysThatDoNotVaryWithinAMapperSplitNothing)
{
  // fft-hist.yaml zips `mapping` with `mapper` (an explicit mapping for `explicit`, none for the mappers): one
  // curve per mapper; and a key swept with one value splits nothing either
  CampaignResults results;
  results.swept = {"mapping", "mapper", "simulation.datasets", "pipeline.generate.n"};
  int id        = 0;
  for (const char* mapper : {"explicit", "sv95.dp"})
    for (int n : {2, 4}) {
      CampaignRow row;
      row.run_id          = id++;
      row.mapper          = mapper;
      row.status          = RunStatus::ok;
      row.params          = {{"mapping", std::string(mapper) == "explicit" ? nlohmann::json("[{stages: [1, 2]}]")
                                                                           : nlohmann::json(nullptr)},
                             {"mapper", mapper},
                             {"simulation.datasets", "200"},
                             {"pipeline.generate.n", std::to_string(n)}};
      row.analytic_period = n + (std::string(mapper) == "explicit" ? 0.5 : 0);
      results.rows.push_back(row);
    }
  std::vector<MapperMean> means = mapper_means(results, "pipeline.generate.n");
  ASSERT_EQ(means.size(), 4u);
  for (const MapperMean& m : means) {
    EXPECT_EQ(m.family, "");
    EXPECT_EQ(m.title(), m.mapper);
    EXPECT_FALSE(m.p); // the rows do not give it
    EXPECT_DOUBLE_EQ(*m.analytic, m.x + (m.mapper == "explicit" ? 0.5 : 0));
  }
}

TEST(ReportMeans, TitlesUseWholeKeysWhenTheirLastPartsClash)
{
  CampaignResults results;
  results.swept = {"pipeline.generate.seed", "platform.generate.seed", "pipeline.generate.n", "seed"};
  int id        = 0;
  for (int a : {1, 2})
    for (int b : {1, 2}) {
      CampaignRow row;
      row.run_id          = id++;
      row.mapper          = "m";
      row.status          = RunStatus::ok;
      row.params          = {{"pipeline.generate.seed", a}, {"platform.generate.seed", b}, {"pipeline.generate.n", 3}};
      row.analytic_period = 10 * a + b;
      results.rows.push_back(row);
    }
  std::vector<MapperMean> means = mapper_means(results, "pipeline.generate.n");
  ASSERT_EQ(means.size(), 4u);
  EXPECT_EQ(means[3].title(), "m, pipeline.generate.seed = 2, platform.generate.seed = 2");
  EXPECT_EQ(means[3].family, "pipeline.generate.seed=2 platform.generate.seed=2");
  EXPECT_DOUBLE_EQ(*means[3].analytic, 22);
}

TEST(ReportMeans, DefaultXIsTheNumericSweptKeyWithTheMostValues)
{
  // br07-exp*.yaml sweep platform.generate.p (10, 100) before pipeline.generate.n (1..50): n on the axis, a curve per
  // mapper and p; the seed and the mapper are never the axis, and a key with a value that is no number is not either
  CampaignResults results;
  results.swept = {"platform.generate.p", "pipeline.generate.preset", "pipeline.generate.n", "mapper", "seed"};
  for (int p : {10, 100})
    for (int n : {1, 5, 10})
      for (int seed = 1; seed <= 5; ++seed) {
        CampaignRow row;
        row.status = RunStatus::ok;
        row.mapper = "m";
        row.params = {{"platform.generate.p", std::to_string(p)},
                      {"pipeline.generate.preset", n == 1 ? "br07-exp1" : "1e3"},
                      {"pipeline.generate.n", std::to_string(n)},
                      {"mapper", "m"},
                      {"seed", seed}};
        results.rows.push_back(row);
      }
  EXPECT_EQ(choose_x_key(results, ""), "pipeline.generate.n");
  results.swept = {"platform.generate.p", "mapper", "seed"};
  EXPECT_EQ(choose_x_key(results, ""), "platform.generate.p");
  results.swept = {"pipeline.generate.preset", "mapper", "seed"};
  EXPECT_EQ(choose_x_key(results, ""), "");
}

} // namespace
} // namespace pipesim

// Tests of CampaignRow: JSON and CSV round trips, absent and null cells, type errors, and the documented columns.
#include "validation/campaigns/campaign_row.hpp"

#include "base/input_error.hpp"

#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>

using namespace pipesim;
using ::testing::HasSubstr;

namespace {

/// A row with every kind of cell: texts, whole numbers, figures, a null figure, elections and timing columns.
CampaignRow full_campaign_row()
{
  CampaignRow r;
  r.campaign             = "c, \"quoted\"";
  r.run_id               = 7;
  r.seed                 = 18446744073709551615ull; // the largest seed: JSON unsigned
  r.mapper               = "exact.interval";
  r.status               = RunStatus::ok;
  r.mapper_status        = "optimal";
  r.mapper_lower_bound   = 2.5;
  r.mapper_gap           = 0.0;
  r.period_test          = "worst-case";
  r.n                    = 4;
  r.p                    = 3;
  r.platform_class       = "fully-heterogeneous";
  r.mapping              = "[1-2]:P3 [3-4]:P1";
  r.rule                 = "general";
  r.formula              = "eq. (1)";
  r.analytic_period      = 2.5;
  r.event_graph_period   = RowNumber::null(); // a deadlocked event graph
  r.simulated_period     = 0.1 + 0.2;         // 0.30000000000000004: 17 digits in CSV
  r.crashes              = 2;
  r.survival_rate        = 0.75;
  r.after_crash_measured = 5;
  r.simulated_datasets   = 1000u;
  r.nbue_applies         = true;
  r.nbue_holds           = false; // a flag: false is a value, not an absent cell
  r.policy               = "threshold";
  r.dynamic_mapper       = "hedpm";
  r.remaps               = 2;
  r.load_changes         = 5;
  r.downtime             = 8.5;
  r.horizon              = 1000.0;
  r.datasets_by_horizon  = 400u;
  r.mean_period          = 2.5;
  r.makespan             = 1200.0;
  r.error                = "";
  r.election_periods     = {1.0, 2.0, 3.0, 4.0};
  r.period_milp          = 1.0;
  r.milp_status          = "optimal";
  r.random_seed          = 42u;
  r.mapper_seconds       = 0.5;
  r.wall_seconds         = 1.25;
  r.milp_seconds         = 0.125;
  r.params               = {{"mapper", "exact.interval"}, {"pipeline.generate.n", 4}};
  r.scenario_yaml        = "mapper: exact.interval\n";
  return r;
}

/// The names between backquotes in docs/campaigns.md from `from` to `to`.
std::vector<std::string> documented_columns(const std::string& from, const std::string& to)
{
  std::ifstream in(std::string(PIPESIM_SOURCE_DIR) + "/docs/campaigns.md");
  std::stringstream text;
  text << in.rdbuf();
  std::string doc   = text.str();
  std::size_t begin = doc.find(from);
  std::size_t end   = doc.find(to, begin);
  EXPECT_NE(begin, std::string::npos) << from;
  EXPECT_NE(end, std::string::npos) << to;
  std::string part = doc.substr(begin, end - begin);
  std::vector<std::string> names;
  std::regex quoted("`([^`]*)`");
  for (auto it = std::sregex_iterator(part.begin(), part.end(), quoted); it != std::sregex_iterator(); ++it)
    names.push_back((*it)[1]);
  return names;
}

} // namespace

TEST(CampaignRow, JsonRoundTripKeepsEveryCellAbsentNullOrValue)
{
  CampaignRow row  = full_campaign_row();
  nlohmann::json j = row.to_json();
  EXPECT_TRUE(j["event_graph_period"].is_null()); // computed, no finite value
  EXPECT_FALSE(j.contains("hedpm_period"));       // not computed
  EXPECT_FALSE(j.contains("verdict"));            // empty text: absent
  EXPECT_EQ(j["error"], "");                      // ... but error is always written
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["seed"], 18446744073709551615ull);
  EXPECT_EQ(j["timing"], (nlohmann::json{{"mapper_seconds", 0.5}, {"wall_seconds", 1.25}, {"milp_seconds", 0.125}}));
  EXPECT_EQ(j["period_max_bout"], 2.0);
  EXPECT_EQ(j["nbue_holds"], false);
  EXPECT_EQ(j["simulated_datasets"], 1000);
  EXPECT_FALSE(j.contains("mapper_seconds")); // timing columns only under "timing"
  CampaignRow back = CampaignRow::from_json(nlohmann::json::parse(j.dump()), "test");
  EXPECT_EQ(back, row);
  EXPECT_TRUE(back.event_graph_period.present());
  EXPECT_FALSE(back.event_graph_period); // read like an optional: no value
  EXPECT_FALSE(back.hedpm_period.present());
  EXPECT_EQ(back.to_json().dump(), j.dump());
}

TEST(CampaignRow, UnknownKeysAreKeptAndLegacyTimingMovesUnderTiming)
{
  auto j          = nlohmann::json::parse(R"({"run_id": 3, "status": "crashed", "future_column": [1, 2],
                                     "wall_seconds": 2, "params": {"seed": 1}})");
  CampaignRow row = CampaignRow::from_json(j, "results.jsonl:4");
  EXPECT_EQ(row.run_id, 3);
  EXPECT_EQ(row.status, RunStatus::crashed);
  EXPECT_EQ(row.wall_seconds, RowNumber(2.0));
  nlohmann::json out = row.to_json();
  EXPECT_EQ(out["future_column"], nlohmann::json::parse("[1, 2]"));
  EXPECT_EQ(out["timing"], (nlohmann::json{{"wall_seconds", 2.0}}));
  EXPECT_FALSE(out.contains("wall_seconds"));
  EXPECT_EQ(out["params"], (nlohmann::json{{"seed", 1}}));
}

TEST(CampaignRow, WrongTypesAreInputErrorsNamingWhereKeyAndValue)
{
  auto refusal = [](const std::string& text) {
    try {
      CampaignRow::from_json(nlohmann::json::parse(text), "DIR/results.jsonl:12");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(refusal(R"({"run_id": "7"})"),
            "DIR/results.jsonl:12: key 'run_id': value '\"7\"': expected a whole number");
  EXPECT_EQ(refusal(R"({"status": "done"})"),
            "DIR/results.jsonl:12: key 'status': value '\"done\"': expected ok, infeasible, error, crashed or "
            "timeout");
  EXPECT_EQ(refusal(R"({"analytic_period": "2.5"})"),
            "DIR/results.jsonl:12: key 'analytic_period': value '\"2.5\"': expected a number or null");
  EXPECT_EQ(refusal(R"({"timing": {"wall_seconds": true}})"),
            "DIR/results.jsonl:12: key 'wall_seconds': value 'true': expected a number or null");
  EXPECT_EQ(refusal(R"({"nbue_holds": 1})"),
            "DIR/results.jsonl:12: key 'nbue_holds': value '1': expected true or false");
  EXPECT_THAT(refusal("[1]"), HasSubstr("expected a JSON object"));
}

TEST(CampaignRow, CsvLineHasOneCellPerColumnInTheHeaderOrder)
{
  CampaignRow row = full_campaign_row();
  std::vector<std::string> swept{"mapper", "pipeline.generate.n", "not.in.params"};
  std::vector<std::string> columns = csv_columns(swept, CampaignMode::elections);
  std::string header               = CampaignRow::csv_header(swept, CampaignMode::elections);
  std::string line                 = row.csv_line(swept, CampaignMode::elections);
  // no field of this row holds a comma but the quoted campaign name: count fields after it
  std::string rest = line.substr(line.find("\",") + 1);
  EXPECT_EQ(std::count(rest.begin(), rest.end(), ','), static_cast<long>(columns.size()) - 1) << line;
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), static_cast<long>(columns.size()) - 1) << header;
  EXPECT_TRUE(
      line.starts_with("\"c, \"\"quoted\"\"\",7,18446744073709551615,exact.interval,ok,optimal,2.5,0,worst-case,,4,3,"))
      << line;
  // nbue_applies, nbue_holds, the re-mapping columns, error, the elections periods
  EXPECT_THAT(line, HasSubstr(",true,false,threshold,hedpm,2,5,8.5,1000,400,2.5,1200,,1,2,3,4,"));
  EXPECT_THAT(line, HasSubstr(",2.5,,,0.30000000000000004,")); // analytic, null event graph, absent hedpm, simulated
  EXPECT_TRUE(line.ends_with(",0.5,1.25,0.125,,exact.interval,4,")) << line; // timing, then the param cells
  // the other modes leave out the 11 elections cells and their 2 timing cells
  EXPECT_EQ(csv_columns({}, CampaignMode::simulate).size() + 13, csv_columns({}, CampaignMode::elections).size());
  std::string analytic = row.csv_line(swept, CampaignMode::analytic);
  EXPECT_EQ(std::count(line.begin(), line.end(), ',') - 13, std::count(analytic.begin(), analytic.end(), ','));
}

TEST(CampaignRow, ColumnsAreTheDocumentedOnes)
{
  std::vector<std::string> common = csv_columns({}, CampaignMode::simulate);
  EXPECT_EQ(documented_columns("a test checks this list against it): ", "and one param:KEY column"), common);
  std::vector<std::string> elections = csv_columns({}, CampaignMode::elections);
  std::vector<std::string> extra;
  for (const auto& column : elections)
    if (std::find(common.begin(), common.end(), column) == common.end()) extra.push_back(column);
  EXPECT_EQ(documented_columns("Extra row columns, after the common ones:", "after timing.wall_seconds."), extra);
  EXPECT_EQ(csv_columns({"seed"}, CampaignMode::analytic).back(), "param:seed");
}

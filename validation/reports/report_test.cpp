// Tests of the campaign report on a synthetic output directory: HTML, SVG series, per-mapper means, input errors.
#include "validation/reports/report.hpp"

#include "base/input_error.hpp"
#include "validation/reports/hedpm_tables.hpp"
#include "validation/reports/report_data.hpp"
#include "validation/reports/report_plots.hpp"

#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>
#include <unistd.h>

namespace fs = std::filesystem;

namespace pipesim {
namespace {

std::string read(const fs::path& path)
{
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

nlohmann::json report_row(int id, const std::string& mapper, int n, int seed, double analytic, double simulated)
{
  double error = std::fabs(simulated - analytic) / analytic;
  return {{"campaign", "synthetic"},
          {"run_id", id},
          {"params", {{"pipeline.generate.n", std::to_string(n)}, {"mapper", mapper}, {"seed", seed}}},
          {"seed", seed},
          {"mapper", mapper},
          {"status", "ok"},
          {"error", ""},
          {"analytic_period", analytic},
          {"event_graph_period", analytic},
          {"simulated_period", simulated},
          {"rel_error_period", error},
          {"rel_error_event_graph", error},
          {"failure_probability", 0.19}};
}

/// Two mappers over n in {5, 10} and seeds {1, 2}; the run (br07.h1, n = 10, seed 2) crashed. The n values are
/// strings, as the campaign runner writes swept YAML scalars. Hand-computed means (analytic / simulated):
///   br07.h1  n=5: (2+4)/2 = 3 / (2+4.008)/2 = 3.004    n=10: 6 / 6.12 (one ok run)
///   h2_split n=5: (3+5)/2 = 4 / 4                     n=10: (8+10)/2 = 9 / (8.00004+10)/2 = 9.00002
/// Relative errors: 0 (x4), 2e-3, 2e-2, 5e-6.
class ReportTest : public ::testing::Test {
protected:
  fs::path dir_;

  void SetUp() override
  {
    auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_       = fs::temp_directory_path() / fmt::format("pipesim-report-{}-{}", getpid(), info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write_campaign("simulate");
    std::vector<nlohmann::json> rows = {
        report_row(0, "br07.h1", 5, 1, 2, 2),     report_row(1, "br07.h1", 5, 2, 4, 4.008),
        report_row(2, "br07.h1", 10, 1, 6, 6.12), report_row(4, "h2_split", 5, 1, 3, 3),
        report_row(5, "h2_split", 5, 2, 5, 5),    report_row(6, "h2_split", 10, 1, 8, 8.00004),
        report_row(7, "h2_split", 10, 2, 10, 10)};
    rows[6]["survival_rate"]    = 0.8;
    rows[6]["survival_ci_low"]  = 0.72;
    rows[6]["survival_ci_high"] = 0.86;
    rows[6]["runs"]             = 100;
    nlohmann::json crashed      = {{"run_id", 3},
                                   {"params", {{"pipeline.generate.n", "10"}, {"mapper", "br07.h1"}, {"seed", 2}}},
                                   {"status", "crashed"}, // no "mapper", as the runner writes dead workers' rows
                                   {"error", "simulation process died: signal 11 <SEGV>"}};
    rows.insert(rows.begin() + 3, crashed);
    std::ofstream out(dir_ / "results.jsonl");
    for (const auto& r : rows)
      out << r.dump() << "\n";
    write_trace(3, "P1 [1,2] | P2 [3]");
    write_trace(12, "other");
  }

  void TearDown() override { fs::remove_all(dir_); }

  void write_campaign(const std::string& mode)
  {
    nlohmann::json campaign = {{"name", "synthetic <&> \"test\""},
                               {"mode", mode},
                               {"file", "campaigns/synthetic.yaml"},
                               {"swept", {"pipeline.generate.n", "mapper", "seed"}},
                               {"total", 8},
                               {"command", "pipesim campaign campaigns/synthetic.yaml --out <dir>"}};
    std::ofstream(dir_ / "campaign.json") << campaign.dump(2);
  }

  /// Data set k: P1 receives [k, k+0.2], computes [k+0.2, k+0.7], sends [k+0.7, k+0.9]; P2 receives [k+0.7, k+0.9],
  /// computes [k+0.9, k+1.5], sends [k+1.5, k+1.7]. Period 1, data sets 0..9.
  void write_trace(int run_id, const std::string& mapping)
  {
    nlohmann::json events = nlohmann::json::array();
    auto add              = [&events](const char* host, const char* kind, int k, double start, double end) {
      events.push_back(
                       {{"host", host}, {"kind", kind}, {"dataset", k}, {"interval", 0}, {"start", k + start}, {"end", k + end}});
    };
    for (int k = 0; k < 10; ++k) {
      add("P1", "receive", k, 0, 0.2);
      add("P1", "compute", k, 0.2, 0.7);
      add("P1", "send", k, 0.7, 0.9);
      add("P2", "receive", k, 0.7, 0.9);
      add("P2", "compute", k, 0.9, 1.5);
      add("P2", "send", k, 1.5, 1.7);
    }
    nlohmann::json trace = {{"run_id", run_id}, {"mapping", mapping}, {"period", 1.0}, {"trace", events}};
    std::ofstream(dir_ / fmt::format("trace-{}.json", run_id)) << trace.dump();
  }

  /// The blocks of mean_period.dat: mapper -> rows of numbers.
  std::map<std::string, std::vector<std::vector<double>>> mean_blocks()
  {
    std::map<std::string, std::vector<std::vector<double>>> blocks;
    std::ifstream in(dir_ / "mean_period.dat");
    std::string line, mapper;
    while (std::getline(in, line)) {
      if (line.rfind("# mapper ", 0) == 0) mapper = line.substr(9);
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      std::vector<double> values;
      std::string field;
      while (fields >> field)
        values.push_back(field == "NaN" ? std::nan("") : std::stod(field));
      blocks[mapper].push_back(values);
    }
    return blocks;
  }
};

TEST_F(ReportTest, WritesHtmlAndEveryPlot)
{
  write_report(dir_.string());
  std::string html = read(dir_ / "report.html");
  EXPECT_NE(html.find("synthetic &lt;&amp;&gt; &quot;test&quot;"), std::string::npos);
  EXPECT_EQ(html.find("synthetic <&>"), std::string::npos);
  EXPECT_NE(html.find("crashed: 1, ok: 7"), std::string::npos);
  EXPECT_NE(html.find("8 recorded of 8 planned"), std::string::npos);
  EXPECT_NE(html.find("1 rows are excluded"), std::string::npos);
  EXPECT_NE(html.find("<td>br07.h1</td><td>pipeline.generate.n=10 seed=2</td><td>crashed</td>"
                      "<td>simulation process died: signal 11 &lt;SEGV&gt;</td>"),
            std::string::npos);
  EXPECT_NE(html.find("max 0.02, median 0 (7 runs)"), std::string::npos);
  EXPECT_NE(html.find("--out &lt;dir&gt;"), std::string::npos);
  for (const char* name : {"period_scatter", "error_histogram", "mean_period", "survival", "gantt"}) {
    for (const char* ext : {".svg", ".gp", ".dat"})
      EXPECT_TRUE(fs::exists(dir_ / (std::string(name) + ext))) << name << ext;
    EXPECT_NE(html.find(fmt::format("<img src=\"{}.svg\"", name)), std::string::npos) << name;
  }
  std::string scatter = read(dir_ / "period_scatter.svg");
  for (const char* title : {"y = x", "simulated vs analytic", "simulated vs event graph"})
    EXPECT_NE(scatter.find(title), std::string::npos) << title;
  std::string means = read(dir_ / "mean_period.svg");
  for (const char* title : {"br07.h1", "h2_split", "simulated (circle)"})
    EXPECT_NE(means.find(title), std::string::npos) << title;
  std::string survival = read(dir_ / "survival.svg");
  EXPECT_NE(survival.find("h2_split"), std::string::npos);
  EXPECT_NE(survival.find("y = x"), std::string::npos);
  std::string gantt = read(dir_ / "gantt.svg");
  for (const char* title : {"receive", "compute", "send", "P1", "P2"})
    EXPECT_NE(gantt.find(title), std::string::npos) << title;
  EXPECT_NE(html.find("Run 3 (mapping P1 [1,2] | P2 [3])"), std::string::npos); // smallest run id of the traces
}

TEST_F(ReportTest, MeanPeriodDataHoldsTheHandComputedMeans)
{
  write_report(dir_.string());
  auto blocks = mean_blocks();
  ASSERT_EQ(blocks.size(), 2u);
  // columns: x p runs mean_analytic mean_simulated (p NaN: the rows do not give it)
  const std::vector<std::vector<double>> h1 = {{5, 2, 3, 3.004}, {10, 1, 6, 6.12}};
  const std::vector<std::vector<double>> h2 = {{5, 2, 4, 4}, {10, 2, 9, 9.00002}};
  for (const auto& [mapper, expected] : {std::pair{"br07.h1", h1}, std::pair{"h2_split", h2}}) {
    const auto& got = blocks[mapper];
    ASSERT_EQ(got.size(), expected.size()) << mapper;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i].size(), 5u) << mapper;
      EXPECT_TRUE(std::isnan(got[i][1])) << mapper;
      for (size_t c = 0; c < 4; ++c)
        EXPECT_NEAR(got[i][c == 0 ? 0 : c + 1], expected[i][c], 1e-12) << mapper << " row " << i << " column " << c;
    }
  }
  std::string html = read(dir_ / "report.html");
  EXPECT_NE(html.find("<td class=\"num\">3 (2)</td><td class=\"num\">3.004</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">9 (2)</td><td class=\"num\">9.00002</td>"), std::string::npos);
}

TEST_F(ReportTest, MeanPeriodCurvesAreSplitByEveryOtherSweptKey)
{
  // Two platform classes on top of n: run period = n + (100 for class fh) + seed; over seeds 1 and 2 the mean of a
  // (mapper, class, n) is n + offset + 1.5. One curve mixing both classes (n + 51.5) would match neither.
  nlohmann::json campaign = {{"name", "families"},
                             {"mode", "analytic"},
                             {"swept", {"pipeline.generate.n", "platform.generate.class", "mapper", "seed"}},
                             {"total", 8}};
  std::ofstream(dir_ / "campaign.json") << campaign.dump(2);
  std::ofstream out(dir_ / "results.jsonl");
  int id = 0;
  for (const char* klass : {"ch", "fh"})
    for (int n : {5, 10})
      for (int seed : {1, 2}) {
        double period                            = n + (std::string(klass) == "fh" ? 100 : 0) + seed;
        nlohmann::json row                       = report_row(id++, "h1", n, seed, period, period);
        row["params"]["platform.generate.class"] = klass;
        row.erase("simulated_period");
        out << row.dump() << "\n";
      }
  out.close();
  fs::remove(dir_ / "trace-3.json");
  fs::remove(dir_ / "trace-12.json");
  write_report(dir_.string());
  auto blocks = mean_blocks();
  ASSERT_EQ(blocks.size(), 2u);
  for (auto [klass, offset] : {std::pair{"ch", 0.0}, std::pair{"fh", 100.0}}) {
    const auto& rows = blocks[fmt::format("h1 platform.generate.class={}", klass)];
    ASSERT_EQ(rows.size(), 2u) << klass;
    for (const auto& row : rows) // x p runs mean_analytic mean_simulated
      EXPECT_DOUBLE_EQ(row[3], row[0] + offset + 1.5) << klass << " n = " << row[0];
  }
  std::string svg = read(dir_ / "mean_period.svg"), html = read(dir_ / "report.html");
  for (const char* title : {"h1, class = ch", "h1, class = fh"}) {
    EXPECT_NE(svg.find(title), std::string::npos) << title;
    EXPECT_NE(html.find(fmt::format("<th colspan=\"1\">{}</th>", title)), std::string::npos) << title;
  }
}

TEST_F(ReportTest, HedpmTablesOnlyForCampaignsWithHedpmRows)
{
  // Every one-port interval row has HeDPM's prediction, whatever its mapper: the br07 rows of the fixture get one.
  std::string rows = read(dir_ / "results.jsonl"), with_prediction;
  std::istringstream lines(rows);
  for (std::string line; std::getline(lines, line);) {
    nlohmann::json row = nlohmann::json::parse(line);
    if (row.contains("analytic_period")) row["hedpm_period"] = row["analytic_period"];
    with_prediction += row.dump() + "\n";
  }
  std::ofstream(dir_ / "results.jsonl") << with_prediction;
  std::ofstream(dir_ / "hedpm-tables.md") << "left by an earlier report\n";
  write_report(dir_.string());
  EXPECT_FALSE(fs::exists(dir_ / "hedpm-tables.md"));
  EXPECT_EQ(read(dir_ / "report.html").find("HeDPM"), std::string::npos);
  EXPECT_TRUE(hedpm_tables(load_campaign_results(dir_.string())).ratios.empty());
  // one row of a HeDPM mapper: the tables appear, with the ratios of every mapper's rows
  std::ofstream(dir_ / "results.jsonl", std::ios::app) << nlohmann::json({{"run_id", 9},
                                                                          {"mapper", "hedpm"},
                                                                          {"status", "ok"},
                                                                          {"analytic_period", 3},
                                                                          {"hedpm_period", 3.3},
                                                                          {"event_graph_period", 3},
                                                                          {"params", {{"mapper", "hedpm"}}}})
                                                              .dump()
                                                       << "\n";
  write_report(dir_.string());
  EXPECT_TRUE(fs::exists(dir_ / "hedpm-tables.md"));
  EXPECT_NE(read(dir_ / "report.html").find("<h2>HeDPM (seed 002 Figs. 1-3)</h2>"), std::string::npos);
  HedpmTables tables = hedpm_tables(load_campaign_results(dir_.string()));
  ASSERT_EQ(tables.ratios.size(), 3u); // br07.h1, h2_split (ratio 1 everywhere) and hedpm (3.3 / 3)
  EXPECT_EQ(tables.ratios[2].mapper, "hedpm");
  EXPECT_NEAR(tables.ratios[2].max, 1.1, 1e-15);
}

TEST_F(ReportTest, ErrorHistogramCountsDecadesAndExactErrors)
{
  write_report(dir_.string());
  // 4 exact; 5e-6 in [1e-6, 1e-5); 2e-3 in [1e-3, 1e-2); 2e-2 in [1e-2, 1e-1). Event-graph errors are the same.
  EXPECT_EQ(read(dir_ / "error_histogram.dat"),
            "# bin runs_vs_analytic runs_vs_event_graph (bins: decades of |simulated - reference| / reference)\n"
            "exact 4 4\n1e-6..1e-5 1 1\n1e-5..1e-4 0 0\n1e-4..1e-3 0 0\n1e-3..1e-2 1 1\n1e-2..1e-1 1 1\n");
}

TEST_F(ReportTest, GanttShowsFourPeriodsFromTheMiddleDataSet)
{
  RunTrace trace = load_trace((dir_ / "trace-3.json").string());
  // Data sets 0..9: the middle one is 4, whose first event starts at t = 4; four periods of 1 s end at t = 8.
  GanttWindow window = gantt_window(trace, 4);
  EXPECT_DOUBLE_EQ(window.start, 4);
  EXPECT_DOUBLE_EQ(window.end, 8);
  auto plot = gantt_plot(trace, 4);
  ASSERT_TRUE(plot);
  // P2 computes data set 3 over [3.9, 4.5]: clipped to [4, 4.5]; data set 7 over [7.9, 8.5]: clipped to [7.9, 8].
  EXPECT_NE(plot->data.find("1 4 4.5 3 P2\n"), std::string::npos) << plot->data;
  EXPECT_NE(plot->data.find("1 7.9 8 7 P2\n"), std::string::npos) << plot->data;
  EXPECT_EQ(plot->data.find(" 8 P1\n"), std::string::npos) << plot->data; // P1 starts data set 8 at t = 8
}

TEST_F(ReportTest, AnalyticModeOmitsTheSimulationPlots)
{
  write_campaign("analytic");
  fs::remove(dir_ / "trace-3.json");
  fs::remove(dir_ / "trace-12.json");
  write_report(dir_.string());
  std::string html = read(dir_ / "report.html");
  EXPECT_FALSE(fs::exists(dir_ / "period_scatter.svg"));
  EXPECT_FALSE(fs::exists(dir_ / "gantt.svg"));
  EXPECT_TRUE(fs::exists(dir_ / "mean_period.svg"));
  EXPECT_NE(html.find("Analytic mode: the campaign simulated nothing"), std::string::npos);
  EXPECT_NE(html.find("No trace-&lt;run_id&gt;.json in the directory"), std::string::npos);
}

TEST_F(ReportTest, SurvivalSectionIsOmittedWithoutSurvivalRates)
{
  std::string rows = read(dir_ / "results.jsonl");
  for (auto pos = rows.find("\"survival_rate\""); pos != std::string::npos; pos = rows.find("\"survival_rate\""))
    rows.replace(pos, 15, "\"not_survival\"");
  std::ofstream(dir_ / "results.jsonl") << rows;
  write_report(dir_.string());
  EXPECT_FALSE(fs::exists(dir_ / "survival.svg"));
  EXPECT_NE(read(dir_ / "report.html").find("No run has a survival_rate"), std::string::npos);
}

TEST_F(ReportTest, MissingResultsIsAnInputErrorNamingTheFile)
{
  fs::remove(dir_ / "results.jsonl");
  try {
    write_report(dir_.string());
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find((dir_ / "results.jsonl").string()), std::string::npos) << e.what();
  }
}

TEST_F(ReportTest, MalformedLineIsAnInputErrorNamingFileAndLine)
{
  std::ofstream(dir_ / "results.jsonl", std::ios::app) << "{\"status\": \"ok\", oops\n";
  try {
    write_report(dir_.string());
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("results.jsonl:9:"), std::string::npos) << e.what();
  }
}

TEST_F(ReportTest, XKeyMustBeASweptNumericKey)
{
  ReportOptions options;
  options.x_key = "platform.p";
  EXPECT_THROW(write_report(dir_.string(), options), InputError);
  options.x_key = "mapper";
  EXPECT_THROW(write_report(dir_.string(), options), InputError);
  options.x_key = "seed"; // numeric: one curve point per seed, one curve per mapper and n (the other swept key)
  write_report(dir_.string(), options);
  auto blocks = mean_blocks();
  EXPECT_EQ(blocks.size(), 4u);
  EXPECT_EQ(blocks["h2_split pipeline.generate.n=5"].size(), 2u);
  EXPECT_EQ(blocks["h2_split pipeline.generate.n=10"].size(), 2u);
  ASSERT_EQ(blocks["br07.h1 pipeline.generate.n=10"].size(), 1u); // seed 2 crashed
  EXPECT_EQ(blocks["br07.h1 pipeline.generate.n=10"][0][3], 6);   // x p runs mean_analytic ...: seed 1's period
}

TEST_F(ReportTest, MissingGnuplotSaysHowToInstallIt)
{
  ReportOptions options;
  options.gnuplot = "pipesim-no-such-gnuplot";
  try {
    write_report(dir_.string(), options);
    FAIL() << "expected a std::runtime_error";
  } catch (const InputError& e) {
    FAIL() << "not an input error: " << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "gnuplot not found: install gnuplot-nox (scripts/setup.sh)");
  }
}

} // namespace
} // namespace pipesim

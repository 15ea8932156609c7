// The one series style rule of every plot: distinct colour, dash and point for the first 64 series, checked on the
// rule itself and on the gnuplot script of a 20-curve mean-period plot.
#include "validation/reports/gnuplot.hpp"
#include "validation/reports/report_plots.hpp"

#include <gtest/gtest.h>
#include <regex>
#include <set>
#include <string>
#include <tuple>

namespace pipesim {
namespace {

TEST(GnuplotStyle, First64SeriesAllDiffer)
{
  std::set<std::tuple<std::string, std::string, int>> looks;
  for (std::size_t i = 0; i < distinct_series_styles; ++i) {
    SeriesStyle s = series_style(i);
    EXPECT_TRUE(looks.emplace(s.colour, s.dash, s.point).second) << "series " << i << " repeats an earlier one";
  }
  // series 0 and 8 share the colour but not the dash type, nor the point type, nor the fill
  SeriesStyle first = series_style(0), ninth = series_style(8);
  EXPECT_EQ(first.colour, ninth.colour);
  EXPECT_NE(first.dash, ninth.dash);
  EXPECT_NE(first.point, ninth.point);
  EXPECT_NE(first.fill, ninth.fill);
  EXPECT_EQ(first.linespoints(), "lc rgb '#4e79a7' dt 1 pt 7");
  EXPECT_EQ(ninth.linespoints(), "lc rgb '#4e79a7' dt (12,6) pt 5");
  std::set<std::pair<std::string, std::string>> bars; // bars have no dash: colour and fill must differ
  for (std::size_t i = 0; i < distinct_series_styles; ++i)
    EXPECT_TRUE(bars.emplace(series_style(i).colour, series_style(i).fill).second) << i;
}

TEST(GnuplotStyle, MeanPeriodScriptOfTwentyCurvesHasTwentyLooks)
{
  // 10 mappers x p in {10, 100}, one x value: 20 curves, as br07-exp1-small.yaml gives
  CampaignResults results;
  results.swept = {"platform.generate.p", "pipeline.generate.n", "mapper"};
  for (int m = 0; m < 10; ++m)
    for (int p : {10, 100})
      for (int n : {2, 4}) {
        CampaignRow r;
        r.mapper          = "mapper-" + std::to_string(m);
        r.status          = RunStatus::ok;
        r.p               = p;
        r.params          = {{"pipeline.generate.n", n}};
        r.analytic_period = m + n + p;
        results.rows.push_back(r);
      }
  auto plot = mean_period_plot(results, "pipeline.generate.n");
  ASSERT_TRUE(plot);
  std::regex style("with linespoints lc rgb '(#[0-9a-f]{6})' dt ([0-9(),]+) pt ([0-9]+)");
  std::set<std::tuple<std::string, std::string, std::string>> looks;
  int curves = 0;
  for (std::sregex_iterator it(plot->commands.begin(), plot->commands.end(), style), end; it != end; ++it, ++curves)
    EXPECT_TRUE(looks.emplace((*it)[1], (*it)[2], (*it)[3]).second) << "curve " << curves << ": " << it->str();
  EXPECT_EQ(curves, 20) << plot->commands;
  // no swept key gives p here: the rows' processor count splits the curves
  EXPECT_NE(plot->commands.find("title 'mapper-9, p = 100'"), std::string::npos) << plot->commands;
}

} // namespace
} // namespace pipesim

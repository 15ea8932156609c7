// The HTML report of a campaign's output directory: summary table and gnuplot SVG plots (DESIGN.md §7).
#include "validation/reports/report.hpp"

#include "base/input_error.hpp"
#include "base/markup_escape.hpp"
#include "validation/campaigns/result_files.hpp"
#include "validation/reports/elections_table.hpp"
#include "validation/reports/fidelity_atlas.hpp"
#include "validation/reports/gnuplot.hpp"
#include "validation/reports/hedpm_tables.hpp"
#include "validation/reports/period_after_crashes_table.hpp"
#include "validation/reports/reliability_tables.hpp"
#include "validation/reports/report_data.hpp"
#include "validation/reports/report_dynamic.hpp"
#include "validation/reports/report_edits_plot.hpp"
#include "validation/reports/report_means.hpp"
#include "validation/reports/report_plots.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <set>

namespace pipesim {

namespace {

std::string show(std::optional<double> value) { return value ? fmt::format("{:.6g}", *value) : "&ndash;"; }

const char* const style = R"(<style>
body { font-family: sans-serif; max-width: 1100px; margin: 1em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #eee; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1em 0 2em; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-style: italic; margin-top: 0.3em; }
code { background: #f4f4f4; padding: 0 0.2em; word-break: break-all; }
.missing { color: #666; }
</style>
)";

std::string summary_html(const CampaignResults& results, int excluded)
{
  std::string statuses;
  for (const auto& [status, count] : status_counts(results))
    statuses += fmt::format("{}{}: {}", statuses.empty() ? "" : ", ",
                            escape_markup(status.empty() ? "?" : status, Markup::html), count);
  std::vector<double> period_errors, graph_errors;
  for (const auto& row : results.rows) {
    if (auto e = period_error(row)) period_errors.push_back(*e);
    if (row.ok() && row.simulated_period && row.rel_error_event_graph)
      graph_errors.push_back(*row.rel_error_event_graph);
  }
  SampleSummary period = summarize(period_errors);
  SampleSummary graph  = summarize(graph_errors);
  std::string html     = "<table>\n";
  auto line            = [&html](const std::string& key, const std::string& value) {
    html += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", key, value);
  };
  line("campaign", escape_markup(results.name, Markup::html));
  line("mode", escape_markup(results.mode, Markup::html));
  line("campaign file", "<code>" + escape_markup(results.file, Markup::html) + "</code>");
  line("swept keys", escape_markup(fmt::format("{}", fmt::join(results.swept, ", ")), Markup::html));
  line("runs", fmt::format("{} recorded of {} planned", results.rows.size(), results.total));
  line("completed by status", statuses);
  line("rows excluded from the plots", fmt::format("{} (status other than ok)", excluded));
  line("relative error simulated vs analytic period",
       fmt::format("max {}, median {} ({} runs)", show(period.max), show(period.median), period_errors.size()));
  line("relative error simulated vs event-graph period",
       fmt::format("max {}, median {} ({} runs)", show(graph.max), show(graph.median), graph_errors.size()));
  line("command", "<code>" + escape_markup(results.command, Markup::html) + "</code>");
  return html + "</table>\n";
}

std::string means_table_html(const std::vector<MapperMean>& means, const std::string& x_key)
{
  std::vector<const MapperMean*> columns; // the first mean of each curve
  std::set<double> xs;
  bool simulated = false;
  for (const auto& m : means) {
    if (std::ranges::none_of(columns, [&](const MapperMean* c) { return c->same_curve(m); })) columns.push_back(&m);
    xs.insert(m.x);
    simulated = simulated || m.simulated.has_value();
  }
  std::string html = fmt::format("<table>\n<tr><th rowspan=\"2\">{}</th>", escape_markup(x_key, Markup::html));
  for (const MapperMean* column : columns)
    html += fmt::format("<th colspan=\"{}\">{}</th>", simulated ? 2 : 1, escape_markup(column->title(), Markup::html));
  html += "</tr>\n<tr>";
  for (size_t i = 0; i < columns.size(); ++i)
    html += simulated ? "<th>analytic (runs)</th><th>simulated</th>" : "<th>analytic (runs)</th>";
  html += "</tr>\n";
  for (double x : xs) {
    html += fmt::format("<tr><td class=\"num\">{}</td>", x);
    for (const MapperMean* column : columns) {
      auto it = std::ranges::find_if(means, [&](const MapperMean& m) { return m.same_curve(*column) && m.x == x; });
      if (it == means.end())
        html += simulated ? "<td></td><td></td>" : "<td></td>";
      else {
        html += fmt::format("<td class=\"num\">{} ({})</td>", show(it->analytic), it->runs);
        if (simulated) html += fmt::format("<td class=\"num\">{}</td>", show(it->simulated));
      }
    }
    html += "</tr>\n";
  }
  return html + "</table>\n";
}

/// A table the report also writes as `file` in `dir`: `head` (HTML that links to the file), then the Markdown table
/// as preformatted text.
std::string markdown_section(const std::string& dir, const std::string& file, const std::string& markdown,
                             const std::string& head)
{
  write_file_atomically(dir + "/" + file, markdown);
  return head + "<pre>" + escape_markup(markdown, Markup::html) + "</pre>\n";
}

/// Campaigns of the bbr10 reliability heuristics: Tables 2 and 3 (written to reliability-tables.md too); empty
/// when the campaign has none of them.
std::string reliability_html(const CampaignResults& results)
{
  std::string markdown = reliability_tables_markdown(results);
  if (markdown.empty()) return "";
  return markdown_section(results.dir, "reliability-tables.md", markdown,
                          "<h2>Reliability heuristics (seed 004 Tables 2 and 3)</h2>\n<p>Failure probabilities "
                          "relative to the best of the class in each scenario (<a "
                          "href=\"reliability-tables.md\">reliability-tables.md</a>; docs/reproduction-bbr10.md "
                          "compares them with the paper).</p>\n");
}

/// Campaigns of the HeDPM mappers: hedpm's figures (written to hedpm-tables.md too); empty when there are none
/// (and a hedpm-tables.md an earlier report wrote is removed: the directory holds the tables of this report only).
std::string hedpm_html(const CampaignResults& results)
{
  std::string markdown = hedpm_tables_markdown(hedpm_tables(results));
  if (markdown.empty()) {
    std::error_code ignored;
    std::filesystem::remove(results.dir + "/hedpm-tables.md", ignored);
    return "";
  }
  return markdown_section(results.dir, "hedpm-tables.md", markdown,
                          "<h2>HeDPM (seed 002 Figs. 1-3)</h2>\n<p>Distances to the optimum, means per processor "
                          "count against BSC and HeDPM's model against the event graph (<a "
                          "href=\"hedpm-tables.md\">hedpm-tables.md</a>; docs/reproduction-hedpm.md compares them "
                          "with the paper).</p>\n");
}

/// Monte Carlo series against a period bound (bbr10): the period after the last crash against P_max (written to
/// period-after-crashes.md too); empty when no row has one.
std::string after_crashes_html(const CampaignResults& results)
{
  std::string markdown = period_after_crashes_markdown(results);
  if (markdown.empty()) return "";
  return markdown_section(results.dir, "period-after-crashes.md", markdown,
                          "<h2>Period bound after crashes (seed 004)</h2>\n<p>How often the period after the last "
                          "crash of a Monte Carlo run exceeds P_max (<a "
                          "href=\"period-after-crashes.md\">period-after-crashes.md</a>; "
                          "docs/reproduction-bbr10.md).</p>\n");
}

/// Elections campaigns: bbr10 Table 1 (written to elections-table.{md,csv} too).
std::string elections_html(const std::string& dir)
{
  ElectionsTable table = write_elections_table(dir);
  std::string html =
      "<h2>Elections against the MILP (seed 004 Table 1)</h2>\n<p>Relative deviation (P_heuristic - P_MILP) / "
      "P_MILP over the ok rows whose MILP is proven optimal; best rate: deviation at most 1e-9 "
      "(<a href=\"elections-table.csv\">elections-table.csv</a>, <a href=\"elections-table.md\">.md</a>).</p>\n"
      "<table>\n<tr><th>p</th><th>instances</th><th>heuristic</th><th>max</th><th>av.</th><th>stdv.</th><th>best "
      "rate</th><th>below MILP</th></tr>\n";
  for (const auto& r : table.rows)
    html += fmt::format("<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{:.3f}</td>"
                        "<td class=\"num\">{:.3f}</td><td class=\"num\">{:.3f}</td><td class=\"num\">{:.2f}%</td>"
                        "<td class=\"num\">{}</td></tr>\n",
                        r.p, r.stats.instances, escape_markup(r.heuristic, Markup::html), r.stats.max, r.stats.mean,
                        r.stats.sd, 100 * r.stats.best_rate, r.stats.below);
  html += "</table>\n";
  if (!table.excluded_runs.empty())
    html += fmt::format("<p>{} rows excluded (not ok, or MILP not proven optimal).</p>\n", table.excluded_runs.size());
  return html;
}

std::string excluded_html(const CampaignResults& results)
{
  const size_t shown = 50;
  std::string html = "<table>\n<tr><th>run</th><th>mapper</th><th>parameters</th><th>status</th><th>error</th></tr>\n";
  size_t count     = 0;
  for (const auto& row : results.rows) {
    if (row.ok() || count++ >= shown) continue;
    std::string error = row.error.size() > 300 ? row.error.substr(0, 300) + "..." : row.error;
    std::string params;
    for (const auto& [key, value] : row.params.items())
      if (key != "mapper")
        params += fmt::format("{}{}={}", params.empty() ? "" : " ", key,
                              value.is_string() ? value.get<std::string>() : value.dump());
    html += fmt::format("<tr><td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", row.run_id,
                        escape_markup(row.mapper, Markup::html), escape_markup(params, Markup::html),
                        escape_markup(to_string(row.status), Markup::html), escape_markup(error, Markup::html));
  }
  html += "</table>\n";
  if (count > shown) html += fmt::format("<p>{} more not shown: see results.jsonl.</p>\n", count - shown);
  return count == 0 ? "<p>None: every run completed with status ok.</p>\n" : html;
}

/// Renders `plot` (when present) and returns its figure, or the sentence saying why there is none.
std::string figure_html(const std::string& dir, const std::optional<GnuplotPlot>& plot, const std::string& title,
                        const std::string& caption, const std::string& why_absent, const ReportOptions& options)
{
  std::string html = "<h2>" + escape_markup(title, Markup::html) + "</h2>\n";
  if (!plot) return html + "<p class=\"missing\">" + escape_markup(why_absent, Markup::html) + "</p>\n";
  render_plot(dir, *plot, options.gnuplot);
  const std::string& n = plot->name;
  return html + fmt::format("<figure><img src=\"{0}.svg\" alt=\"{1}\"><figcaption>{2} <span class=\"missing\">"
                            "(gnuplot script <a href=\"{0}.gp\">{0}.gp</a>, data <a href=\"{0}.dat\">{0}.dat</a>)"
                            "</span></figcaption></figure>\n",
                            n, escape_markup(title, Markup::html), escape_markup(caption, Markup::html));
}

/// Simulated campaigns that sweep a condition (simulation.*, analytic.*, pipeline.variability): the fidelity atlas
/// (written to fidelity-atlas.md too; docs/fidelity.md).
std::string fidelity_section(const CampaignResults& results, const ReportOptions& options)
{
  FidelityAtlas atlas = fidelity_atlas(results);
  if (atlas.conditions.empty()) return "";
  std::string html = markdown_section(
      results.dir, "fidelity-atlas.md", fidelity_atlas_markdown(atlas),
      "<h2>Fidelity atlas</h2>\n<p>Per condition (the swept simulation.*, analytic.* and pipeline.variability values), "
      "the relative error (simulated - analytic) / analytic and, per instance, Kendall's tau between the formula's and "
      "the simulation's rankings of its mappings (<a href=\"fidelity-atlas.md\">fidelity-atlas.md</a>; "
      "docs/fidelity.md).</p>\n");
  html += figure_html(results.dir, fidelity_error_plot(atlas), "Relative error per condition",
                      "Per numbered condition: |simulated - analytic| / analytic of the ok runs, box 25-75 %, whiskers "
                      "5-95 %, red bar the median; errors below 1e-16 are drawn at 1e-16.",
                      "", options);
  html += figure_html(results.dir, fidelity_ranking_plot(atlas), "Rankings per condition",
                      "Per numbered condition: Kendall's tau-b between the analytic and the simulated periods of "
                      "each instance's mappings (mean, minimum) and the share of instances whose formula-best mapping "
                      "is also best in simulation (within 1e-9).",
                      "", options);
  return html;
}

std::string gantt_section(const std::string& dir, const ReportOptions& options)
{
  const std::string title         = "Gantt chart of a simulated run";
  std::optional<std::string> file = find_trace_file(dir);
  if (!file)
    return figure_html(dir, std::nullopt, title, "",
                       "No trace-<run_id>.json in the directory: the campaign recorded no event trace.", options);
  RunTrace trace     = load_trace(*file);
  GanttWindow window = gantt_window(trace, options.gantt_periods);
  std::string caption =
      fmt::format("Run {} (mapping {}), simulated time {:.6g} s to {:.6g} s: per processor, what it receives (blue), "
                  "computes (green) and sends (red) over {} periods (period {:.6g} s) from the first event of the "
                  "middle data set; the number on a compute bar is its data set.",
                  trace.run_id, trace.mapping, window.start, window.end, options.gantt_periods, trace.period);
  return figure_html(dir, gantt_plot(trace, options.gantt_periods), title, caption,
                     "The trace " + *file + " has no event in the middle of the run.", options);
}
/// The `pipesim simulate --format json` document of --series (nullopt without one), read before the report writes
/// anything: a missing or malformed file is an InputError.
std::optional<nlohmann::json> read_series_document(const std::string& file)
{
  if (file.empty()) return std::nullopt;
  std::ifstream in(file);
  if (!in) throw InputError::option("--series", file, "cannot read the file");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError::option("--series", file, fmt::format("not a JSON document of pipesim simulate ({})", e.what()));
  }
}

/// Re-mapping during the run: the table of the rows with datasets_by_horizon (written to dynamic-table.md too) and
/// the throughput over time of the --series document.
std::string dynamic_section(const CampaignResults& results, const std::optional<nlohmann::json>& series,
                            const ReportOptions& options)
{
  std::vector<DynamicCell> cells = dynamic_cells(results);
  if (cells.empty() && !series) return "";
  std::string html = "<h2>Re-mapping during the run</h2>\n";
  if (!cells.empty())
    html += markdown_section(
        results.dir, "dynamic-table.md", dynamic_table_markdown(cells),
        "<p>Per configuration (the swept values but the policy's and the seeds'), policy and mapper: the data sets "
        "output by the horizon H relative to the clairvoyant and to the static-best run of the same instance (mean, "
        "min), re-maps per load change (sums), mean downtime per re-map; saturated: runs that output all N data sets "
        "before H (<a href=\"dynamic-table.md\">dynamic-table.md</a>; docs/dynamic.md \"The experiment\").</p>\n");
  if (!series) return html;
  std::string name = std::filesystem::path(options.series_file).filename().string();
  return html + figure_html(results.dir, throughput_plot(*series, name), "Throughput over time",
                            "The run of " + name +
                                ": the throughput of each window of W data sets (W over the time between the "
                                "outputs that bound it), the analytic throughput 1 / period of each epoch of the "
                                "mapping running then (dashed), and each re-map's decision date (dotted).",
                            options.series_file + " has no simulated.throughput_series (a platform with profiles).",
                            options);
}

/// The mean period per mapper: its plot and the table of its means (`elections`: rows without analytic periods, the
/// elections table instead).
std::string mean_period_section(const std::string& dir, const CampaignResults& results, const std::string& x_key,
                                bool elections, const ReportOptions& options)
{
  std::vector<MapperMean> means = x_key.empty() ? std::vector<MapperMean>{} : mapper_means(results, x_key);
  std::string html =
      figure_html(dir, elections ? std::nullopt : mean_period_plot(results, x_key), "Mean period per mapper",
                  "One curve per mapper and per value of every other swept key (the seed aside): the period "
                  "against " +
                      x_key +
                      ", averaged over the seeds of the ok runs; lines: analytic, circles: simulated when the "
                      "campaign simulated.",
                  elections       ? "Elections campaign: the periods are in the table of the elections above."
                  : x_key.empty() ? "The campaign sweeps no numeric parameter other than the seed to put on an x axis."
                                  : "No ok run has a numeric value of " + x_key + ".",
                  options);
  if (!means.empty())
    html += "<p>Mean periods (s) over the ok runs of each cell, the number of runs in parentheses:</p>\n" +
            means_table_html(means, x_key);
  return html;
}
} // namespace

void write_report(const std::string& dir, const ReportOptions& options)
{
  CampaignResults results                  = load_campaign_results(dir);
  std::optional<nlohmann::json> series_doc = read_series_document(options.series_file);
  std::string x_key                        = choose_x_key(results, options.x_key);
  int excluded                             = 0;
  for (const auto& row : results.rows)
    excluded += row.ok() ? 0 : 1;
  auto mode         = from_string<CampaignMode>(results.mode);
  bool simulate     = mode == CampaignMode::simulate;
  std::string title = "pipesim campaign report: " + results.name;
  std::string html  = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                     escape_markup(title, Markup::html) + "</title>\n" + style + "</head>\n<body>\n<h1>" +
                     escape_markup(title, Markup::html) + "</h1>\n";
  html += summary_html(results, excluded);
  if (mode == CampaignMode::elections) html += elections_html(dir);
  html += reliability_html(results);
  html += hedpm_html(results);
  html += after_crashes_html(results);
  if (simulate) html += fidelity_section(results, options);
  html += figure_html(dir, simulate ? period_scatter_plot(results) : std::nullopt, "Simulated vs analytic period",
                      "Each point is one ok run: its simulated period against its analytic period (filled) and its "
                      "event-graph period (open); points on the dashed line y = x agree exactly.",
                      simulate ? "No ok run has both a simulated and an analytic period."
                               : "Analytic mode: the campaign simulated nothing, so there is no measured period.",
                      options);
  html += figure_html(dir, simulate ? error_histogram_plot(results) : std::nullopt, "Relative error of the period",
                      "Number of ok runs per decade of |simulated - reference| / reference, the reference being the "
                      "analytic or the event-graph period; errors of exactly 0 are in the bin \"exact\".",
                      simulate ? "No ok run has a simulated period."
                               : "Analytic mode: there is no simulated period to compare.",
                      options);
  html += mean_period_section(dir, results, mode == CampaignMode::elections ? "" : x_key,
                              mode == CampaignMode::elections, options);
  if (auto edits = edits_bar_plot(results))
    html +=
        figure_html(dir, edits, "Period per platform edit",
                    "What-if sweep of platform.edits: for each list of edits (docs/whatif.md), the mean period of "
                    "each mapper over its runs, analytic then simulated when the campaign simulated. A bar whose runs "
                    "have no figure is a red label with the reason instead: failed (a link went off during the "
                    "simulated run), or the runs' status (error, timeout, ...); \"k of n\" on a bar: k of its n runs "
                    "had no figure, the bar is the mean of the others.",
                    "", options);
  html += figure_html(dir, survival_plot(results), "Survival rate vs 1 - F",
                      "Each point is one run: the fraction of Monte Carlo crash runs the mapping survived against the "
                      "analytic survival probability 1 - F, with its Wilson interval; the dashed line is y = x.",
                      "No run has a survival_rate: the campaign ran no Monte Carlo crash runs.", options);
  html += gantt_section(dir, options);
  html += dynamic_section(results, series_doc, options);
  html += "<h2>Excluded runs</h2>\n<p>" + std::to_string(excluded) +
          " rows are excluded from the plots (status other than ok).</p>\n" + excluded_html(results);
  write_text_file(dir + "/report.html", html + "</body>\n</html>\n");
}

} // namespace pipesim

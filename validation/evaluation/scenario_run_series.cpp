// The table and JSON of a run on a time-varying platform: analytic series, windowed throughput, epoch comparison.
#include "base/table.hpp"
#include "platforms/profile_json.hpp"
#include "validation/evaluation/result_output.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace pipesim {

namespace {
/// Rows of the epoch table at most (the JSON has every epoch).
constexpr std::size_t max_epoch_rows = 24;

std::string hosts_text(const std::vector<std::string>& hosts)
{
  std::string out;
  for (const auto& h : hosts)
    out += (out.empty() ? "off: " : ", ") + h;
  return out;
}
} // namespace

std::string series_text(const ScenarioRun& run)
{
  if (!run.series || run.series->remapped) return ""; // the re-map table says what happened
  const EpochSeries& s = *run.series;
  std::string out      = fmt::format("\ntime-varying platform (the figures above are the nominal platform's): {} "
                                          "epoch{} over the makespan, windows of {} data sets (docs/dynamic.md)\n",
                                     s.analytic.size(), s.analytic.size() == 1 ? "" : "s", s.window);
  if (!s.note.empty()) return out + fmt::format("  no analytic series: {}\n", s.note);
  Table t;
  t.add_column("epoch", Align::left, 6).add_column("start", Align::right, 12).add_column("end", Align::right, 12);
  t.add_column("analytic period", Align::right, 16).add_column("windows", Align::right, 8);
  t.add_column("transient", Align::right, 10).add_column("steady", Align::right, 7);
  t.add_column("max rel. error", Align::right, 14).add_column("", Align::left, 0, 2);
  int steady = 0, mismatched = 0;
  for (std::size_t i = 0; i < s.analytic.size(); ++i) {
    const Epoch& e           = s.analytic[i];
    const EpochComparison& c = s.epochs[i];
    steady += c.steady;
    mismatched += c.mismatched;
    if (i >= max_epoch_rows) continue;
    t.add_row({std::to_string(i + 1), format_number(e.start, ".6g"), format_number(e.end, ".6g"),
               format_number(e.period, ".10g"), std::to_string(c.windows),
               c.transient ? std::to_string(*c.transient) : "-", std::to_string(c.steady),
               c.steady > 0 ? format_number(c.max_error, ".3g") : "-", hosts_text(e.hosts_off)});
  }
  out += t.text(2);
  if (s.analytic.size() > max_epoch_rows)
    out += fmt::format("  ... {} more epochs (the JSON has them all)\n", s.analytic.size() - max_epoch_rows);
  out += fmt::format("  steady windows off the series by more than {:g} (relative): {} of {}\n", series_match_tolerance,
                     mismatched, steady);
  return out;
}

void add_series_json(nlohmann::json& j, const ScenarioRun& run)
{
  if (!run.series) return;
  const EpochSeries& s   = *run.series;
  j["platform_profiles"] = profiles_to_json(run.platform.profiles());
  auto analytic          = nlohmann::json::array();
  for (const Epoch& e : s.analytic)
    analytic.push_back(
        {{"start", e.start}, {"end", e.end}, {"period", json_number(e.period)}, {"hosts_off", e.hosts_off}});
  j["analytic_series"] = analytic;
  auto windows         = nlohmann::json::array();
  for (const ThroughputWindow& w : s.throughput)
    windows.push_back({{"from", w.from}, {"to", w.to}, {"start", w.start}, {"end", w.end}, {"period", w.period}});
  j["simulated"]["throughput_series"] = {{"window", s.window}, {"windows", windows}};
  if (s.remapped) { // the series of the running mappings (docs/dynamic.md): nothing to compare
    j["analytic_series_of"] = "running mapping";
    if (!s.note.empty()) j["simulated"]["series_note"] = s.note;
    return;
  }
  auto epochs = nlohmann::json::array();
  for (std::size_t i = 0; i < s.epochs.size(); ++i) {
    const EpochComparison& c = s.epochs[i];
    epochs.push_back({{"start", s.analytic[i].start},
                      {"end", s.analytic[i].end},
                      {"period", json_number(s.analytic[i].period)},
                      {"windows", c.windows},
                      {"transient", c.transient ? nlohmann::json(*c.transient) : nlohmann::json(nullptr)},
                      {"steady", c.steady},
                      {"mismatched", c.mismatched},
                      {"max_error", c.steady > 0 ? nlohmann::json(c.max_error) : nlohmann::json(nullptr)}});
  }
  j["simulated"]["epochs"] = epochs;
  if (!s.note.empty()) j["simulated"]["series_note"] = s.note;
}

} // namespace pipesim

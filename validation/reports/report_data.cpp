// A campaign's output directory read back for the report: campaign.json, results.jsonl, trace-<run_id>.json.
#include "validation/reports/report_data.hpp"

#include "base/input_error.hpp"
#include "validation/evaluation/compare.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <regex>
#include <set>

namespace pipesim {

namespace {
std::optional<double> number_field(const nlohmann::json& j, const char* key)
{
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::string string_field(const nlohmann::json& j, const char* key)
{
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

nlohmann::json parse_json_file(const std::string& path)
{
  std::ifstream in(path);
  if (!in) throw InputError::in_file(path, 0, "cannot open the file (is this a campaign output directory?)");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError::in_file(path, 0, std::string("not valid JSON: ") + e.what());
  }
}

std::vector<CampaignRow> load_rows(const std::string& path)
{
  std::ifstream in(path);
  if (!in) throw InputError::in_file(path, 0, "cannot open the file (the campaign wrote no results yet?)");
  std::vector<CampaignRow> rows;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
      throw InputError::in_file(path, line, std::string("not a JSON object: ") + e.what());
    }
    if (!j.is_object() || !j.contains(to_string(RowColumn::status)))
      throw InputError::in_file(path, line, "expected a JSON object with a 'status' key");
    CampaignRow row = CampaignRow::from_json(j, fmt::format("{}:{}", path, line));
    if (row.mapper.empty()) // rows of crashed or timed-out workers may only have the swept mapper
      row.mapper = string_field(row.params, "mapper");
    rows.push_back(std::move(row));
  }
  return rows;
}
} // namespace

CampaignResults load_campaign_results(const std::string& dir)
{
  CampaignResults results;
  results.dir      = dir;
  std::string path = dir + "/campaign.json";
  nlohmann::json j = parse_json_file(path);
  if (!j.is_object()) throw InputError::in_file(path, 0, "expected a JSON object");
  results.name    = string_field(j, "name");
  results.mode    = string_field(j, "mode");
  results.file    = string_field(j, "file");
  results.command = string_field(j, "command");
  results.total   = j.value("total", 0L);
  if (auto it = j.find("swept"); it != j.end() && it->is_array())
    for (const auto& key : *it)
      if (key.is_string()) results.swept.push_back(key.get<std::string>());
  results.rows = load_rows(dir + "/results.jsonl");
  return results;
}

namespace {
/// A JSON number, or a string that is a whole number literal (the runner writes swept YAML scalars as strings).
std::optional<double> as_number(const nlohmann::json& value)
{
  if (value.is_number()) return value.get<double>();
  if (!value.is_string()) return std::nullopt;
  const std::string& text = value.get_ref<const std::string&>();
  double x                = 0;
  auto [end, ec]          = std::from_chars(text.data(), text.data() + text.size(), x);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(x)) return std::nullopt;
  return x;
}
} // namespace

std::optional<double> param_number(const CampaignRow& row, const std::string& key)
{
  auto it = row.params.find(key);
  return it == row.params.end() ? std::nullopt : as_number(*it);
}

namespace {
/// The number of distinct numeric values of `key` among the rows; 0 when some row has a value that is no number.
std::size_t numeric_values(const CampaignResults& results, const std::string& key)
{
  std::set<double> values;
  for (const auto& row : results.rows) {
    auto it = row.params.find(key);
    if (it == row.params.end() || it->is_null()) continue;
    auto x = as_number(*it);
    if (!x) return 0;
    values.insert(*x);
  }
  return values.size();
}
bool numeric_key(const CampaignResults& results, const std::string& key) { return numeric_values(results, key) > 0; }
} // namespace

std::string choose_x_key(const CampaignResults& results, const std::string& requested)
{
  if (!requested.empty()) {
    std::string where = results.dir + "/campaign.json";
    if (std::find(results.swept.begin(), results.swept.end(), requested) == results.swept.end())
      throw InputError::option("--x", requested,
                               fmt::format("not a swept key of {} (swept: {})", where, fmt::join(results.swept, ", ")));
    if (!numeric_key(results, requested))
      throw InputError::option("--x", requested,
                               fmt::format("expected a key with numeric values in {}/results.jsonl", results.dir));
    return requested;
  }
  // the key with the most values: the others split the curves (report_means.hpp), so br07-exp*.yaml, which sweep
  // p = 10, 100 before n = 1..50, get n on the axis and a curve per mapper and p, not 11 curves per mapper
  std::string best;
  std::size_t most = 0;
  for (const auto& key : results.swept)
    if (std::size_t count = key == "seed" || key == "mapper" ? 0 : numeric_values(results, key); count > most) {
      best = key;
      most = count;
    }
  return best;
}

void PeriodSums::add(const CampaignRow& row)
{
  runs++;
  if (row.analytic_period) {
    n_analytic++;
    analytic += *row.analytic_period;
  }
  if (row.simulated_period) {
    n_simulated++;
    simulated += *row.simulated_period;
  }
}

std::optional<double> PeriodSums::mean_analytic() const
{
  return n_analytic > 0 ? std::optional<double>(analytic / n_analytic) : std::nullopt;
}

std::optional<double> PeriodSums::mean_simulated() const
{
  return n_simulated > 0 ? std::optional<double>(simulated / n_simulated) : std::nullopt;
}

std::optional<double> period_error(const CampaignRow& row)
{
  if (!row.ok() || !row.simulated_period) return std::nullopt;
  if (row.rel_error_period) return row.rel_error_period;
  if (!row.analytic_period) return std::nullopt;
  return relative_error(*row.simulated_period, *row.analytic_period);
}

SampleSummary summarize(std::vector<double> values)
{
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  size_t n      = values.size();
  double median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return {values.back(), median};
}

ErrorHistogram error_histogram(const std::vector<std::vector<double>>& series)
{
  int low = 0, high = -1; // decades k with an error in [10^k, 10^(k+1)); none while high < low
  for (const auto& values : series)
    for (double e : values)
      if (e > 0 && std::isfinite(e)) {
        auto k     = static_cast<int>(std::floor(std::log10(e)));
        bool first = high < low;
        low        = first ? k : std::min(low, k);
        high       = first ? k : std::max(high, k);
      }
  ErrorHistogram histogram;
  histogram.labels.emplace_back("exact");
  for (int k = low; k <= high; ++k)
    histogram.labels.push_back(fmt::format("1e{}..1e{}", k, k + 1));
  for (const auto& values : series) {
    std::vector<int> counts(histogram.labels.size(), 0);
    for (double e : values) {
      if (e == 0)
        counts[0]++;
      else if (e > 0 && std::isfinite(e))
        counts[static_cast<size_t>(static_cast<int>(std::floor(std::log10(e))) - low + 1)]++;
    }
    histogram.counts.push_back(counts);
  }
  return histogram;
}

std::map<std::string, int> status_counts(const CampaignResults& results)
{
  std::map<std::string, int> counts;
  for (const auto& row : results.rows)
    counts[std::string(to_string(row.status))]++;
  return counts;
}

std::optional<std::string> find_trace_file(const std::string& dir)
{
  static const std::regex pattern(R"(trace-(\d+)\.json)");
  std::optional<std::string> best;
  long best_id = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::smatch match;
    std::string name = entry.path().filename().string();
    if (!std::regex_match(name, match, pattern)) continue;
    long id = std::stol(match[1].str());
    if (!best || id < best_id) {
      best    = entry.path().string();
      best_id = id;
    }
  }
  return best;
}

RunTrace load_trace(const std::string& path)
{
  nlohmann::json j = parse_json_file(path);
  RunTrace trace;
  trace.file = path;
  try {
    trace.run_id  = j.value("run_id", 0);
    trace.mapping = string_field(j, "mapping");
    trace.period  = number_field(j, "period").value_or(0);
    for (const auto& e : j.at("trace")) {
      auto kind = from_string<Operation>(e.at("kind").get<std::string>());
      if (!kind)
        throw InputError::at(path, 0, "trace.kind", e.at("kind").get<std::string>(), expected_one_of<Operation>());
      trace.bars.push_back(TraceBar{e.at("host").get<std::string>(), *kind, e.value("dataset", 0),
                                    e.at("start").get<double>(), e.at("end").get<double>()});
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError::in_file(
        path, 0,
        std::string("expected {\"trace\": [{\"host\", \"kind\", \"dataset\", \"start\", \"end\"}, ...]}: ") + e.what());
  }
  return trace;
}

} // namespace pipesim

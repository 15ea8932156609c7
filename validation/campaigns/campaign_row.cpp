// A campaign row as JSON and CSV: one visit of its cells (for_each_cell) drives writing, reading and the CSV columns.
#include "validation/campaigns/campaign_row.hpp"

#include "base/input_error.hpp"
#include "base/table.hpp"
#include "simulator/simulation.hpp"
#include "validation/campaigns/elections_run.hpp"
#include "validation/evaluation/result_output.hpp"

#include <fmt/format.h>
#include <set>

namespace pipesim {

namespace {

/// Where a column lives: the common CSV columns, the elections-mode ones, the "timing" object (and `timing.<name>`
/// CSV columns, of every mode or of elections mode), or results.jsonl only.
enum class ColumnPart { common, elections, timing, elections_timing, json_only };

ColumnPart part_of(RowColumn c)
{
  using enum RowColumn;
  if (c == scenario_yaml) return ColumnPart::json_only;
  if (c == mapper_seconds || c == wall_seconds) return ColumnPart::timing;
  if (c == milp_seconds || c == heuristics_seconds) return ColumnPart::elections_timing;
  if (c >= period_milp) return ColumnPart::elections;
  return ColumnPart::common;
}

bool is_timing(ColumnPart part) { return part == ColumnPart::timing || part == ColumnPart::elections_timing; }

/// Text columns written also when empty (the runner writes them for every row, crashed ones too).
bool always_written(RowColumn c)
{
  return c == RowColumn::campaign || c == RowColumn::mapper || c == RowColumn::error || c == RowColumn::scenario_yaml;
}

/// One cell: its column's name, part, whether it is written when empty, and the field (a member of the row).
struct CellSpec {
  std::string name;
  ColumnPart part;
  bool always;
};

/// Calls visit(CellSpec, field) for every cell of the row, in results.csv order: the one list of the schema.
template <typename Row, typename Visit>
void for_each_cell(Row& r, Visit&& visit)
{
  auto cell = [&](RowColumn c, auto& field) {
    visit(CellSpec{std::string(to_string(c)), part_of(c), always_written(c)}, field);
  };
  using enum RowColumn;
  cell(campaign, r.campaign), cell(run_id, r.run_id), cell(seed, r.seed), cell(mapper, r.mapper);
  cell(status, r.status), cell(mapper_status, r.mapper_status), cell(mapper_lower_bound, r.mapper_lower_bound);
  cell(mapper_gap, r.mapper_gap), cell(period_test, r.period_test), cell(worst_case_bound, r.worst_case_bound);
  cell(n, r.n), cell(p, r.p), cell(platform_class, r.platform_class);
  cell(mapping, r.mapping), cell(rule, r.rule), cell(formula, r.formula), cell(analytic_period, r.analytic_period);
  cell(event_graph_period, r.event_graph_period), cell(hedpm_period, r.hedpm_period);
  cell(simulated_period, r.simulated_period), cell(rel_error_period, r.rel_error_period);
  cell(rel_error_event_graph, r.rel_error_event_graph), cell(analytic_latency, r.analytic_latency);
  cell(simulated_latency, r.simulated_latency), cell(failure_probability, r.failure_probability);
  cell(verdict, r.verdict), cell(crashes, r.crashes), cell(period_after_crash, r.period_after_crash);
  cell(runs, r.runs), cell(survival_rate, r.survival_rate), cell(survival_ci_low, r.survival_ci_low);
  cell(survival_ci_high, r.survival_ci_high), cell(survival_ci99_low, r.survival_ci99_low);
  cell(survival_ci99_high, r.survival_ci99_high), cell(run_errors, r.run_errors);
  cell(schedule_survival_rate, r.schedule_survival_rate), cell(survived_late_crash, r.survived_late_crash);
  cell(period_bound, r.period_bound), cell(worst_case_period, r.worst_case_period);
  cell(after_crash_measured, r.after_crash_measured), cell(after_crash_over_bound, r.after_crash_over_bound);
  cell(after_crash_over_ci_low, r.after_crash_over_ci_low), cell(after_crash_over_ci_high, r.after_crash_over_ci_high);
  cell(after_crash_max_ratio, r.after_crash_max_ratio), cell(one_left_runs, r.one_left_runs);
  cell(one_left_over_bound, r.one_left_over_bound), cell(after_crash_sim_over_bound, r.after_crash_sim_over_bound);
  cell(after_crash_sim_max_ratio, r.after_crash_sim_max_ratio);
  cell(after_crash_sim_max_gap, r.after_crash_sim_max_gap);
  cell(simulated_period_ci_low, r.simulated_period_ci_low), cell(simulated_period_ci_high, r.simulated_period_ci_high);
  cell(simulated_datasets, r.simulated_datasets), cell(simulated_warmup, r.simulated_warmup);
  cell(deterministic_period, r.deterministic_period), cell(maxplus_period, r.maxplus_period);
  cell(maxplus_ci_low, r.maxplus_ci_low), cell(maxplus_ci_high, r.maxplus_ci_high);
  cell(exponential_period, r.exponential_period), cell(exponential_states, r.exponential_states);
  cell(nbue_applies, r.nbue_applies), cell(nbue_holds, r.nbue_holds), cell(policy, r.policy);
  cell(dynamic_mapper, r.dynamic_mapper), cell(remaps, r.remaps), cell(load_changes, r.load_changes);
  cell(downtime, r.downtime), cell(horizon, r.horizon), cell(datasets_by_horizon, r.datasets_by_horizon);
  cell(mean_period, r.mean_period), cell(makespan, r.makespan), cell(error, r.error);
  const auto& heuristics = table1_heuristics(); // bbr10 Table 1: period_<heuristic> before period_milp
  for (std::size_t h = 0; h < r.election_periods.size() && h < heuristics.size(); ++h)
    visit(CellSpec{election_period_column(to_string(heuristics[h])), ColumnPart::elections, false},
          r.election_periods[h]);
  cell(period_milp, r.period_milp), cell(milp_status, r.milp_status), cell(milp_bound, r.milp_bound);
  cell(milp_variables, r.milp_variables), cell(milp_constraints, r.milp_constraints);
  cell(milp_nodes, r.milp_nodes), cell(random_seed, r.random_seed);
  cell(mapper_seconds, r.mapper_seconds), cell(wall_seconds, r.wall_seconds), cell(milp_seconds, r.milp_seconds);
  cell(heuristics_seconds, r.heuristics_seconds), cell(scenario_yaml, r.scenario_yaml);
}

// A field as a JSON cell: nullopt when absent.
std::optional<nlohmann::json> cell_json(const std::string& text, bool always)
{
  return text.empty() && !always ? std::nullopt : std::optional<nlohmann::json>(text);
}
std::optional<nlohmann::json> cell_json(int x, bool) { return nlohmann::json(x); }
std::optional<nlohmann::json> cell_json(std::uint64_t x, bool) { return nlohmann::json(x); }
std::optional<nlohmann::json> cell_json(RunStatus s, bool) { return nlohmann::json(to_string(s)); }
template <typename T>
std::optional<nlohmann::json> cell_json(const std::optional<T>& x, bool)
{
  return x ? std::optional<nlohmann::json>(*x) : std::nullopt;
}
std::optional<nlohmann::json> cell_json(const RowNumber& x, bool)
{
  if (!x.present()) return std::nullopt;
  return x.has_value() ? nlohmann::json(*x) : nlohmann::json(nullptr);
}

/// A refusal about a row at `where`: "FILE:LINE" of a results file (as its file and line), or what the row came from
/// ("the worker of run 3") as the place.
InputError row_refusal(const std::string& where, const std::string& key, const std::optional<std::string>& value,
                       const std::string& message)
{
  std::string file = where;
  int line         = 0;
  if (auto colon = where.rfind(':'); colon != std::string::npos && colon + 1 < where.size() &&
                                     where.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
    file = where.substr(0, colon);
    line = std::stoi(where.substr(colon + 1));
  }
  if (value) return InputError::at(file, line, key, *value, message);
  return key.empty() ? InputError::in_file(file, line, message) : InputError::at(file, line, key, message);
}

[[noreturn]] void bad_cell(const std::string& where, const std::string& key, const nlohmann::json& v,
                           const std::string& expected)
{
  throw row_refusal(where, key, v.dump(), expected.starts_with("expected ") ? expected : "expected " + expected);
}

// A JSON cell read into a field; `where` and `key` name it in the error.
void read_cell(const nlohmann::json& v, std::string& text, const std::string& where, const std::string& key)
{
  if (!v.is_string()) bad_cell(where, key, v, "a text");
  text = v.get<std::string>();
}
void read_cell(const nlohmann::json& v, int& x, const std::string& where, const std::string& key)
{
  if (!v.is_number_integer()) bad_cell(where, key, v, "a whole number");
  x = v.get<int>();
}
void read_cell(const nlohmann::json& v, std::uint64_t& x, const std::string& where, const std::string& key)
{
  if (!v.is_number_unsigned()) bad_cell(where, key, v, "a whole number >= 0");
  x = v.get<std::uint64_t>();
}
void read_cell(const nlohmann::json& v, bool& flag, const std::string& where, const std::string& key)
{
  if (!v.is_boolean()) bad_cell(where, key, v, "true or false");
  flag = v.get<bool>();
}
void read_cell(const nlohmann::json& v, RunStatus& s, const std::string& where, const std::string& key)
{
  auto status = v.is_string() ? from_string<RunStatus>(v.get<std::string>()) : std::nullopt;
  if (!status) bad_cell(where, key, v, expected_names<RunStatus>());
  s = *status;
}
template <typename T>
void read_cell(const nlohmann::json& v, std::optional<T>& x, const std::string& where, const std::string& key)
{
  if (v.is_null()) return x.reset();
  T value{};
  read_cell(v, value, where, key);
  x = value;
}
void read_cell(const nlohmann::json& v, RowNumber& x, const std::string& where, const std::string& key)
{
  if (v.is_null()) {
    x = RowNumber::null();
    return;
  }
  if (!v.is_number()) bad_cell(where, key, v, "a number or null");
  x = v.get<double>();
}

bool in_csv(ColumnPart part, CampaignMode mode)
{
  if (part == ColumnPart::json_only) return false;
  return mode == CampaignMode::elections || (part != ColumnPart::elections && part != ColumnPart::elections_timing);
}

std::string csv_value(const std::optional<nlohmann::json>& cell)
{
  if (!cell || cell->is_null()) return "";
  if (cell->is_string()) return csv_field(cell->get<std::string>());
  if (cell->is_number_float()) return format_number(cell->get<double>(), ".17g");
  return csv_field(cell->dump());
}

} // namespace

bool CampaignRow::simulation_failed() const
{
  return ok() && !simulated_period && from_string<Verdict>(verdict) == Verdict::failed;
}

nlohmann::json CampaignRow::to_json() const
{
  nlohmann::json j = nlohmann::json::object();
  for_each_cell(*this, [&](const CellSpec& spec, const auto& field) {
    auto cell = cell_json(field, spec.always);
    if (!cell) return;
    (is_timing(spec.part) ? j[timing_key][spec.name] : j[spec.name]) = std::move(*cell);
  });
  j[params_key] = params;
  for (const auto& [key, value] : other.items())
    j.emplace(key, value);
  return j;
}

CampaignRow CampaignRow::from_json(const nlohmann::json& j, const std::string& where)
{
  if (!j.is_object()) throw row_refusal(where, "", std::nullopt, "expected a JSON object (a campaign row)");
  CampaignRow row;
  std::set<std::string> known{timing_key, params_key};
  auto timing = j.find(timing_key);
  if (timing != j.end() && !timing->is_object()) bad_cell(where, timing_key, *timing, "an object");
  for_each_cell(row, [&](const CellSpec& spec, auto& field) {
    known.insert(spec.name); // a timing column at the top level: a row written before the timing rule
    const nlohmann::json* cell = j.contains(spec.name) ? &j[spec.name] : nullptr;
    if (is_timing(spec.part) && timing != j.end() && timing->contains(spec.name)) cell = &(*timing)[spec.name];
    if (cell) read_cell(*cell, field, where, spec.name);
  });
  if (auto it = j.find(params_key); it != j.end()) {
    if (!it->is_object()) bad_cell(where, params_key, *it, "an object");
    row.params = *it;
  }
  for (const auto& [key, value] : j.items())
    if (!known.count(key)) row.other[key] = value;
  return row;
}

std::vector<std::string> csv_columns(const std::vector<std::string>& swept, CampaignMode mode)
{
  std::vector<std::string> columns;
  CampaignRow row;
  for_each_cell(row, [&](const CellSpec& spec, const auto&) {
    if (in_csv(spec.part, mode))
      columns.push_back(is_timing(spec.part) ? fmt::format("{}.{}", timing_key, spec.name) : spec.name);
  });
  for (const auto& key : swept)
    columns.push_back("param:" + key);
  return columns;
}

std::string CampaignRow::csv_header(const std::vector<std::string>& swept, CampaignMode mode)
{
  std::string out;
  for (const auto& c : csv_columns(swept, mode)) { // two steps: `"," + std::string&&` trips GCC 12's -Wrestrict
    if (!out.empty()) out += ',';
    out += csv_field(c);
  }
  return out;
}

std::string CampaignRow::csv_line(const std::vector<std::string>& swept, CampaignMode mode) const
{
  std::string out;
  bool first = true;
  auto add   = [&](const std::string& value) {
    if (!first) out += ',';
    first = false;
    out += value;
  };
  for_each_cell(*this, [&](const CellSpec& spec, const auto& field) {
    if (in_csv(spec.part, mode)) add(csv_value(cell_json(field, spec.always)));
  });
  for (const auto& key : swept) {
    auto it = params.find(key);
    add(it == params.end() ? "" : csv_value(*it));
  }
  return out;
}

std::string CampaignRow::describe() const
{
  return fmt::format("run {} ({}): {}{}", run_id, mapper.empty() ? "?" : mapper, to_string(status),
                     error.empty() ? "" : ": " + error);
}

std::ostream& operator<<(std::ostream& out, const CampaignRow& row) { return out << row.describe(); }

} // namespace pipesim

// One row of a campaign (results.jsonl, results.csv): its type, and the one spelling of its columns.
#pragma once

#include "base/enum_names.hpp"
#include "scenarios/campaign.hpp"
#include "validation/campaigns/run_status.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace pipesim {

/// The fixed columns of a campaign row, in the order of results.csv; the names below are the only spelling of the
/// schema (docs/campaigns.md "Row columns" lists them, and a test checks that it does). The elections columns
/// period_<heuristic> (election_period_column) are generated from the heuristics and come before period_milp; the
/// timing columns live in the row's "timing" object (docs/reports.md "Determinism") and are `timing.<name>` in CSV;
/// scenario_yaml is in results.jsonl only; `param:<key>` columns, one per swept key, end the CSV.
enum class RowColumn {
  campaign,
  run_id,
  seed,
  mapper,
  status,
  mapper_status,
  mapper_lower_bound,
  mapper_gap,
  period_test,
  worst_case_bound,
  n,
  p,
  platform_class,
  mapping,
  rule,
  formula,
  analytic_period,
  event_graph_period,
  hedpm_period,
  simulated_period,
  rel_error_period,
  rel_error_event_graph,
  analytic_latency,
  simulated_latency,
  failure_probability,
  verdict,
  crashes,
  period_after_crash,
  runs,
  survival_rate,
  survival_ci_low,
  survival_ci_high,
  survival_ci99_low,
  survival_ci99_high,
  run_errors,
  schedule_survival_rate,
  survived_late_crash,
  period_bound, // bbr10 min-F scenarios: P_max, and the period after crashes against it (issue 36)
  worst_case_period,
  after_crash_measured,
  after_crash_over_bound,
  after_crash_over_ci_low,
  after_crash_over_ci_high,
  after_crash_max_ratio,
  one_left_runs,
  one_left_over_bound,
  after_crash_sim_over_bound,
  after_crash_sim_max_ratio,
  after_crash_sim_max_gap,
  simulated_period_ci_low, // random operation times (issue 33, validation/evaluation/random_times_output.hpp)
  simulated_period_ci_high,
  simulated_datasets,
  simulated_warmup,
  deterministic_period,
  maxplus_period,
  maxplus_ci_low,
  maxplus_ci_high,
  exponential_period,
  exponential_states,
  nbue_applies,
  nbue_holds,
  policy, // re-mapping during the run (issue 34, docs/dynamic.md "The experiment")
  dynamic_mapper,
  remaps,
  load_changes,
  downtime,
  horizon,
  datasets_by_horizon,
  mean_period,
  makespan,
  error,
  period_milp, // elections mode (bbr10 Table 1), after the period_<heuristic> columns
  milp_status,
  milp_bound,
  milp_variables,
  milp_constraints,
  milp_nodes,
  random_seed,
  mapper_seconds, // timing
  wall_seconds,
  milp_seconds, // timing, elections mode
  heuristics_seconds,
  scenario_yaml, // results.jsonl only
};
PIPESIM_ENUM_NAMES(
    RowColumn, {campaign, "campaign"}, {run_id, "run_id"}, {seed, "seed"}, {mapper, "mapper"}, {status, "status"},
    {mapper_status, "mapper_status"}, {mapper_lower_bound, "mapper_lower_bound"}, {mapper_gap, "mapper_gap"},
    {period_test, "period_test"}, {worst_case_bound, "worst_case_bound"}, {n, "n"}, {p, "p"},
    {platform_class, "platform_class"}, {mapping, "mapping"}, {rule, "rule"}, {formula, "formula"},
    {analytic_period, "analytic_period"}, {event_graph_period, "event_graph_period"}, {hedpm_period, "hedpm_period"},
    {simulated_period, "simulated_period"}, {rel_error_period, "rel_error_period"},
    {rel_error_event_graph, "rel_error_event_graph"}, {analytic_latency, "analytic_latency"},
    {simulated_latency, "simulated_latency"}, {failure_probability, "failure_probability"}, {verdict, "verdict"},
    {crashes, "crashes"}, {period_after_crash, "period_after_crash"}, {runs, "runs"}, {survival_rate, "survival_rate"},
    {survival_ci_low, "survival_ci_low"}, {survival_ci_high, "survival_ci_high"},
    {survival_ci99_low, "survival_ci99_low"}, {survival_ci99_high, "survival_ci99_high"}, {run_errors, "run_errors"},
    {schedule_survival_rate, "schedule_survival_rate"}, {survived_late_crash, "survived_late_crash"},
    {period_bound, "period_bound"}, {worst_case_period, "worst_case_period"},
    {after_crash_measured, "after_crash_measured"}, {after_crash_over_bound, "after_crash_over_bound"},
    {after_crash_over_ci_low, "after_crash_over_ci_low"}, {after_crash_over_ci_high, "after_crash_over_ci_high"},
    {after_crash_max_ratio, "after_crash_max_ratio"}, {one_left_runs, "one_left_runs"},
    {one_left_over_bound, "one_left_over_bound"}, {after_crash_sim_over_bound, "after_crash_sim_over_bound"},
    {after_crash_sim_max_ratio, "after_crash_sim_max_ratio"}, {after_crash_sim_max_gap, "after_crash_sim_max_gap"},
    {simulated_period_ci_low, "simulated_period_ci_low"}, {simulated_period_ci_high, "simulated_period_ci_high"},
    {simulated_datasets, "simulated_datasets"}, {simulated_warmup, "simulated_warmup"},
    {deterministic_period, "deterministic_period"}, {maxplus_period, "maxplus_period"},
    {maxplus_ci_low, "maxplus_ci_low"}, {maxplus_ci_high, "maxplus_ci_high"},
    {exponential_period, "exponential_period"}, {exponential_states, "exponential_states"},
    {nbue_applies, "nbue_applies"}, {nbue_holds, "nbue_holds"}, {policy, "policy"}, {dynamic_mapper, "dynamic_mapper"},
    {remaps, "remaps"}, {load_changes, "load_changes"}, {downtime, "downtime"}, {horizon, "horizon"},
    {datasets_by_horizon, "datasets_by_horizon"}, {mean_period, "mean_period"}, {makespan, "makespan"},
    {error, "error"}, {period_milp, "period_milp"}, {milp_status, "milp_status"}, {milp_bound, "milp_bound"},
    {milp_variables, "milp_variables"}, {milp_constraints, "milp_constraints"}, {milp_nodes, "milp_nodes"},
    {random_seed, "random_seed"}, {mapper_seconds, "mapper_seconds"}, {wall_seconds, "wall_seconds"},
    {milp_seconds, "milp_seconds"}, {heuristics_seconds, "heuristics_seconds"}, {scenario_yaml, "scenario_yaml"});

/// The key of a row's swept parameters (an object) in results.jsonl; CSV has `param:<key>` columns instead.
inline constexpr const char* params_key = "params";

/// A figure of a row, read like std::optional<double> (true only with a finite value), that also knows whether it
/// was computed: absent (not computed for this row: no key in JSON, empty CSV cell) or present, with a finite value
/// or without one (JSON null, empty CSV cell: an infinite or undefined result, a deadlocked event graph).
class RowNumber {
public:
  RowNumber() = default;
  RowNumber(double x) : present_(true), value_(x) {} // NOLINT: a figure is assigned like a double
  RowNumber(std::optional<double> x) : present_(true), value_(x.value_or(nan())) {} // NOLINT: nullopt gives null
  static RowNumber null() { return RowNumber(std::optional<double>()); }

  bool present() const { return present_; }
  bool has_value() const { return present_ && std::isfinite(value_); }
  explicit operator bool() const { return has_value(); }
  double operator*() const { return value_; }
  double value_or(double otherwise) const { return has_value() ? value_ : otherwise; }
  std::optional<double> optional() const { return has_value() ? std::optional<double>(value_) : std::nullopt; }
  operator std::optional<double>() const { return optional(); } // NOLINT: read like the optional it replaces
  bool operator==(const RowNumber& other) const
  {
    return present_ == other.present_ && has_value() == other.has_value() && (!has_value() || value_ == other.value_);
  }

private:
  static double nan() { return std::numeric_limits<double>::quiet_NaN(); }
  bool present_ = false;
  double value_ = 0;
};

/// One row of a campaign: the run's identity (campaign, run id, seed, swept parameters, complete scenario), its
/// status, and what was computed for it. Text columns other than campaign, mapper, error and scenario_yaml are absent
/// when empty; whole numbers and flags when empty optionals; figures as RowNumber.
struct CampaignRow {
  std::string campaign;
  int run_id         = 0;
  std::uint64_t seed = 0;
  std::string mapper;
  RunStatus status = RunStatus::ok;
  std::string mapper_status;
  RowNumber mapper_lower_bound, mapper_gap;
  std::string period_test;    // bbr10 reliability heuristics: the P_max test they applied (empty for others)
  RowNumber worst_case_bound; // bbr10 reliability heuristics: what their worst-case test compares with P_max
  std::optional<int> n, p;
  std::string platform_class, mapping, rule, formula;
  RowNumber analytic_period, event_graph_period, hedpm_period, simulated_period, rel_error_period,
      rel_error_event_graph, analytic_latency, simulated_latency, failure_probability;
  std::string verdict;
  std::optional<int> crashes;
  RowNumber period_after_crash;
  std::optional<int> runs;
  RowNumber survival_rate, survival_ci_low, survival_ci_high, survival_ci99_low, survival_ci99_high;
  std::optional<int> run_errors;
  RowNumber schedule_survival_rate;
  std::optional<int> survived_late_crash;
  RowNumber period_bound;      // P_max of a min-F scenario
  RowNumber worst_case_period; // bbr10 §4, multi-port mappings with active replication
  /// The Monte Carlo series against P_max (validation/evaluation/period_after_crashes.hpp), when the row has one.
  std::optional<int> after_crash_measured, after_crash_over_bound;
  RowNumber after_crash_over_ci_low, after_crash_over_ci_high, after_crash_max_ratio;
  std::optional<int> one_left_runs, one_left_over_bound;
  std::optional<int> after_crash_sim_over_bound; // the same counted on the simulated periods (transient included)
  RowNumber after_crash_sim_max_ratio, after_crash_sim_max_gap;
  /// Random operation times (validation/evaluation/random_times_output.hpp): the simulated period's interval, the
  /// max-plus and exponential periods, the N.B.U.E. bracket.
  RowNumber simulated_period_ci_low, simulated_period_ci_high;
  std::optional<std::uint64_t> simulated_datasets, simulated_warmup;
  RowNumber deterministic_period, maxplus_period, maxplus_ci_low, maxplus_ci_high, exponential_period;
  std::optional<std::uint64_t> exponential_states;
  std::optional<bool> nbue_applies, nbue_holds;
  /// Re-mapping during the run (validation/campaigns/dynamic_columns.hpp): the policy and its mapper, the re-maps and
  /// their summed downtime, the profiles' load changes before the horizon H, the data sets output by H, H over them,
  /// and the makespan of the N data sets.
  std::string policy, dynamic_mapper;
  std::optional<int> remaps, load_changes;
  RowNumber downtime, horizon;
  std::optional<std::uint64_t> datasets_by_horizon;
  RowNumber mean_period, makespan;
  std::string error;
  std::array<RowNumber, 4> election_periods; // period_<heuristic>, in table1_heuristics() order
  RowNumber period_milp;
  std::string milp_status;
  RowNumber milp_bound;
  std::optional<int> milp_variables, milp_constraints, milp_nodes;
  std::optional<std::uint64_t> random_seed;
  RowNumber mapper_seconds, wall_seconds, milp_seconds, heuristics_seconds; // wall-clock: the "timing" object
  nlohmann::json params = nlohmann::json::object();                         // swept key -> value
  std::string scenario_yaml;
  nlohmann::json other = nlohmann::json::object(); // keys this version does not know, written back as read

  bool ok() const { return status == RunStatus::ok; }
  /// An ok row whose fault-free simulation failed (a `fail_link` edit stopped it: verdict failed, no simulated
  /// period). Rows with crash runs also have a verdict, but keep their simulated period.
  bool simulation_failed() const;

  /// The results.jsonl object: present columns only, timing columns under "timing", params, other keys.
  nlohmann::json to_json() const;
  /// Reads a results.jsonl object; `where` ("DIR/results.jsonl:12") starts the InputError of a key whose value has
  /// the wrong type. Rows written before the timing rule (timing columns at the top level) are read in the current
  /// form.
  static CampaignRow from_json(const nlohmann::json& j, const std::string& where);

  /// The results.csv header and a line of this row: the fixed columns (elections columns in elections mode), the
  /// timing ones, one `param:<key>` per swept key. Absent and null cells are empty; numbers with 17 digits.
  static std::string csv_header(const std::vector<std::string>& swept, CampaignMode mode);
  std::string csv_line(const std::vector<std::string>& swept, CampaignMode mode) const;

  /// "run 3 (h1): ok" and the error of a row that has one.
  std::string describe() const;
  bool operator==(const CampaignRow& other) const = default;
};
std::ostream& operator<<(std::ostream& out, const CampaignRow& row);

/// The names of the results.csv columns of a campaign with these swept keys, in order.
std::vector<std::string> csv_columns(const std::vector<std::string>& swept, CampaignMode mode = CampaignMode::simulate);

} // namespace pipesim

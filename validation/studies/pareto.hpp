// Pareto fronts of bbr10's problem: the smallest failure probability F each mapper finds as the period bound
// P_max varies, next to the exact front of bbr10.exhaustive(.interval) on tiny instances (docs/pareto.md).
#pragma once

#include "base/progress.hpp"
#include "mappers/mapper.hpp"
#include "scenarios/scenario.hpp"
#include "validation/reports/gnuplot.hpp"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// The mappers whose points form the exact fronts (general, then interval mappings), added whenever they accept the
/// instance.
inline const std::vector<std::string> pareto_exact_mappers{"bbr10.exhaustive", "bbr10.exhaustive.interval"};

struct ParetoOptions {
  /// Mappers to sweep; empty: every registered mapper that accepts the problem (objective min_failure_probability
  /// at the first bound) except `explicit` (family given) and testing aids. The exact mappers are always added
  /// when they accept it.
  std::vector<std::string> mappers;
  std::vector<double> bounds; // P_max values, each > 0
  std::string command_line;
  ProgressMode progress = ProgressMode::off; // points (mapper x bound) done on stderr
};

/// One mapper at one P_max.
struct ParetoPoint {
  double period_bound = 0;
  std::optional<SolveStatus> status;         // the mapper's status; empty: it refused the problem
  std::optional<double> failure_probability; // eq. (2) of the returned mapping, when it meets P_max
  std::optional<double> worst_case_period;   // of the returned mapping (see worst_case_exact)
  bool worst_case_exact = false;             // else bbr10_worst_case_upper_bound (overlapping sets, > 10 used)
  bool meets_bound      = false;             // worst_case_period <= P_max (1 + 1e-9)
  std::string mapping;                       // to_text, empty when none
  std::string note;                          // refusal reason
  double seconds = 0;
};

struct ParetoCurve {
  std::string mapper;
  bool exact = false; // one of pareto_exact_mappers
  std::vector<ParetoPoint> points;
};

struct ParetoSweep {
  std::string scenario, scenario_file, command_line;
  int n = 0, p = 0;
  CommModel model           = CommModel::multi_port;
  std::uint64_t mapper_seed = 1;
  double time_limit         = 0;
  std::vector<double> bounds;
  std::vector<ParetoCurve> curves;
  const ParetoCurve* curve(const std::string& mapper) const; // nullptr when absent
};

/// At most this many bounds from --steps.
inline constexpr int max_pareto_bounds = 10'000;
/// `steps` bounds evenly spaced from `from` to `to` inclusive. InputError naming the option and value unless
/// 0 < from <= to (finite) and 1 <= steps <= max_pareto_bounds, and unless steps = 1 exactly when from = to (one
/// bound cannot reach `to`; more than one bound between equal ends would repeat it).
std::vector<double> pareto_linear_bounds(double from, double to, int steps);
/// InputError naming the value unless every bound is finite, > 0 and given once (and there is at least one).
void check_pareto_bounds(const std::vector<double>& bounds);

/// The mapper list of ParetoOptions::mappers for `problem` (with its objective set to the first bound): the given
/// names (unknown ones: the registry's InputError; a refusing one: InputError with its reason) or the default, then
/// the exact mappers that accept it. InputError when no mapper accepts the problem.
std::vector<std::string> pareto_mappers(const Problem& problem, const std::vector<std::string>& requested);

/// Runs every mapper at every bound on the scenario's problem (platform given, loaded by the caller) with the
/// scenario's mapper options (seed, time limit), the objective replaced by min_failure_probability under each
/// bound. Each returned mapping is checked against its bound with its worst-case period: bbr10_worst_case_upper_bound
/// when its subsets are disjoint (exact then), bbr10_exact_worst_case_period when they overlap on at most 10
/// processors, the upper bound beyond; F is reported only for mappings that meet it.
ParetoSweep pareto_sweep(const Scenario& scenario, const Platform& platform, const ParetoOptions& options);

/// Outputs of `pipesim pareto`: JSON document, table for a person, and gnuplot files.
/// `nlohmann::json j = sweep;` Non-finite numbers are null (validation/evaluation/result_output.hpp).
void to_json(nlohmann::json& j, const ParetoSweep& sweep);
std::string pareto_table(const ParetoSweep& sweep);
/// gnuplot data: one block per curve ("P_max F" for the points with an F), blocks separated by two blank lines
/// (`index i` in gnuplot), each headed by a comment naming the mapper.
std::string pareto_gnuplot_data(const ParetoSweep& sweep);
/// At most this many heuristic fronts are drawn (the exact fronts always are): past it, the best by mean F over the
/// bounds, a bound without F counting as 1, and the plot's title says so.
inline constexpr std::size_t pareto_plotted_heuristics = 8;
/// The plot of pareto.svg: the exact fronts in black (general, thick) and grey (interval, dashed), then up to
/// pareto_plotted_heuristics heuristic fronts in the series styles of validation/reports/gnuplot.hpp, the key outside
/// on the right; data pareto_gnuplot_data (every curve, the plotted ones picked by `index`).
GnuplotPlot pareto_plot(const ParetoSweep& sweep);
/// Writes DIR/pareto.json, DIR/pareto.dat and DIR/pareto.gp, then runs gnuplot (`executable`) to write
/// DIR/pareto.svg. Returns false (files written, no SVG) when gnuplot is not installed.
bool write_pareto_files(const std::string& dir, const ParetoSweep& sweep, const std::string& executable = "gnuplot");

} // namespace pipesim

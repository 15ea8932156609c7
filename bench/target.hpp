// One line per benchmark row against its target (issue 17 item 4), the same in every benchmark of bench/:
//   "<figure>: <measured><unit> (target <= <target><unit>[, <note>]): met"   (or "MISSED"; ">=" for a lower bound)
//   "<figure>: <measured><unit> (small mode: no verdict)"   or   "... (no target)"
// e.g. "10000 runs: 84.2 s (target <= 90 s): met", "ratio: 1.031 (target <= 1.05): MISSED". A row sets its line as
// its label (state.SetLabel); a row with repetitions, whose aggregates drop a label that differs between
// repetitions, keeps its line with set_final_line and the program prints it after the run
// (run_then_print_final_lines).
#pragma once

#include <benchmark/benchmark.h>
#include <cmath>
#include <fmt/format.h>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pipesim::bench {

/// Which side of its target a figure must stay on.
enum class Bound { at_most, at_least };

/// The unit of a figure and of its target.
enum class Unit { none, seconds, milliseconds, megabytes };

struct Target {
  Bound bound;
  double value;
  Unit unit = Unit::none;
};

/// What the parentheses add after the target: a further condition of the target and whether it holds
/// ({"all 31 optimal", optimal == 31}), or how a small mode scaled the target ({"90 s x 50 / 10000 runs"}).
struct Note {
  std::string_view text;
  bool holds = true;
};

/// Why a figure gets no verdict.
enum class NoVerdict { no_target, small_mode };

/// Whether `measured` is on the right side of `target` (never for NaN).
inline bool meets(double measured, const Target& target)
{
  return target.bound == Bound::at_most ? measured <= target.value : measured >= target.value;
}

inline std::string_view unit_text(Unit unit)
{
  switch (unit) {
  case Unit::none:
    return "";
  case Unit::seconds:
    return " s";
  case Unit::milliseconds:
    return " ms";
  case Unit::megabytes:
    return " MB";
  }
  return "";
}

/// 4 significant digits, whole numbers from 1000 on: "84.2", "1.031", "0.0936", "2561".
inline std::string number_text(double value)
{
  return std::abs(value) >= 1000 ? fmt::format("{:.0f}", value) : fmt::format("{:.4g}", value);
}

/// "<figure>: <value><unit>"
inline std::string figure_text(std::string_view figure, double value, Unit unit)
{
  return fmt::format("{}: {}{}", figure, number_text(value), unit_text(unit));
}

/// "<figure>: <measured><unit> (target <= <target><unit>[, <note>]): met" or "...: MISSED".
inline std::string target_line(std::string_view figure, double measured, const Target& target, Note note = {})
{
  bool met = meets(measured, target) && note.holds;
  return fmt::format("{} (target {} {}{}{}{}): {}", figure_text(figure, measured, target.unit),
                     target.bound == Bound::at_most ? "<=" : ">=", number_text(target.value), unit_text(target.unit),
                     note.text.empty() ? "" : ", ", note.text, met ? "met" : "MISSED");
}

/// "<figure>: <measured><unit> (no target)" or "... (small mode: no verdict)".
inline std::string no_verdict_line(std::string_view figure, double measured, Unit unit, NoVerdict why)
{
  return fmt::format("{} ({})", figure_text(figure, measured, unit),
                     why == NoVerdict::no_target ? "no target" : "small mode: no verdict");
}

/// The lines printed after the run, one per key in the order of their first setting.
inline std::vector<std::pair<std::string, std::string>>& final_lines()
{
  static std::vector<std::pair<std::string, std::string>> lines;
  return lines;
}

/// Sets the line printed after the run for `key` (a row): a later call for the same key replaces the line, so each
/// repetition can set the line of the repetitions so far.
inline void set_final_line(const std::string& key, std::string line)
{
  for (auto& [k, l] : final_lines())
    if (k == key) {
      l = std::move(line);
      return;
    }
  final_lines().emplace_back(key, std::move(line));
}

/// The body of main: runs the benchmarks selected on the command line, then prints the final lines.
inline int run_then_print_final_lines(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (const auto& [key, line] : final_lines())
    std::cout << fmt::format("{}: {}\n", key, line);
  return 0;
}

} // namespace pipesim::bench

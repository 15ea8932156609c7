// Writes a gnuplot script and its data file next to an SVG plot and runs gnuplot on them as a child process.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// The look of series i of a plot, the one rule every plot of pipesim follows: the colour is i mod 8 in a palette
/// of 8, the dash type (and the bar fill) is i / 8, the point type (i mod 8 + i / 8) mod 8; so series 0 and 8 share
/// a colour but not a dash type, and no two of the first 64 series of a plot look the same.
struct SeriesStyle {
  std::string colour; // '#rrggbb'
  std::string dash;   // gnuplot dash type: 1 (solid) or a pattern "(12,6)"
  std::string fill;   // bars: "solid 0.8" for the first 8 series, then patterns
  int point = 7;      // gnuplot point type
  /// "lc rgb '#4e79a7' dt 1" for `with lines` or `with steps`.
  std::string line() const;
  /// "lc rgb '#4e79a7' pt 7" for `with points`.
  std::string points() const;
  /// line() and the point type, for `with linespoints`.
  std::string linespoints() const;
  /// "lc rgb '#4e79a7' fs solid 0.8 border -1" for `with boxes`.
  std::string bars() const;
};
/// The number of distinct series styles; beyond it they repeat.
inline constexpr std::size_t distinct_series_styles = 64;
SeriesStyle series_style(std::size_t i);

/// One plot of a report: `name.gp` and `name.dat` are written in the output directory and gnuplot, run from that
/// directory, writes `name.svg`. `commands` are the gnuplot commands after the terminal set-up; they refer to the
/// data as `'name.dat'` so a user can re-run `gnuplot name.gp` in the directory.
struct GnuplotPlot {
  std::string name;
  std::string commands;
  std::string data;
  int width  = 800;
  int height = 500;
};

/// One bar of a labelled bar chart (whatif-period, whatif-reliability, edits_period): its value (empty: no bar) and
/// its status: "ok"; the reason it has no figure or, with a value, why some of its runs have none ("failed", "error",
/// "removed", "failed 1 of 2", ...), written as a red vertical label (on top of the bar, or from 0 without bar); or
/// "-" (not computed: neither bar nor label).
struct BarCell {
  std::optional<double> value;
  std::string status = "ok";
};

/// One group of bars: the x tic label and the cells, which become the data columns 2 (value), 3 (status), 4, 5, ...
struct BarGroup {
  std::string label;
  std::vector<BarCell> cells;
};

/// One series of bars: the index of its cell in each group and its title in the key.
struct BarSeries {
  std::size_t cell = 0;
  std::string title;
};

/// The data rows of a labelled bar chart, one per group: `"label" value status value status ...` with value `?`
/// without a (finite) figure and a status holding blanks in double quotes (`"` is dropped from labels).
std::string bar_chart_rows(const std::vector<BarGroup>& groups);

/// The commands that draw the groups, as written by bar_chart_rows in `data_file`: x range, head room for the labels
/// on top of bars when there are any, and the `plot` command with the series side by side (series_style(j) for
/// series j, x tics from column 1), each with its labels. Axis titles, key and y range are the caller's.
std::string bar_chart_plot(const std::string& data_file, const std::vector<BarGroup>& groups,
                           const std::vector<BarSeries>& series);

/// A gnuplot single-quoted string literal (titles, labels, file names): `'` is doubled, as gnuplot requires.
std::string gnuplot_quote(const std::string& text);

/// Writes `dir/name.gp` and `dir/name.dat`, runs `executable name.gp` in `dir` and checks that `dir/name.svg` exists.
/// A missing executable is a std::runtime_error "gnuplot not found: install gnuplot-nox (scripts/setup.sh)"; a
/// failing run is a std::runtime_error that quotes gnuplot's stderr.
void render_plot(const std::string& dir, const GnuplotPlot& plot, const std::string& executable);

/// Runs `executable script` with `dir` as working directory, stdout discarded, stderr captured and returned. Throws
/// the errors of render_plot (not found, non-zero exit or signal).
std::string run_gnuplot(const std::string& dir, const std::string& script, const std::string& executable);

/// Writes `text` to `path`, replacing it; a std::runtime_error names the path when it cannot.
void write_text_file(const std::string& path, const std::string& text);

} // namespace pipesim

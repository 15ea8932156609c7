// Writes a gnuplot script and its data file next to an SVG plot and runs gnuplot on them as a child process.
#pragma once

#include <string>

namespace pipesim {

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

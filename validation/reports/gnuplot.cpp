// Writes a gnuplot script and its data file next to an SVG plot and runs gnuplot on them as a child process.
#include "validation/reports/gnuplot.hpp"

#include "base/external_program.hpp"
#include "base/table.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace pipesim {

namespace {
// Tableau-like colours that stay apart for the common colour blindnesses, then dash patterns, bar fills and point
// types that each look different on screen, in SVG and in print.
const char* const series_colours[8] = {"#4e79a7", "#f28e2b", "#e15759", "#59a14f",
                                       "#b07aa1", "#76b7b2", "#9c755f", "#d4a017"};
const char* const series_dashes[8]  = {"1",      "(12,6)",         "(3,4)", "(12,4,3,4)",
                                       "(24,8)", "(12,4,3,4,3,4)", "(6,3)", "(24,6,6,6)"};
const char* const series_fills[8]   = {"solid 0.8", "pattern 4", "pattern 5", "pattern 1",
                                       "pattern 6", "pattern 7", "pattern 2", "solid 0.35"};
const int series_points[8]          = {7, 5, 9, 13, 11, 6, 4, 8};
} // namespace

SeriesStyle series_style(std::size_t i)
{
  std::size_t colour = i % 8, block = i / 8 % 8;
  return {series_colours[colour], series_dashes[block], series_fills[block], series_points[(colour + block) % 8]};
}

std::string SeriesStyle::line() const { return fmt::format("lc rgb '{}' dt {}", colour, dash); }
std::string SeriesStyle::points() const { return fmt::format("lc rgb '{}' pt {}", colour, point); }
std::string SeriesStyle::linespoints() const { return fmt::format("{} pt {}", line(), point); }
std::string SeriesStyle::bars() const { return fmt::format("lc rgb '{}' fs {} border -1", colour, fill); }

std::string gnuplot_quote(const std::string& text)
{
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'')
      quoted += "''";
    else if (c != '\n')
      quoted += c;
  }
  return quoted + "'";
}

std::string bar_chart_rows(const std::vector<BarGroup>& groups)
{
  std::string data;
  for (const auto& group : groups) {
    std::string label = group.label;
    std::erase(label, '"');
    data += "\"" + label + "\"";
    for (const auto& bar : group.cells) {
      bool shown         = bar.value && std::isfinite(*bar.value);
      std::string status = bar.status;
      std::erase(status, '"');
      if (status.empty()) status = "unknown";
      if (status.find_first_of(" \t") != std::string::npos) status = "\"" + status + "\"";
      data += fmt::format(" {} {}", shown ? format_number(*bar.value, ".10g") : "?", status);
    }
    data += "\n";
  }
  return data;
}

std::string bar_chart_plot(const std::string& data_file, const std::vector<BarGroup>& groups,
                           const std::vector<BarSeries>& series)
{
  bool label_on_bar = false; // a label above a bar needs room under the top of the plot
  for (const auto& group : groups)
    for (const auto& s : series)
      if (s.cell < group.cells.size()) {
        const BarCell& bar = group.cells[s.cell];
        label_on_bar       = label_on_bar || (bar.value && bar.status != "ok" && bar.status != "-");
      }
  std::string commands = fmt::format("set xrange [-0.6:{}]\n{}", static_cast<double>(groups.size()) - 0.4,
                                     label_on_bar ? "set offsets 0, 0, graph 0.25, 0\n" : "");
  double width         = 0.8 / static_cast<double>(std::max<std::size_t>(series.size(), 1));
  // the x tics from an invisible series that has a point in every group: a bar without value has no tic
  std::string plots = fmt::format("{} using 0:(0):(''):xtic(1) with labels notitle", gnuplot_quote(data_file));
  for (std::size_t j = 0; j < series.size(); ++j) {
    double offset = (static_cast<double>(j) - static_cast<double>(series.size() - 1) / 2) * width;
    std::size_t v = 2 + 2 * series[j].cell, s = v + 1; // the value and status columns: '?' is no number, no bar
    plots += fmt::format(", \\\n  '' using ($0{0:+.6g}):{1}:({2:.6g}) with boxes {3} title {4}, \\\n  '' using "
                         "($0{0:+.6g}):(valid({1}) ? column({1}) : 0):(strcol({5}) eq 'ok' || strcol({5}) eq '-' ? '' "
                         ": strcol({5})) with labels rotate by 90 left offset 0,0.4 tc rgb '#c00000' notitle",
                         offset, v, width, series_style(j).bars(), gnuplot_quote(series[j].title), s);
  }
  return commands + "plot " + plots + "\n";
}

void write_text_file(const std::string& path, const std::string& text)
{
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::string run_gnuplot(const std::string& dir, const std::string& script, const std::string& executable)
{
  ProgramCall call;
  call.argv          = {executable, script};
  call.working_dir   = dir;
  ProgramResult r    = run_program(call);
  std::string where  = fmt::format("{} {} (in {})", executable, script, dir);
  const char* absent = "gnuplot not found: install gnuplot-nox (scripts/setup.sh)";
  switch (r.status) {
  case ProgramStatus::not_found:
    if (r.spawn_error != 0 && r.spawn_error != ENOENT)
      throw std::runtime_error(fmt::format("cannot run '{}' in {}: {}", executable, dir, r.err));
    throw std::runtime_error(absent); // absent, or exit code 127 (a wrapper's way to say so)
  case ProgramStatus::signalled:
    throw std::runtime_error(fmt::format("{} died: signal {}\n{}", where, r.signal, r.err));
  case ProgramStatus::timed_out: // no time limit is set: cannot happen
  case ProgramStatus::exited:
    break;
  }
  if (r.exit_code == 127) throw std::runtime_error(absent); // the shell convention, kept by some wrappers
  if (!r.ok()) throw std::runtime_error(fmt::format("{} failed (exit code {}):\n{}", where, r.exit_code, r.err));
  return r.err;
}

void render_plot(const std::string& dir, const GnuplotPlot& plot, const std::string& executable)
{
  std::string svg    = plot.name + ".svg";
  std::string script = fmt::format("# {}.gp: re-run with `gnuplot {}.gp` in this directory; data in {}.dat.\n"
                                   "set terminal svg size {},{} dynamic noenhanced font 'Helvetica,12' "
                                   "background rgb 'white'\n"
                                   "set output {}\n",
                                   plot.name, plot.name, plot.name, plot.width, plot.height, gnuplot_quote(svg));
  script += plot.commands;
  if (!script.ends_with('\n')) script += '\n';
  script += "unset output\n";
  write_text_file(dir + "/" + plot.name + ".dat", plot.data);
  write_text_file(dir + "/" + plot.name + ".gp", script);
  std::filesystem::remove(dir + "/" + svg);
  std::string errors = run_gnuplot(dir, plot.name + ".gp", executable);
  std::error_code ec;
  if (std::filesystem::file_size(dir + "/" + svg, ec) == 0 || ec)
    throw std::runtime_error(fmt::format("gnuplot wrote no {}/{}:\n{}", dir, svg, errors));
}

} // namespace pipesim

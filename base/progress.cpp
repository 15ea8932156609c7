// Progress lines on stderr.
#include "base/progress.hpp"

#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <unistd.h>

namespace pipesim {

ProgressMode progress_mode(bool quiet, ProgressMode not_terminal)
{
  if (quiet) return ProgressMode::off;
  return ::isatty(STDERR_FILENO) == 1 ? ProgressMode::terminal : not_terminal;
}

std::string progress_duration(double seconds)
{
  long s = std::lround(std::max(0.0, seconds));
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  long m = std::lround(static_cast<double>(s) / 60);
  return fmt::format("{}h{:02}m", m / 60, m % 60);
}

namespace {
std::string rate_text(double rate)
{
  if (rate >= 100) return fmt::format("{:.0f}", rate);
  if (rate >= 10) return fmt::format("{:.1f}", rate);
  if (rate >= 1) return fmt::format("{:.2f}", rate);
  return fmt::format("{:.3g}", rate);
}
} // namespace

std::string progress_line(const std::string& name, const std::string& unit, const ProgressState& st)
{
  bool timed       = st.elapsed > 0;
  double rate      = timed ? static_cast<double>(st.done) / st.elapsed : 0;
  std::string line = fmt::format("{}: {}/{} {}", name, st.done, st.total, unit);
  if (st.final_line) line += fmt::format(" in {}", progress_duration(st.elapsed));
  line += fmt::format(", {} {}/s", timed ? rate_text(rate) : "?", unit);
  if (!st.final_line)
    line += fmt::format(", ETA {}", rate > 0 ? progress_duration(static_cast<double>(st.total - st.done) / rate) : "?");
  if (st.failures >= 0) line += fmt::format(", {} failures", st.failures);
  return line;
}

Progress::Progress(std::string name, std::string unit, long total, ProgressMode mode, bool count_failures)
    : name_(std::move(name)), unit_(std::move(unit)), total_(total), mode_(mode), count_failures_(count_failures),
      start_(std::chrono::steady_clock::now()), last_print_(start_)
{
}

Progress::~Progress() { finish(); }

void Progress::set(long done, bool failure)
{
  done_ = done;
  failures_ += failure ? 1 : 0;
  if (mode_ == ProgressMode::off) return;
  double since = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_print_).count();
  if (since >= (mode_ == ProgressMode::terminal ? 0.2 : 5.0)) print(false);
}

void Progress::finish()
{
  if (finished_) return;
  finished_ = true;
  if (printed_ || mode_ == ProgressMode::log) print(true);
}

void Progress::print(bool final_line)
{
  if (mode_ == ProgressMode::off) return;
  last_print_ = std::chrono::steady_clock::now();
  printed_    = true;
  ProgressState st{done_, total_, std::chrono::duration<double>(last_print_ - start_).count(),
                   count_failures_ ? failures_ : -1, final_line};
  std::string line = progress_line(name_, unit_, st);
  if (mode_ == ProgressMode::terminal)
    fmt::print(stderr, "\r{}\033[K{}", line, final_line ? "\n" : "");
  else
    fmt::print(stderr, "{}\n", line);
  std::fflush(stderr);
}

} // namespace pipesim

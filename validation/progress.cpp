// Campaign progress on stderr.
#include "validation/progress.hpp"

#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <unistd.h>

namespace pipesim {

namespace {
std::string duration(double s)
{
  if (s < 60) return fmt::format("{:.0f}s", s);
  if (s < 3600) return fmt::format("{:.0f}m{:02.0f}s", s / 60 - 0.5, std::fmod(s, 60.0));
  return fmt::format("{:.0f}h{:02.0f}m", s / 3600 - 0.5, std::fmod(s / 60, 60.0));
}
} // namespace

Progress::Progress(std::string name, int total, bool quiet)
    : name_(std::move(name)), total_(total), quiet_(quiet), tty_(::isatty(2) == 1),
      start_(std::chrono::steady_clock::now()), last_print_(start_)
{
}

void Progress::advance(bool failure)
{
  ++done_;
  failures_ += failure ? 1 : 0;
  auto now     = std::chrono::steady_clock::now();
  double since = std::chrono::duration<double>(now - last_print_).count();
  if (tty_ ? since >= 0.2 : since >= 5.0) print(false);
}

void Progress::finish() { print(true); }

void Progress::print(bool final)
{
  if (quiet_) return;
  last_print_      = std::chrono::steady_clock::now();
  double elapsed   = std::chrono::duration<double>(last_print_ - start_).count();
  double rate      = elapsed > 0 ? done_ / elapsed : 0;
  std::string eta  = rate > 0 ? duration((total_ - done_) / rate) : "?";
  std::string line = fmt::format("{}: {}/{} runs, {:.2f} runs/s, ETA {}, {} failures", name_, done_, total_, rate,
                                 final ? "0s" : eta, failures_);
  if (tty_)
    fmt::print(stderr, "\r{}\033[K{}", line, final ? "\n" : "");
  else
    fmt::print(stderr, "{}\n", line);
  std::fflush(stderr);
}

} // namespace pipesim

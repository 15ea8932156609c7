// Progress of a long command on stderr: done / total in some unit, rate and ETA (campaign runs, Monte Carlo runs,
// data sets of a simulation, what-if variants, Pareto points). A live line on a terminal; plain lines in a log.
#pragma once

#include "base/enum_names.hpp"

#include <chrono>
#include <string>

namespace pipesim {

enum class ProgressMode {
  off,      // nothing (-q/--quiet, or stderr is not a terminal)
  terminal, // one line rewritten in place (\r) at most every 0.2 s, ended by the final line
  log       // a plain line every 5 s and the final line (campaigns whose stderr is a file: SLURM logs)
};
PIPESIM_ENUM_NAMES(ProgressMode, {off, "off"}, {terminal, "terminal"}, {log, "log"});

/// The mode of a command: off when `quiet`, terminal when stderr is a terminal, else `not_terminal` (off for every
/// command but `campaign`, whose plain lines go to SLURM's logs).
ProgressMode progress_mode(bool quiet, ProgressMode not_terminal = ProgressMode::off);

/// What a progress line shows; `failures` < 0 leaves the failure count out.
struct ProgressState {
  long done       = 0;
  long total      = 0;
  double elapsed  = 0; // seconds since the start
  long failures   = -1;
  bool final_line = false;
};

/// "name: done/total unit, R unit/s, ETA 1m05s[, F failures]"; the final line has "in <elapsed>" instead of the ETA.
/// The rate is done / elapsed (3 significant digits, "?" before any time has passed), the ETA the rest at that rate.
std::string progress_line(const std::string& name, const std::string& unit, const ProgressState& state);

/// A duration for a person: "42s", "3m07s", "2h05m" (rounded to the second, then to the minute past an hour).
std::string progress_duration(double seconds);

/// Done / total of one loop, printed on stderr as `mode` says. Costs a clock read per advance() when not off.
/// Not for several threads; a forked child may print through its copy (the simulator's data sets do).
class Progress {
public:
  /// `count_failures`: the line shows how many advance(true) there were (campaigns: failed rows).
  Progress(std::string name, std::string unit, long total, ProgressMode mode, bool count_failures = false);
  Progress(const Progress&)            = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress(); // finish() unless done
  /// One more unit done.
  void advance(bool failure = false) { set(done_ + 1, failure); }
  /// `done` units done so far (the simulator's data sets), one more failure if `failure`.
  void set(long done, bool failure = false);
  /// The final line (newline-terminated), when a line was printed before or in log mode; once.
  void finish();
  bool enabled() const { return mode_ != ProgressMode::off; }

private:
  void print(bool final_line);
  std::string name_;
  std::string unit_;
  long total_;
  ProgressMode mode_;
  bool count_failures_;
  bool printed_  = false;
  bool finished_ = false;
  long done_     = 0;
  long failures_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_print_;
};

} // namespace pipesim

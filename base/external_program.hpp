// The one way pipesim runs an external program (gnuplot, sbatch, squeue, scancel, scontrol, ...): arguments as a
// vector (no shell), output captured, a time limit, and a typed outcome that names the program.
#pragma once

#include "base/enum_names.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// How to run one external program.
struct ProgramCall {
  /// argv[0] is the program: a name searched in PATH, or a path (holding a '/'). The arguments are passed as they
  /// are: no shell, so blanks, quotes and `$` in an argument are plain characters.
  std::vector<std::string> argv;
  std::string working_dir; // empty: the caller's
  /// Seconds the program may run, 0 for no limit. With a limit the program runs in its own process group and, when
  /// the time is up, the whole group (its children too) is killed with SIGKILL; without one it stays in the caller's
  /// group, so a Ctrl-C at the terminal reaches it.
  double timeout = 0;
  /// True: stderr goes into ProgramResult::out too, interleaved as the program wrote it (SLURM's tools print their
  /// refusals on either stream); false: it is captured apart, in ProgramResult::err.
  bool merge_stderr = false;
};

/// How an external program ended.
enum class ProgramStatus {
  exited,    // it ran and exited: ProgramResult::exit_code
  not_found, // no such program in PATH (or no such path), or it could not be executed
  signalled, // a signal killed it: ProgramResult::signal
  timed_out, // it ran past ProgramCall::timeout: its process group was killed
};
PIPESIM_ENUM_NAMES(ProgramStatus, {exited, "exited"}, {not_found, "not_found"}, {signalled, "signalled"},
                   {timed_out, "timed_out"});

struct ProgramResult {
  std::string program; // argv[0] as the caller gave it
  ProgramStatus status = ProgramStatus::not_found;
  int exit_code        = -1; // exited: its exit code
  int signal           = 0;  // signalled: the signal
  int spawn_error      = 0;  // not_found: the errno of the failed start (ENOENT: absent), 0 after exit code 127
  std::string out;           // everything it wrote on stdout (and stderr with merge_stderr)
  std::string err;           // everything it wrote on stderr (empty with merge_stderr)
  double timeout = 0;        // the limit it ran under, for the messages
  double seconds = 0;        // wall time from the start to the end (or the kill)

  /// It ran and exited with code 0.
  bool ok() const { return status == ProgramStatus::exited && exit_code == 0; }
  /// One line (then the program's own words, when it wrote any) saying what happened: "gnuplot not found (no such
  /// program in PATH)", "sbatch failed (exit code 1): ...", "squeue killed by signal 9 (Killed)", "scontrol did not
  /// finish within 120 s"; "gnuplot exited with code 0" when it succeeded.
  std::string describe() const;
  /// Nothing when ok(); otherwise throws: InputError for not_found (the user's PATH or option names a program that
  /// is not there: the CLI exits 2), std::runtime_error for a failure, a signal or a timeout; the message is
  /// describe(), with `hint` (e.g. "install gnuplot-nox (scripts/setup.sh)") appended to the first line when given.
  void check(const std::string& hint = "") const;
};

/// Runs call.argv with stdin on /dev/null and no file descriptor of this process but stdout and stderr open,
/// reads its output while it runs (output of any size), waits for it and returns how it ended. Never throws for what
/// the program does (missing, failing, killed, too slow: see ProgramResult::status); throws std::invalid_argument
/// for an empty argv and std::runtime_error naming the program when the system refuses a pipe, spawn or poll.
/// A program that exits 127 without writing anything is `not_found` (the convention of shells and wrappers such as
/// env for a missing program).
ProgramResult run_program(const ProgramCall& call);

/// The path a program name resolves to (PATH search, or the path itself when it holds a '/'); empty when absent.
std::string find_program(const std::string& name);

} // namespace pipesim

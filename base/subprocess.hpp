// The one process pool: runs jobs in forked child processes (SimGrid allows one engine per process) and returns a
// typed outcome per job.
#pragma once

#include "base/enum_names.hpp"
#include "base/input_error.hpp"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pipesim {

/// How a job ended.
enum class JobStatus {
  finished,      // the job returned: JobOutcome::text is its result
  bad_input,     // the job threw InputError: text is its message
  failed,        // the job threw another exception: text is its message
  crashed,       // its process died without a result: killed by JobOutcome::signal, or exited with exit_code
  timed_out,     // it ran longer than PoolOptions::timeout: its process group was killed
  out_of_memory, // its process used more than PoolOptions::memory_limit (its group was killed), or an allocation
                 // of the job failed (std::bad_alloc)
};
PIPESIM_ENUM_NAMES(JobStatus, {finished, "finished"}, {bad_input, "bad_input"}, {failed, "failed"},
                   {crashed, "crashed"}, {timed_out, "timed_out"}, {out_of_memory, "out_of_memory"});

struct JobOutcome {
  JobStatus status = JobStatus::crashed;
  /// finished: the result; bad_input, failed: the exception's message; crashed: "simulation process died: signal 6
  /// (Aborted)", "... exit code 7" or "... exit code 0 before sending a result" ("worker process died: ..." when the
  /// prepared worker died, not the job's own process); timed_out: "timed out after T s"; out_of_memory: "used more
  /// than M bytes of memory" or "a memory allocation failed (std::bad_alloc)".
  std::string text;
  std::optional<InputError> error =
      std::nullopt;       // bad_input: the job's InputError, its fields (file, line, key, value) intact
  int signal     = 0;     // crashed: the signal that killed the process, 0 when it exited
  int exit_code  = 0;     // crashed without a signal: its exit code
  bool worker    = false; // crashed: the prepared worker died (the job may never have started)
  double seconds = 0;     // wall time from the start of the job's process to its end
  bool ok() const { return status == JobStatus::finished; }
  /// bad_input: the job's InputError, to throw again in this process.
  InputError input_error() const
  {
    if (!error) throw std::logic_error("a bad_input outcome without its InputError: " + text);
    return *error;
  }
};

using Job     = std::function<std::string(int index)>;
using JobDone = std::function<void(int index, JobOutcome&& outcome)>;

struct PoolOptions {
  int jobs       = 1; // at most this many job processes (or prepared workers) at once
  double timeout = 0; // seconds per job, 0 for none; a job over it has its process group killed (SIGKILL)
  /// Bytes of resident memory a job's process may hold, 0 for none: every 0.2 s the pool reads the resident set of
  /// each job's process (Linux /proc) and kills the group of one past the limit (SIGKILL): out_of_memory. Its own
  /// children are not counted (a job running a pool gives that pool its own limit). Prepared workers apply it to
  /// each of their jobs, as the timeout.
  double memory_limit = 0;
  /// Prepared mode when set: min(jobs, count) worker processes each run `prepare` once (not timed), then run their
  /// jobs (i = w, w + workers, ...) one at a time, each in a child forked from the prepared worker, so a job sees
  /// what `prepare` built and nothing another job did. When `prepare` throws, each job of that worker gets its error
  /// (bad_input or failed); a worker that dies leaves `crashed` with `worker` set in each job it had not finished.
  std::function<void()> prepare = nullptr;
};

/// Runs job(0) .. job(count - 1), each in its own forked child, at most options.jobs at once, and calls `done` in this
/// process as each job ends (in the order they end). A child runs in its own process group, sends its result back
/// through a pipe (read while the others run: results of any size) and _exits without running destructors or atexit
/// handlers of this process's state; stdout and stderr are flushed before each fork. A child dies with its parent
/// (Linux parent-death signal), so killing or interrupting the caller, even with SIGKILL, leaves no child running;
/// when `done` throws (or fork, pipe or poll fail: std::runtime_error), every child still running is killed and
/// reaped before the exception leaves. Nests (a job may run a pool); not for several threads at once.
void run_pool(int count, const PoolOptions& options, const Job& job, const JobDone& done);

/// run_pool collecting the outcomes, in index order.
std::vector<JobOutcome> run_pool(int count, const PoolOptions& options, const Job& job);

/// What a host process needs done around the pool's forks and waits: the Python module (python/) follows the
/// interpreter's own fork protocol (GIL held across fork, PyOS_BeforeFork / PyOS_AfterFork_*) and turns a Ctrl-C
/// into KeyboardInterrupt. Empty members do nothing (the command line sets none). The hooks are process-wide and a
/// forked child inherits them.
struct PoolHooks {
  std::function<void()> before_fork;          // in this process, just before each fork
  std::function<void(bool child)> after_fork; // in both processes just after it (also when fork failed: child false)
  /// Called each time the pool's wait wakes up, at least every 0.1 s while children run; what it throws stops the
  /// pool: every child still running is killed and reaped, then the exception leaves run_pool.
  std::function<void()> check_interrupt;
};
void set_pool_hooks(PoolHooks hooks);

/// One job in a child: its result, or its outcome as an exception (bad_input: the job's InputError; failed,
/// crashed, timed_out, out_of_memory: std::runtime_error with JobOutcome::text).
std::string run_in_child(const std::function<std::string()>& job);

/// The resident memory of process `pid` in bytes (Linux /proc/PID/statm), 0 when it cannot be read.
double resident_bytes(int pid);

} // namespace pipesim

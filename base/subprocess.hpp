// Runs a job in a forked child process (SimGrid allows one engine per process) and returns its string result.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace pipesim {

/// Forks; the child runs `job`, sends its result back through a pipe and _exits without running any destructor or
/// atexit handler of the parent's state. stdout/stderr are flushed before the fork. Errors come back typed:
/// - the job threw InputError: InputError with the same message;
/// - the job threw another std::exception: std::runtime_error with its message;
/// - the child died (signal, exit or abort before sending a result, e.g. a SimGrid xbt_die):
///   std::runtime_error("simulation process died: signal N (name)" or "simulation process died: exit code N").
/// Safe to call from a child (nesting works) but not from several threads at once with interleaved forks.
std::string run_in_child(const std::function<std::string()>& job);

/// One job's outcome in run_in_children: its result, or the error run_in_child would have thrown.
struct ChildOutcome {
  bool ok          = false;
  bool input_error = false; // the job threw InputError
  std::string text;         // the result, or the error message
};

/// Runs job(0) .. job(count - 1), each in its own forked child, at most `jobs` at once; outcomes in index order.
/// Never throws for a job's failure (see ChildOutcome); throws std::runtime_error when fork or pipe fail.
std::vector<ChildOutcome> run_in_children(int count, int jobs, const std::function<std::string(int)>& job);

/// run_in_children for jobs that share a costly set-up (a SimGrid engine and its platform): `jobs` worker processes
/// each run `prepare` once, then run their jobs (i = w, w + jobs, ...) one at a time, each in a child forked from
/// the prepared worker, so a job sees what `prepare` built and nothing another job did. Outcomes in index order.
/// When `prepare` throws, every job of that worker gets its error; a worker that dies leaves an error in each job
/// it had not finished.
std::vector<ChildOutcome> run_in_prepared_children(int count, int jobs, const std::function<void()>& prepare,
                                                   const std::function<std::string(int)>& job);

} // namespace pipesim

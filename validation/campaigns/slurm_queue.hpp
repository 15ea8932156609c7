// SLURM's command-line tools as pipesim uses them: sbatch, squeue and scancel run with a time limit (run_program), job
// states.
#pragma once

#include "base/enum_names.hpp"
#include "base/external_program.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// A job's state as squeue prints it (%T); `unknown` for any other text.
enum class SlurmState {
  pending,
  configuring,
  running,
  completing,
  suspended,
  requeued,
  requeue_hold,
  requeue_fed,
  resizing,
  signaling,
  special_exit,
  stage_out,
  stopped,
  completed,
  cancelled,
  failed,
  timeout,
  node_fail,
  preempted,
  boot_fail,
  deadline,
  out_of_memory,
  revoked,
  unknown
};

PIPESIM_ENUM_NAMES(SlurmState, {pending, "PENDING"}, {configuring, "CONFIGURING"}, {running, "RUNNING"},
                   {completing, "COMPLETING"}, {suspended, "SUSPENDED"}, {requeued, "REQUEUED"},
                   {requeue_hold, "REQUEUE_HOLD"}, {requeue_fed, "REQUEUE_FED"}, {resizing, "RESIZING"},
                   {signaling, "SIGNALING"}, {special_exit, "SPECIAL_EXIT"}, {stage_out, "STAGE_OUT"},
                   {stopped, "STOPPED"}, {completed, "COMPLETED"}, {cancelled, "CANCELLED"}, {failed, "FAILED"},
                   {timeout, "TIMEOUT"}, {node_fail, "NODE_FAIL"}, {preempted, "PREEMPTED"}, {boot_fail, "BOOT_FAIL"},
                   {deadline, "DEADLINE"}, {out_of_memory, "OUT_OF_MEMORY"}, {revoked, "REVOKED"},
                   {unknown, "UNKNOWN"});

/// The state squeue printed as `text`; `unknown` for any other text.
SlurmState slurm_state(const std::string& text);
/// True while the job is still in the queue (pending, running, held, being requeued...): it may still write its
/// shard. Finished states (COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL, ...) give false; `unknown` gives true
/// (never run a shard twice at once on a guess).
bool in_queue(SlurmState state);

/// One line of `squeue --array --states=all --format=%A|%F|%K|%T|%r` (%r: SLURM's reason, or its state description
/// when it has one, e.g. "launch failed requeued held").
struct SlurmJob {
  long job_id       = 0;
  long array_job_id = 0;  // the job id itself for a job that is not an array
  int array_task    = -1; // -1: not an array task
  SlurmState state  = SlurmState::unknown;
  std::string reason;

  std::string name() const; // "123_4" or "123"
};

/// Why a job that is still in the queue will not run unless someone acts: held (by the user, an administrator, or
/// SLURM after launch failures), a dependency that can never be met, a node or partition down, a request the
/// partition or account refuses, or a state that waits for a person (REQUEUE_HOLD, SPECIAL_EXIT, SUSPENDED,
/// STOPPED). The text names the state and SLURM's reason; empty for a job that runs, has ended, or waits for something
/// that comes by itself (Resources, Priority, BeginTime, Dependency, limits of running jobs).
std::string blocked_reason(const SlurmJob& job);

/// The jobs of a squeue listing in that format; lines that do not parse are skipped.
std::vector<SlurmJob> parse_squeue(const std::string& output);

/// The job id of `sbatch --parsable` output ("123" or "123;cluster"); 0 when there is none.
long parse_job_id(const std::string& output);

/// The programs pipesim runs (names searched in PATH, or paths), and how long each may take.
struct SlurmTools {
  std::string sbatch  = "sbatch";
  std::string squeue  = "squeue";
  std::string scancel = "scancel";
  double timeout      = 120; // seconds; a command still running then is killed
};

/// Runs a SLURM tool (argv[0] one of `tools`' programs) with run_program: at most tools.timeout seconds, stdout and
/// stderr together in ProgramResult::out (SLURM prints its refusals on either).
ProgramResult run_slurm_tool(const SlurmTools& tools, std::vector<std::string> argv);

/// The jobs with these ids (array jobs: every task) that SLURM still knows (squeue --states=all). nullopt when squeue
/// did not answer; `error` then says why. Ids SLURM has forgotten are simply absent.
std::optional<std::vector<SlurmJob>> query_jobs(const SlurmTools& tools, const std::vector<long>& ids,
                                                std::string& error);

} // namespace pipesim

// `pipesim campaign FILE --out DIR --slurm`: hands a campaign to SLURM as a job array (one task per shard) and a
// merge job, and on a second call submits again only what is unfinished and not queued (docs/cluster.md).
#pragma once

#include "scenarios/campaign.hpp"
#include "validation/campaigns/campaign_status.hpp"
#include "validation/campaigns/slurm_queue.hpp"
#include "validation/campaigns/slurm_scripts.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// What one call submits, decided from the directory and the queue alone (no side effect).
struct SubmissionPlan {
  std::vector<int> shards;      // array tasks to submit: shards with runs missing that no queued job works on
  bool merge = false;           // submit a merge job
  std::vector<long> depends_on; // earlier array jobs still queued: the merge job also waits for them (afterany)
  std::vector<long> cancel;     // the pending merge job of an earlier submission, replaced by the new one
  std::string reason;           // one sentence for the user
};

/// The plan for a directory whose shards and jobs are `status` (jobs attached with attach_jobs):
/// - shards to resubmit (CampaignStatus::to_resubmit) -> an array of those, and a merge job after it and after the
///   earlier arrays still queued; a pending earlier merge job is cancelled (it would merge too early);
/// - none, but shards still queued -> nothing, unless no merge job waits for them (then a merge job after them);
/// - every shard finished -> a merge job alone unless DIR already holds the merged results and the report, or a
///   merge job is queued.
SubmissionPlan plan_submission(const CampaignStatus& status);

struct SlurmSubmitOptions {
  SlurmJobSettings job; // shard_count 0: the previous submission's, else default_shard_count(total)
  bool dry_run = false; // write the scripts and say what would be submitted; call no SLURM command but squeue
  std::string command_line;
  std::string working_dir; // where command_line was typed (recorded in DIR/COMMAND)
  SlurmTools tools;
};

struct SubmitOutcome {
  SubmissionPlan plan;
  SlurmSubmission submission; // job ids (0 when not submitted)
  std::string message;        // what was written and submitted, for stdout
};

/// One shard per 1,000 runs (at least one).
int default_shard_count(int total);

/// Writes DIR/slurm/{submission.json, array.sbatch, merge.sbatch}, DIR/COMMAND, creates DIR/slurm/logs, then (unless
/// dry_run) cancels a replaced merge job, submits with `sbatch --parsable` and appends the job ids to
/// DIR/slurm/submissions.jsonl. Paths are made absolute first (the executable defaults to this process's; a bare
/// program name is kept, for the nodes' PATH). An
/// InputError (the CLI exits 2) when sbatch is not found (and not dry_run), when DIR holds another campaign or a
/// campaign run without --slurm, when --shards differs from the previous submission's or exceeds the number of
/// runs, on a bad setting (check_job_settings), when squeue cannot say whether earlier jobs are still queued, or
/// when sbatch refuses a script (its message is quoted).
SubmitOutcome submit_campaign(const Campaign& campaign, SlurmSubmitOptions options);

} // namespace pipesim

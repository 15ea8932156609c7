// How far a campaign is, from its output directory alone (and from SLURM's queue when it answers): rows done and
// expected per shard, failed rows, each array task's state, what to submit again (`pipesim campaign status DIR`).
#pragma once

#include "validation/campaigns/run_status.hpp"
#include "validation/campaigns/slurm_queue.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pipesim {

/// The rows of one results.jsonl, read without changing the file (a runner may be appending to it): run ids and
/// statuses only, so a file of a million rows is read in seconds. A torn last line is ignored.
struct ResultCounts {
  std::set<int> ids;        // distinct run ids
  std::set<int> failed_ids; // run ids whose last row failed
  int rows = 0;             // complete lines
  std::vector<int> doubled; // run ids seen more than once
};
/// Counts the rows of `path` that belong to shard `shard_index` (0-based) of `shard_count` (run id mod count equals
/// the index; all rows by default); an absent file gives no rows.
/// A malformed complete line is an InputError naming the file and line.
ResultCounts count_results(const std::string& path, int shard_index = 0, int shard_count = 1);

/// One `--slurm` submission, as recorded in DIR/slurm/submissions.jsonl (the date under "timing": {"submitted": ...};
/// from_json also reads the "time" of older files).
struct SlurmSubmission {
  std::string time;
  std::string command;
  std::vector<int> shards; // array task numbers = shard numbers
  long array_job = 0;      // 0: no array submitted (a merge job alone)
  long merge_job = 0;
  std::vector<long> depends_on;
  nlohmann::json to_json() const;
  static SlurmSubmission from_json(const nlohmann::json& j);
};

struct ShardStatus {
  int index    = 1; // 1-based, as --shard i/N
  int expected = 0;
  int done     = 0; // distinct runs with a row
  ResultCounts counts;
  std::optional<SlurmJob> job; // the latest array task of this shard, when SLURM still knows it
  std::string log_tail;        // the last non-empty line of DIR/slurm/logs/shard-<i>.out ("" without one)
  bool finished() const { return done >= expected; }
  bool queued() const { return job && in_queue(job->state); }
  /// Why its task will not start by itself (blocked_reason); "" when there is no such task.
  std::string blocked() const { return job ? blocked_reason(*job) : ""; }
};

/// The last non-empty line of the file `path` (reads at most its last 4 kB; "" when it is absent or empty).
std::string last_line(const std::string& path);

struct CampaignStatus {
  std::string dir;
  std::string name;
  std::string file;
  std::string hash;
  int total       = 0;
  int shard_count = 1;
  bool slurm      = false; // DIR/slurm/submission.json: shards in DIR/shards/<i>
  std::vector<ShardStatus> shards;
  std::vector<SlurmSubmission> submissions;
  int merged_runs = 0;               // distinct runs in DIR/results.jsonl (SLURM layout: the merge job's output)
  bool report     = false;           // DIR/report.html exists
  std::optional<SlurmJob> merge_job; // the latest merge job, when SLURM still knows it
  std::string queue_note;            // why SLURM's states are missing ("" when squeue answered or was not asked)

  int done() const;
  int failed() const;
  bool merged() const { return merged_runs == total; }
  /// Shards with runs missing that no job in the queue is working on: what a new submission runs.
  std::vector<int> to_resubmit() const;
  /// The SLURM job ids to ask squeue about: each shard's latest array job, the latest merge job.
  std::vector<long> jobs_to_query() const;
};

/// Reads DIR: DIR/slurm/submission.json and DIR/shards/<i> (a `--slurm` campaign), or DIR/campaign.json (a campaign
/// run directly, or one shard of it). An InputError when DIR is neither, or when a shard holds another campaign.
CampaignStatus read_campaign_status(const std::string& dir);

/// Sets each shard's job and the merge job from squeue's answer about jobs_to_query().
void attach_jobs(CampaignStatus& status, const std::vector<SlurmJob>& jobs);

/// read_campaign_status, then SLURM's states when squeue answers (else queue_note says why).
CampaignStatus campaign_status(const std::string& dir, const SlurmTools& tools);

std::string status_table(const CampaignStatus& status);
nlohmann::json status_json(const CampaignStatus& status);

} // namespace pipesim

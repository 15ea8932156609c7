// The campaign runner: a pool of worker processes, results appended and flushed as runs finish, resume, shards,
// progress; and the merge of shard outputs (DESIGN.md §7).
#pragma once

#include "scenarios/campaign.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pipesim {

struct RunnerOptions {
  std::string out_dir;
  int jobs        = 0; // worker processes; 0 means the number of cores
  bool resume     = false;
  int shard_index = 0; // 0-based; the CLI's --shard i/N gives i - 1
  int shard_count = 1;
  std::vector<int> only;    // run just these ids (rerunning single rows)
  std::string command_line; // recorded in DIR/COMMAND and campaign.json
  bool quiet = false;       // no progress on stderr
  /// Rows one worker process evaluates one after the other; 0: the mode's (analytic_rows_per_worker in analytic
  /// mode, 1 in simulate and elections mode: a simulation needs a process of its own, a MILP may hang).
  int rows_per_worker = 0;
};

/// Analytic rows take a few milliseconds: a worker process evaluates this many, and their rows are written with one
/// sync per file (a fork and two fsyncs per row cost more than the row).
inline constexpr int analytic_rows_per_worker = 32;
/// ... or fewer: a worker starts no further row after this many seconds, so slow analytic rows (an exact mapper, a
/// long time limit) still reach the files and the progress line one by one.
inline constexpr double analytic_worker_seconds = 0.5;

struct RunnerSummary {
  int total    = 0; // runs of the campaign
  int selected = 0; // runs of this shard (or --only)
  int skipped  = 0; // already complete (--resume)
  int executed = 0;
  int failures = 0; // rows whose status is error, crashed or timeout
};

/// "i/N" as {i - 1, N}: two whole decimal numbers around one slash, 1 <= i <= N; nullopt for anything else ("1/2x",
/// "1/2.0", "1/2/3", "0/2"). The one reading of --shard and of campaign.json's "shard".
std::optional<std::pair<int, int>> parse_shard_spec(const std::string& text);

/// Runs the campaign into options.out_dir: campaign.json, COMMAND, results.jsonl, results.csv and trace-<id>.json.
/// Every finished worker's rows are appended to both result files and flushed to disk (one fsync per file and worker)
/// before progress counts them, so a kill loses no row reported done; when the shard is complete the files are
/// rewritten sorted by run id. A worker of several rows has run_time_limit per row in all; when it crashes, throws or
/// runs out of time, its rows are run again one per process; the rows it did not start (analytic_worker_seconds) go
/// to the next round of workers. A worker of one row that crashes or exceeds
/// run_time_limit gives a row with status "crashed" or "timeout". Without --resume a directory that already holds
/// results is an InputError.
RunnerSummary run_campaign(const Campaign& campaign, const RunnerOptions& options);

/// Joins the outputs of shards (or partial runs) of one campaign into `out_dir`; an InputError when the directories
/// hold different campaigns, when a run appears twice, or when runs are missing (the message lists them).
void merge_campaign_outputs(const std::vector<std::string>& dirs, const std::string& out_dir);

} // namespace pipesim

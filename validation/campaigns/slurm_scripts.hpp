// The batch scripts of a campaign run on SLURM: a job array with one task per shard, and the merge job.
#pragma once

#include <string>
#include <vector>

namespace pipesim {

/// What the two scripts hold. Paths are absolute: the jobs run on other machines, from other directories.
struct SlurmJobSettings {
  std::string executable;    // pipesim as the nodes reach it
  std::string campaign_file; // the campaign YAML file
  std::string out_dir;       // DIR: shards in DIR/shards/<i>, merged results in DIR itself
  std::string campaign_name;
  int shard_count   = 1;
  int cpus_per_task = 1;                // also the task's --jobs
  std::string partition;                // empty: the cluster's default partition
  std::string time;                     // empty: the partition's default time limit
  std::string merge_mem;                // memory of the merge job (--mem), e.g. "16G"; empty: the default
  std::vector<std::string> sbatch_args; // extra "#SBATCH" options of both scripts (--account=..., --mem=...)
  std::vector<std::string> setup;       // shell lines run before pipesim in both scripts (module load ...)
};

/// Refuses (InputError naming the option and value) what the scripts could not hold: a shard count or CPU count
/// below 1, a time limit SLURM does not read (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, UNLIMITED), a
/// memory size that is not a number with an optional K, M, G or T suffix,
/// a partition or an sbatch argument with white space or a newline, an sbatch argument that is not an option, the
/// array or dependency options (pipesim sets them), paths SLURM's --output cannot hold (white space, '%').
void check_job_settings(const SlurmJobSettings& settings);

/// "1-3,5,7-8": SLURM's --array list of the (sorted, distinct) shard numbers.
std::string array_spec(const std::vector<int>& shards);

/// A word for the shell: single-quoted unless it is made of safe characters only.
std::string shell_quote(const std::string& word);

/// DIR/slurm/array.sbatch: the job array, task i running
/// `pipesim campaign FILE --out DIR/shards/i --shard i/N --resume --jobs C`, requeue allowed, log appended to
/// DIR/slurm/logs/shard-<i>.out (a requeued or resubmitted task resumes its shard and its log).
std::string array_script(const SlurmJobSettings& settings, const std::vector<int>& shards);

/// DIR/slurm/merge.sbatch (submitted with --dependency=afterany on the array): merges DIR/shards/* into DIR as
/// `pipesim merge` does, writes the report, and prints `pipesim campaign status DIR` (failed and missing shards).
/// It exits with merge's or report's exit code, so an incomplete campaign shows as a failed merge job.
std::string merge_script(const SlurmJobSettings& settings);

} // namespace pipesim

// What a directory already holds, from the files pipesim's commands write there, and the one rule every command that
// writes into a directory follows: never into one that holds another campaign or another command's output.
#pragma once

#include "base/enum_names.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// The pipesim output a directory holds, by the file that marks it.
enum class DirectoryKind {
  none,           // none of the files below (absent, empty, or other files only)
  campaign,       // campaign.json: `pipesim campaign` (one shard, all of it) or `pipesim merge`
  slurm_campaign, // slurm/submission.json: `pipesim campaign --slurm` (shards in shards/<i>, merged beside them)
  pareto,         // pareto.json: `pipesim pareto --out`
  whatif          // whatif.json: `pipesim whatif --out`
};
PIPESIM_ENUM_NAMES(DirectoryKind, {none, "none"}, {campaign, "campaign"}, {slurm_campaign, "slurm-campaign"},
                   {pareto, "pareto"}, {whatif, "whatif"});

struct DirectoryContent {
  std::string dir;
  DirectoryKind kind = DirectoryKind::none;
  std::string name;  // a campaign's name
  std::string file;  // its campaign file
  std::string hash;  // its hash (Campaign::hash)
  std::string shard; // campaign.json's "i/N" or "merged"; "" for the other kinds
  /// What it holds, for a message: "campaign 'c' (file c.yaml, shard 1/2)", "the output of `pipesim pareto`
  /// (pareto.json)".
  std::string describe() const;
};

/// Reads what `dir` holds. A marker file that is not a JSON object is an InputError naming it.
DirectoryContent directory_content(const std::string& dir);

/// What a command is about to write, for require_output_directory.
struct OutputRequest {
  std::string option{};                       // how the user named the directory: "--out", "report DIR", ...
  std::string command{};                      // the command, for the message: "pipesim merge"
  DirectoryKind writes = DirectoryKind::none; // the kind of output it writes (its own earlier output may be replaced)
  std::string hash{};                         // campaign and merge: the campaign's hash (another campaign is refused)
  std::string shard{};                        // campaign: "i/N" of this run; merge: "merged"
  std::vector<std::string> inputs{};          // merge: the directories it reads (never its output)
};

/// An InputError (exit 2) naming the directory and what it holds unless `dir` may receive the output described by
/// `request`: `dir` holds nothing (DirectoryKind::none), or the same kind for the same campaign and shard (a run
/// resumed, a merge made again, a study written again); `merge` may also write into the `--slurm` directory of its
/// campaign. No output may lie inside a directory that holds a campaign (a new folder changes it too), except a
/// shard of a `--slurm` campaign in its shards/<i>, nor be one of the inputs or hold one.
void require_output_directory(const std::string& dir, const OutputRequest& request);

/// For a command that writes one file (`fit --out FILE`, `platform export -o FILE`): an InputError unless `file` is
/// not a directory and the directory it goes in holds no pipesim output (directory_content) and lies in no campaign.
void require_output_file(const std::string& file, const std::string& option);

} // namespace pipesim

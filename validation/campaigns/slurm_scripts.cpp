// The batch scripts of a campaign run on SLURM.
#include "validation/campaigns/slurm_scripts.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <regex>

namespace pipesim {

namespace {

bool has_space(const std::string& text) { return text.find_first_of(" \t\r\n") != std::string::npos; }

/// Whether an sbatch argument gives `option` ("-a5" for a short one, "--array" or "--array=..." for a long one).
bool sets_option(const std::string& arg, const std::string& option)
{
  if (option.size() == 2) return arg.starts_with(option);
  return arg == option || arg.starts_with(option + "=");
}

/// A job name SLURM and a shell both take as it is.
std::string job_name(const std::string& campaign)
{
  std::string name = "pipesim-";
  for (char c : campaign)
    name += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  return name;
}

/// The #SBATCH lines both scripts share (after the job's own name, array and output).
std::string common_options(const SlurmJobSettings& s)
{
  std::string lines;
  if (!s.partition.empty()) lines += fmt::format("#SBATCH --partition={}\n", s.partition);
  if (!s.time.empty()) lines += fmt::format("#SBATCH --time={}\n", s.time);
  lines += fmt::format("#SBATCH --chdir={}\n", s.out_dir);
  for (const auto& arg : s.sbatch_args)
    lines += fmt::format("#SBATCH {}\n", arg);
  return lines;
}

std::string setup_lines(const SlurmJobSettings& s)
{
  std::string lines;
  for (const auto& line : s.setup)
    lines += line + "\n";
  return lines;
}

} // namespace

void check_job_settings(const SlurmJobSettings& s)
{
  if (s.shard_count < 1) throw InputError::option("--shards", s.shard_count, "expected at least 1");
  if (s.cpus_per_task < 1) throw InputError::option("--cpus-per-task", s.cpus_per_task, "expected at least 1");
  static const std::regex time_format(R"(\d+|\d+:\d+|\d+:\d+:\d+|\d+-\d+|\d+-\d+:\d+|\d+-\d+:\d+:\d+)");
  std::string upper = s.time;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  if (!s.time.empty() && !std::regex_match(s.time, time_format) && upper != "UNLIMITED" && upper != "INFINITE")
    throw InputError::option("--time", s.time,
                             "expected a SLURM time limit: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or "
                             "UNLIMITED");
  static const std::regex memory_format(R"(\d+[KMGT]?)");
  if (!s.merge_mem.empty() && !std::regex_match(s.merge_mem, memory_format))
    throw InputError::option("--merge-mem", s.merge_mem,
                             "expected a size in megabytes or with a unit, e.g. 16G or 2000M");
  if (has_space(s.partition))
    throw InputError::option("--partition", fmt::format("'{}'", s.partition), "expected a partition name");
  for (const auto& arg : s.sbatch_args) {
    if (arg.empty() || arg[0] != '-' || has_space(arg))
      throw InputError::option("--sbatch-arg", fmt::format("'{}'", arg),
                               "expected one sbatch option without spaces, e.g. --sbatch-arg=--account=proj42");
    for (std::string own : {"--array", "-a", "--dependency", "-d", "--output", "-o", "--open-mode", "--chdir", "-D"})
      if (sets_option(arg, own))
        throw InputError::option("--sbatch-arg", fmt::format("'{}'", arg), fmt::format("pipesim sets {} itself", own));
  }
  for (const auto& line : s.setup)
    if (line.find('\n') != std::string::npos)
      throw InputError::option("--setup", fmt::format("'{}'", line), "expected one shell line");
  for (auto [path, option] : {std::pair{&s.out_dir, "--out"}, std::pair{&s.executable, "pipesim (the executable)"},
                              std::pair{&s.campaign_file, "campaign"}})
    if (has_space(*path) || path->find('%') != std::string::npos)
      throw InputError::option(option, fmt::format("'{}'", *path),
                               "a path with white space or '%' cannot go into #SBATCH lines; use another directory");
}

std::string array_spec(const std::vector<int>& shards)
{
  std::vector<int> sorted = shards;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::string spec;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1)
      ++j;
    spec +=
        (spec.empty() ? "" : ",") + (j == i ? std::to_string(sorted[i]) : fmt::format("{}-{}", sorted[i], sorted[j]));
    i = j + 1;
  }
  return spec;
}

std::string shell_quote(const std::string& word)
{
  bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) {
    return std::isalnum(c) || std::string_view("/._-+=:,@").find(static_cast<char>(c)) != std::string_view::npos;
  });
  if (safe) return word;
  std::string quoted = "'";
  for (char c : word)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string array_script(const SlurmJobSettings& s, const std::vector<int>& shards)
{
  std::string text = fmt::format("#!/bin/bash\n"
                                 "# Campaign '{0}' on SLURM, written by `pipesim campaign --slurm`: array task i runs "
                                 "shard i of {1}\n"
                                 "# into {2}/shards/i and resumes it when the task is requeued or submitted again.\n"
                                 "#SBATCH --job-name={3}\n"
                                 "#SBATCH --array={4}\n"
                                 "#SBATCH --ntasks=1\n"
                                 "#SBATCH --cpus-per-task={5}\n"
                                 "#SBATCH --requeue\n"
                                 "#SBATCH --open-mode=append\n"
                                 "#SBATCH --output={2}/slurm/logs/shard-%a.out\n",
                                 s.campaign_name, s.shard_count, s.out_dir, job_name(s.campaign_name),
                                 array_spec(shards), s.cpus_per_task);
  text += common_options(s) + setup_lines(s);
  text += fmt::format("shard=\"${{SLURM_ARRAY_TASK_ID:?not run as a SLURM array task}}\"\n"
                      "echo \"pipesim: shard $shard/{0}, job ${{SLURM_JOB_ID:-}}, restart "
                      "${{SLURM_RESTART_COUNT:-0}}, $(date)\"\n"
                      "exec {1} campaign {2} --out {3}/shards/\"$shard\" --shard \"$shard\"/{0} --resume --jobs {4}\n",
                      s.shard_count, shell_quote(s.executable), shell_quote(s.campaign_file), shell_quote(s.out_dir),
                      s.cpus_per_task);
  return text;
}

std::string merge_script(const SlurmJobSettings& s)
{
  std::string text = fmt::format("#!/bin/bash\n"
                                 "# Campaign '{0}' on SLURM, written by `pipesim campaign --slurm`: once the array "
                                 "has ended (afterany),\n"
                                 "# merge its shards into {1}, write the report and list failed or missing shards.\n"
                                 "#SBATCH --job-name={2}-merge\n"
                                 "#SBATCH --ntasks=1\n"
                                 "#SBATCH --cpus-per-task=1\n"
                                 "#SBATCH --output={1}/slurm/logs/merge-%j.out\n",
                                 s.campaign_name, s.out_dir, job_name(s.campaign_name));
  if (!s.merge_mem.empty()) text += fmt::format("#SBATCH --mem={}\n", s.merge_mem);
  text += common_options(s) + setup_lines(s);
  std::string exe = shell_quote(s.executable);
  std::string dir = shell_quote(s.out_dir);
  text += fmt::format("status=0\n"
                      "{0} merge {1}/shards/* --out {1} || status=$?\n"
                      "if [ \"$status\" -eq 0 ]; then {0} report {1} || status=$?; fi\n"
                      "{0} campaign status {1} || true\n"
                      "exit \"$status\"\n",
                      exe, dir);
  return text;
}

} // namespace pipesim

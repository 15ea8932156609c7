// `pipesim campaign --slurm`: the submission plan, the scripts and the sbatch calls.
#include "validation/campaigns/slurm_submit.hpp"

#include "base/input_error.hpp"
#include "validation/campaigns/output_directory.hpp"
#include "validation/campaigns/result_files.hpp"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <set>

namespace pipesim {

namespace fs = std::filesystem;

namespace {

std::string now_text()
{
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm local{};
  localtime_r(&t, &local);
  char buffer[64];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S%z", &local);
  return buffer;
}

std::string absolute(const std::string& path) { return fs::weakly_canonical(fs::absolute(path)).string(); }

std::string ids_text(const std::vector<long>& ids, const char* separator)
{
  std::string text;
  for (long id : ids)
    text += (text.empty() ? "" : separator) + std::to_string(id);
  return text;
}

/// Checks DIR against the campaign and returns the shard count to use; writes DIR/slurm/submission.json the first
/// time.
int settle_directory(const Campaign& c, const SlurmJobSettings& job, int requested)
{
  const std::string& dir = job.out_dir;
  OutputRequest request{.option  = "--out",
                        .command = "pipesim campaign --slurm",
                        .writes  = DirectoryKind::slurm_campaign,
                        .hash    = c.hash()};
  std::string meta_path = dir + "/slurm/submission.json";
  int total             = static_cast<int>(c.runs.size());
  if (fs::exists(meta_path)) {
    nlohmann::json meta;
    try {
      std::ifstream(meta_path) >> meta;
    } catch (const nlohmann::json::exception& e) {
      throw InputError::in_file(meta_path, 0, fmt::format("malformed: {}", e.what()));
    }
    if (meta.value("hash", "") != c.hash())
      throw InputError::option("--out", dir,
                               fmt::format("holds campaign '{}' ({}), not '{}' of {} (or the file changed since it "
                                           "was submitted); choose another --out",
                                           meta.value("name", "?"), meta.value("file", "?"), c.name, c.file));
    int previous = meta.value("shards", 0);
    if (requested > 0 && requested != previous)
      throw InputError::option("--shards", requested,
                               fmt::format("{} was submitted with --shards {}; give the same number (or none) to "
                                           "re-submit its unfinished shards, or choose another --out",
                                           dir, previous));
    require_output_directory(dir, request); // not inside another campaign
    return previous;
  }
  if (fs::exists(dir + "/campaign.json") || fs::exists(dir + "/results.jsonl"))
    throw InputError::option("--out", dir, "holds the results of a campaign run without --slurm; choose another --out");
  require_output_directory(dir, request); // no other command's output, not inside another campaign
  int shards = requested > 0 ? requested : default_shard_count(total);
  if (shards > total)
    throw InputError::option("--shards", shards,
                             fmt::format("the campaign has {} runs; at most one shard per run", total));
  fs::create_directories(dir + "/slurm");
  nlohmann::json meta = {{"name", c.name},
                         {"file", job.campaign_file},
                         {"hash", c.hash()},
                         {"total", total},
                         {"shards", shards},
                         {"mode", to_string(c.mode)},
                         {"executable", job.executable}};
  write_file_atomically(meta_path, meta.dump(2) + "\n");
  return shards;
}

void write_command_file(const SlurmSubmitOptions& o)
{
  write_file_atomically(
      o.job.out_dir + "/COMMAND",
      fmt::format("# the command that handed this campaign to SLURM; run it again to re-submit the unfinished shards\n"
                  "cd {} && {}\n"
                  "# progress, failed and missing shards, SLURM's states\n"
                  "{} campaign status {}\n"
                  "# the batch scripts: {}/slurm/array.sbatch (one task per shard) and {}/slurm/merge.sbatch\n",
                  shell_quote(o.working_dir), o.command_line, shell_quote(o.job.executable), shell_quote(o.job.out_dir),
                  o.job.out_dir, o.job.out_dir));
}

long sbatch(const SlurmTools& tools, std::vector<std::string> args, const std::string& script)
{
  args.insert(args.begin(), {tools.sbatch, "--parsable"});
  args.push_back(script);
  ProgramResult r = run_slurm_tool(tools, args);
  long id         = r.ok() ? parse_job_id(r.out) : 0;
  if (id > 0) return id;
  std::string why = r.status == ProgramStatus::timed_out ? fmt::format("no answer within {} s", tools.timeout) : r.out;
  while (!why.empty() && why.back() == '\n')
    why.pop_back();
  throw InputError::in_file(script, 0, fmt::format("sbatch refused this script: {}", why));
}

void append_submission(const std::string& dir, const SlurmSubmission& s)
{
  DurableAppender(dir + "/slurm/submissions.jsonl").append(s.to_json().dump());
}

/// Submits the plan's array and merge job; records them even when the second sbatch fails.
SlurmSubmission submit(const SlurmSubmitOptions& o, const SubmissionPlan& plan)
{
  const std::string& dir = o.job.out_dir;
  for (long id : plan.cancel)
    run_slurm_tool(o.tools, {o.tools.scancel, std::to_string(id)});
  SlurmSubmission s;
  s.time       = now_text();
  s.command    = o.command_line;
  s.shards     = plan.shards;
  s.depends_on = plan.depends_on;
  if (!plan.shards.empty()) s.array_job = sbatch(o.tools, {}, dir + "/slurm/array.sbatch");
  if (!plan.merge) {
    append_submission(dir, s);
    return s;
  }
  std::vector<long> after = plan.depends_on;
  if (s.array_job > 0) after.insert(after.begin(), s.array_job);
  std::vector<std::string> args;
  if (!after.empty()) args.push_back("--dependency=afterany:" + ids_text(after, ":"));
  try {
    s.merge_job = sbatch(o.tools, args, dir + "/slurm/merge.sbatch");
  } catch (...) {
    append_submission(dir, s);
    throw;
  }
  append_submission(dir, s);
  return s;
}

std::string outcome_message(const SlurmSubmitOptions& o, const CampaignStatus& status, const SubmitOutcome& out)
{
  const SubmissionPlan& p = out.plan;
  std::string msg         = fmt::format("{}\n", p.reason);
  if (!status.queue_note.empty())
    msg += fmt::format("(squeue did not answer: {}; the plan assumes no earlier job is queued)\n", status.queue_note);
  auto job = [&](long id) { return o.dry_run ? std::string("job") : fmt::format("job {}", id); };
  if (!p.shards.empty())
    msg += fmt::format("{} array {}: shards {} of {}, {} CPU{} each -> {}/shards/<i>\n",
                       o.dry_run ? "would submit" : "submitted", job(out.submission.array_job), array_spec(p.shards),
                       status.shard_count, o.job.cpus_per_task, o.job.cpus_per_task == 1 ? "" : "s", o.job.out_dir);
  if (p.merge) {
    std::vector<std::string> after;
    if (!p.shards.empty()) after.push_back(o.dry_run ? "the array" : std::to_string(out.submission.array_job));
    for (long id : p.depends_on)
      after.push_back(std::to_string(id));
    msg += fmt::format("{} merge {}{} -> {}/results.csv, {}/report.html\n", o.dry_run ? "would submit" : "submitted",
                       job(out.submission.merge_job),
                       after.empty() ? "" : fmt::format(" (afterany: {})", fmt::join(after, ", ")), o.job.out_dir,
                       o.job.out_dir);
  }
  for (long id : p.cancel)
    msg += fmt::format("{} the earlier merge job {} (replaced)\n", o.dry_run ? "would cancel" : "cancelled", id);
  msg += fmt::format("scripts: {0}/slurm/array.sbatch, {0}/slurm/merge.sbatch; progress: pipesim campaign status {0}\n",
                     o.job.out_dir);
  return msg;
}

} // namespace

int default_shard_count(int total) { return std::max(1, (total + 999) / 1000); }

SubmissionPlan plan_submission(const CampaignStatus& status)
{
  SubmissionPlan plan;
  std::set<long> queued;
  std::vector<int> queued_shards;
  for (const auto& shard : status.shards)
    if (!shard.finished() && shard.queued()) {
      queued.insert(shard.job->array_job_id);
      queued_shards.push_back(shard.index);
    }
  const auto& merge  = status.merge_job;
  bool merge_queued  = merge && in_queue(merge->state);
  bool merge_pending = merge_queued && merge->state == SlurmState::pending;
  plan.shards        = status.to_resubmit();
  if (!plan.shards.empty()) {
    plan.merge      = true;
    plan.depends_on = {queued.begin(), queued.end()};
    if (merge_pending) plan.cancel.push_back(merge->job_id);
    plan.reason = fmt::format("{} of {} runs done; shard{} {} to run", status.done(), status.total,
                              plan.shards.size() == 1 ? "" : "s", array_spec(plan.shards));
  } else if (!queued.empty()) {
    plan.merge      = !merge_queued;
    plan.depends_on = plan.merge ? std::vector<long>(queued.begin(), queued.end()) : std::vector<long>{};
    plan.reason     = fmt::format(
            "shard{} {} still queued or running; {}", queued_shards.size() == 1 ? "" : "s", array_spec(queued_shards),
        merge_queued ? fmt::format("merge job {} waits for them: nothing to submit", merge->job_id)
                         : "no merge job waits for them: a new one");
  } else if (status.merged() && status.report) {
    plan.reason = fmt::format("campaign complete ({} runs merged, report written): nothing to submit", status.total);
  } else if (merge_queued) {
    plan.reason = fmt::format("every shard is done; merge job {} is {}: nothing to submit", merge->job_id,
                              to_string(merge->state));
  } else {
    plan.merge  = true;
    plan.reason = "every shard is done; the merge job alone to run";
  }
  return plan;
}

SubmitOutcome submit_campaign(const Campaign& campaign, SlurmSubmitOptions o)
{
  o.job.out_dir       = absolute(o.job.out_dir);
  o.job.campaign_file = absolute(o.job.campaign_file);
  if (o.job.executable.empty()) o.job.executable = fs::read_symlink("/proc/self/exe").string();
  if (o.job.executable.find('/') != std::string::npos) // a bare name is looked up in the nodes' PATH
    o.job.executable = absolute(o.job.executable);
  o.job.campaign_name = campaign.name;
  if (o.working_dir.empty()) o.working_dir = fs::current_path().string();
  int requested     = o.job.shard_count;
  o.job.shard_count = std::max(1, requested);
  check_job_settings(o.job);
  if (!o.dry_run && find_program(o.tools.sbatch).empty())
    throw InputError::option("--slurm", fmt::format("{} not found in PATH (is this a SLURM login node? `module load "
                                                    "slurm`?); --dry-run writes the batch scripts without submitting "
                                                    "them",
                                                    o.tools.sbatch));
  o.job.shard_count = settle_directory(campaign, o.job, requested);
  fs::create_directories(o.job.out_dir + "/slurm/logs");

  CampaignStatus status = campaign_status(o.job.out_dir, o.tools);
  if (!status.queue_note.empty() && !o.dry_run)
    throw InputError::option("--out", o.job.out_dir,
                             fmt::format("cannot tell whether the jobs of the earlier submission are still queued "
                                         "({}); nothing submitted",
                                         status.queue_note));
  SubmitOutcome out;
  out.plan = plan_submission(status);
  if (!out.plan.shards.empty())
    write_file_atomically(o.job.out_dir + "/slurm/array.sbatch", array_script(o.job, out.plan.shards));
  write_file_atomically(o.job.out_dir + "/slurm/merge.sbatch", merge_script(o.job));
  write_command_file(o);
  if (!o.dry_run && (out.plan.merge || !out.plan.shards.empty())) out.submission = submit(o, out.plan);
  out.message = outcome_message(o, status, out);
  return out;
}

} // namespace pipesim

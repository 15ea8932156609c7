// `pipesim campaign status DIR` as a table and as JSON.
#include "validation/campaigns/campaign_status.hpp"
#include "validation/campaigns/slurm_scripts.hpp"

#include <fmt/format.h>

namespace pipesim {

namespace {

std::string id_list(const std::set<int>& ids, std::size_t limit)
{
  std::string text;
  std::size_t n = 0;
  for (int id : ids) {
    if (n++ == limit) return text + fmt::format(", ... ({} in all)", ids.size());
    text += (text.empty() ? "" : ", ") + std::to_string(id);
  }
  return text;
}

/// "STATE (job)", and SLURM's reason when it gives one.
std::string job_text(const std::optional<SlurmJob>& job)
{
  if (!job) return "-";
  std::string text = fmt::format("{} ({})", to_string(job->state), job->name());
  return job->reason.empty() || job->reason == "None" ? text : text + ": " + job->reason;
}

/// Why unfinished shards do not run: tasks SLURM will not start by itself, and the last line of each log of a
/// shard whose task is not running (where a task that failed or could not start says why).
std::string why_not_running(const CampaignStatus& s)
{
  std::string out;
  for (const auto& shard : s.shards) {
    if (shard.finished()) continue;
    if (auto why = shard.blocked(); !why.empty())
      out += fmt::format("blocked    shard {} ({}): {}: SLURM will not start it until someone acts\n", shard.index,
                         shard.job->name(), why);
    bool running = shard.job && (shard.job->state == SlurmState::running || shard.job->state == SlurmState::completing);
    if (!running && !shard.log_tail.empty())
      out += fmt::format("log        shard {}: {}/slurm/logs/shard-{}.out ends with: {}\n", shard.index, s.dir,
                         shard.index, shard.log_tail);
  }
  if (s.merge_job)
    if (auto why = blocked_reason(*s.merge_job); !why.empty())
      out += fmt::format("blocked    merge job {}: {}: SLURM will not start it until someone acts\n",
                         s.merge_job->name(), why);
  return out;
}

} // namespace

std::string status_table(const CampaignStatus& s)
{
  std::string out =
      fmt::format("campaign   {} ({})\ndirectory  {}\nruns       {} of {} done, {} failed, in {} "
                  "shard{}\n",
                  s.name, s.file, s.dir, s.done(), s.total, s.failed(), s.shard_count, s.shard_count == 1 ? "" : "s");
  if (!s.submissions.empty()) {
    const auto& last = s.submissions.back();
    out += fmt::format("slurm      {} submission{}; last: array job {} (shards {}), merge job {} {}\n",
                       s.submissions.size(), s.submissions.size() == 1 ? "" : "s",
                       last.array_job > 0 ? std::to_string(last.array_job) : "-",
                       last.shards.empty() ? "-" : array_spec(last.shards), last.merge_job,
                       s.merge_job ? to_string(s.merge_job->state) : "");
  }
  if (!s.queue_note.empty()) out += fmt::format("           SLURM's states unknown: {}\n", s.queue_note);
  out += fmt::format("\n  {:>5}  {:>8}  {:>8}  {:>8}  {}\n", "shard", "done", "expected", "failed", "slurm");
  int hidden = 0;
  for (const auto& shard : s.shards) {
    bool plain = shard.finished() && shard.counts.failed_ids.empty() && !shard.queued();
    if (s.shards.size() > 40 && plain) {
      ++hidden;
      continue;
    }
    out += fmt::format("  {:>5}  {:>8}  {:>8}  {:>8}  {}\n", shard.index, shard.done, shard.expected,
                       shard.counts.failed_ids.size(), job_text(shard.job));
  }
  if (hidden > 0) out += fmt::format("  ({} finished shards without failures not shown)\n", hidden);
  out += fmt::format("  {:>5}  {:>8}  {:>8}  {:>8}\n\n", "total", s.done(), s.total, s.failed());
  if (s.slurm)
    out +=
        fmt::format("merged     {}\nreport     {}\n",
                    s.merged() ? fmt::format("yes: {}/results.csv", s.dir)
                               : fmt::format("no: {}/results.jsonl holds {} of {} runs", s.dir, s.merged_runs, s.total),
                    s.report ? s.dir + "/report.html" : "no");
  out += why_not_running(s);
  for (const auto& shard : s.shards) {
    if (!shard.counts.doubled.empty())
      out += fmt::format("doubled    shard {}: runs {} appear twice; merge refuses them\n", shard.index,
                         id_list({shard.counts.doubled.begin(), shard.counts.doubled.end()}, 10));
    if (!shard.counts.failed_ids.empty())
      out += fmt::format("failed     shard {}: {} runs ({})\n", shard.index, shard.counts.failed_ids.size(),
                         id_list(shard.counts.failed_ids, 10));
  }
  if (s.failed() > 0)
    out += fmt::format("           their rows say why (status, error); rerun one alone with\n"
                       "           pipesim campaign {} --only ID --out ANOTHER_DIR\n",
                       s.file);
  auto again = s.to_resubmit();
  if (!again.empty())
    out +=
        fmt::format("re-submit  shard{} {}: run the same `pipesim campaign ... --slurm` command again ({}/COMMAND)\n",
                    again.size() == 1 ? "" : "s", id_list({again.begin(), again.end()}, 20), s.dir);
  return out;
}

nlohmann::json status_json(const CampaignStatus& s)
{
  nlohmann::json shards = nlohmann::json::array();
  for (const auto& shard : s.shards) {
    nlohmann::json j = {{"shard", shard.index},
                        {"done", shard.done},
                        {"expected", shard.expected},
                        {"failed", shard.counts.failed_ids.size()},
                        {"failed_ids", shard.counts.failed_ids},
                        {"doubled", shard.counts.doubled}};
    if (shard.job)
      j["slurm"] = {{"job", shard.job->name()},
                    {"state", to_string(shard.job->state)},
                    {"reason", shard.job->reason},
                    {"blocked", shard.blocked()}};
    if (!shard.log_tail.empty()) j["log_tail"] = shard.log_tail;
    shards.push_back(j);
  }
  nlohmann::json j = {{"campaign", s.name},
                      {"file", s.file},
                      {"dir", s.dir},
                      {"total", s.total},
                      {"done", s.done()},
                      {"failed", s.failed()},
                      {"shards", shards},
                      {"slurm", s.slurm},
                      {"merged_runs", s.merged_runs},
                      {"merged", s.merged()},
                      {"report", s.report},
                      {"resubmit", s.to_resubmit()},
                      {"submissions", s.submissions.size()}};
  if (s.merge_job)
    j["merge_job"] = {{"job", s.merge_job->name()},
                      {"state", to_string(s.merge_job->state)},
                      {"reason", s.merge_job->reason},
                      {"blocked", blocked_reason(*s.merge_job)}};
  if (!s.queue_note.empty()) j["queue_note"] = s.queue_note;
  return j;
}

} // namespace pipesim

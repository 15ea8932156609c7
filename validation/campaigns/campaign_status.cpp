// A campaign's progress from its output directory, and from SLURM's queue when it answers.
#include "validation/campaigns/campaign_status.hpp"

#include "base/input_error.hpp"
#include "validation/campaigns/campaign_row.hpp"
#include "validation/campaigns/campaign_runner.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <utility>

namespace pipesim {

namespace fs = std::filesystem;

namespace {

/// SAX reader of one row: keeps the top-level run_id and status, builds nothing else.
struct RowFields : nlohmann::json::json_sax_t {
  int depth = 0;
  std::string current_key;
  std::optional<long long> run_id;
  std::string status;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t v) override { return integer(v); }
  bool number_unsigned(number_unsigned_t v) override { return integer(static_cast<long long>(v)); }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t& v) override
  {
    if (depth == 1 && current_key == to_string(RowColumn::status)) status = v;
    return true;
  }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return ++depth, true; }
  bool end_object() override { return --depth, true; }
  bool start_array(std::size_t) override { return ++depth, true; }
  bool end_array() override { return --depth, true; }
  bool key(string_t& k) override
  {
    if (depth == 1) current_key = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
  bool integer(long long v)
  {
    if (depth == 1 && current_key == to_string(RowColumn::run_id)) run_id = v;
    return true;
  }
};

nlohmann::json read_json_file(const std::string& path)
{
  std::ifstream in(path);
  if (!in) throw InputError::in_file(path, 0, "cannot read");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError::in_file(path, 0, fmt::format("malformed: {}", e.what()));
  }
}

/// Runs i with i mod N == index among 0..total-1.
int shard_size(int total, int index, int count) { return total / count + (index < total % count ? 1 : 0); }

ShardStatus shard_status(const std::string& dir, const std::string& hash, int total, int index, int count)
{
  if (fs::exists(dir + "/campaign.json")) {
    auto meta = read_json_file(dir + "/campaign.json");
    if (meta.value("hash", "") != hash)
      throw InputError::in_file(
          dir, 0, fmt::format("holds another campaign (hash {}, expected {})", meta.value("hash", "?"), hash));
  }
  ShardStatus s;
  s.index    = index + 1;
  s.expected = shard_size(total, index, count);
  s.counts   = count_results(dir + "/results.jsonl", index, count);
  s.done     = static_cast<int>(s.counts.ids.size());
  return s;
}

std::vector<SlurmSubmission> read_submissions(const std::string& path)
{
  std::vector<SlurmSubmission> list;
  std::ifstream in(path);
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.empty()) continue;
    try {
      list.push_back(SlurmSubmission::from_json(nlohmann::json::parse(line)));
    } catch (const nlohmann::json::exception& e) {
      throw InputError::in_file(path, line_number, fmt::format("malformed: {}", e.what()));
    }
  }
  return list;
}

/// Status of a `--slurm` directory (DIR/slurm/submission.json).
CampaignStatus read_slurm_layout(const std::string& dir)
{
  auto meta = read_json_file(dir + "/slurm/submission.json");
  CampaignStatus s;
  s.dir         = dir;
  s.slurm       = true;
  s.name        = meta.value("name", "");
  s.file        = meta.value("file", "");
  s.hash        = meta.value("hash", "");
  s.total       = meta.value("total", 0);
  s.shard_count = meta.value("shards", 1);
  for (int i = 0; i < s.shard_count; ++i) {
    s.shards.push_back(shard_status(fmt::format("{}/shards/{}", dir, i + 1), s.hash, s.total, i, s.shard_count));
    s.shards.back().log_tail = last_line(fmt::format("{}/slurm/logs/shard-{}.out", dir, i + 1));
  }
  s.submissions = read_submissions(dir + "/slurm/submissions.jsonl");
  if (fs::exists(dir + "/campaign.json") && read_json_file(dir + "/campaign.json").value("hash", "") == s.hash)
    s.merged_runs = static_cast<int>(count_results(dir + "/results.jsonl").ids.size());
  s.report = fs::exists(dir + "/report.html");
  return s;
}

/// Status of a directory written by `pipesim campaign` itself (one shard, all of the campaign, or a merge).
CampaignStatus read_plain_layout(const std::string& dir)
{
  auto meta = read_json_file(dir + "/campaign.json");
  CampaignStatus s;
  s.dir             = dir;
  s.name            = meta.value("name", "");
  s.file            = meta.value("file", "");
  s.hash            = meta.value("hash", "");
  s.total           = meta.value("total", 0);
  std::string shard = meta.value("shard", "1/1");
  auto spec         = shard == "merged" ? std::pair{0, 1} : parse_shard_spec(shard);
  if (!spec)
    throw InputError::at(dir + "/campaign.json", 0, "shard", shard,
                         "expected i/N (two whole numbers, 1 <= i <= N) or merged");
  auto [index, count] = *spec;
  ShardStatus part    = shard_status(dir, s.hash, s.total, index, count);
  s.shard_count       = count;
  s.merged_runs       = count == 1 ? part.done : 0;
  s.report            = fs::exists(dir + "/report.html");
  s.shards.push_back(std::move(part));
  return s;
}

} // namespace

std::string last_line(const std::string& path)
{
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  auto size            = static_cast<std::streamoff>(in.tellg());
  std::streamoff start = std::max<std::streamoff>(0, size - 4096);
  in.seekg(start);
  std::string tail(static_cast<std::size_t>(size - start), '\0');
  in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
  tail.resize(static_cast<std::size_t>(in.gcount()));
  for (char& c : tail) // a progress line on a terminal ends with carriage returns
    if (c == '\r') c = '\n';
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' '))
    tail.pop_back();
  auto newline = tail.rfind('\n');
  return newline == std::string::npos ? tail : tail.substr(newline + 1);
}

ResultCounts count_results(const std::string& path, int shard_index, int shard_count)
{
  ResultCounts counts;
  std::ifstream in(path, std::ios::binary);
  if (!in) return counts;
  int line_number = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++line_number;
    if (in.eof()) break; // a torn last line (no newline): a runner is writing it, or died writing it
    if (line.empty()) continue;
    RowFields row;
    if (!nlohmann::json::sax_parse(line, &row) || !row.run_id)
      throw InputError::in_file(path, line_number, "not a JSON result row");
    int id = static_cast<int>(*row.run_id);
    if (id % shard_count != shard_index) continue;
    ++counts.rows;
    if (!counts.ids.insert(id).second) counts.doubled.push_back(id);
    auto status = from_string<RunStatus>(row.status);
    if (status && is_failure(*status))
      counts.failed_ids.insert(id);
    else
      counts.failed_ids.erase(id);
  }
  return counts;
}

nlohmann::json SlurmSubmission::to_json() const
{
  return {{"timing", {{"submitted", time}}}, {"command", command},     {"shards", shards},
          {"array_job", array_job},          {"merge_job", merge_job}, {"depends_on", depends_on}};
}

SlurmSubmission SlurmSubmission::from_json(const nlohmann::json& j)
{
  SlurmSubmission s;
  auto timing  = j.find("timing"); // files written before the timing rule (docs/reports.md) have "time"
  s.time       = timing != j.end() && timing->is_object() ? timing->value("submitted", "") : j.value("time", "");
  s.command    = j.value("command", "");
  s.shards     = j.value("shards", std::vector<int>{});
  s.array_job  = j.value("array_job", 0L);
  s.merge_job  = j.value("merge_job", 0L);
  s.depends_on = j.value("depends_on", std::vector<long>{});
  return s;
}

int CampaignStatus::done() const
{
  int n = 0;
  for (const auto& s : shards)
    n += s.done;
  return n;
}

int CampaignStatus::failed() const
{
  int n = 0;
  for (const auto& s : shards)
    n += static_cast<int>(s.counts.failed_ids.size());
  return n;
}

std::vector<int> CampaignStatus::to_resubmit() const
{
  std::vector<int> list;
  for (const auto& s : shards)
    if (!s.finished() && !s.queued()) list.push_back(s.index);
  return list;
}

/// The array job that last ran each shard, and the last merge job.
std::vector<long> CampaignStatus::jobs_to_query() const
{
  std::set<long> ids;
  std::map<int, long> latest;
  for (const auto& sub : submissions)
    for (int shard : sub.shards)
      latest[shard] = sub.array_job;
  for (const auto& [shard, job] : latest)
    if (job > 0) ids.insert(job);
  if (!submissions.empty() && submissions.back().merge_job > 0) ids.insert(submissions.back().merge_job);
  return {ids.begin(), ids.end()};
}

CampaignStatus read_campaign_status(const std::string& dir)
{
  if (fs::exists(dir + "/slurm/submission.json")) return read_slurm_layout(dir);
  if (fs::exists(dir + "/campaign.json")) return read_plain_layout(dir);
  throw InputError::in_file(dir, 0, "not a campaign directory (neither slurm/submission.json nor campaign.json)");
}

void attach_jobs(CampaignStatus& status, const std::vector<SlurmJob>& jobs)
{
  std::map<int, long> latest; // shard -> array job
  for (const auto& sub : status.submissions)
    for (int shard : sub.shards)
      latest[shard] = sub.array_job;
  for (auto& shard : status.shards) {
    shard.job.reset();
    auto it = latest.find(shard.index);
    if (it == latest.end()) continue;
    for (const auto& job : jobs)
      if (job.array_job_id == it->second && job.array_task == shard.index) shard.job = job;
  }
  status.merge_job.reset();
  long merge = status.submissions.empty() ? 0 : status.submissions.back().merge_job;
  for (const auto& job : jobs)
    if (merge > 0 && job.job_id == merge) status.merge_job = job;
}

CampaignStatus campaign_status(const std::string& dir, const SlurmTools& tools)
{
  CampaignStatus status = read_campaign_status(dir);
  auto ids              = status.jobs_to_query();
  if (ids.empty()) return status;
  std::string error;
  if (auto jobs = query_jobs(tools, ids, error))
    attach_jobs(status, *jobs);
  else
    status.queue_note = error;
  return status;
}

} // namespace pipesim

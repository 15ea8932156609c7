// Campaign runner: worker processes, durable results, resume, shards, progress, merge.
#include "validation/campaigns/campaign_runner.hpp"

#include "base/input_error.hpp"
#include "base/progress.hpp"
#include "base/subprocess.hpp"
#include "validation/campaigns/campaign_row.hpp"
#include "validation/campaigns/output_directory.hpp"
#include "validation/campaigns/result_files.hpp"
#include "validation/campaigns/run_execution.hpp"
#include "validation/evaluation/run_checks.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <set>
#include <thread>

namespace pipesim {

namespace {

std::string results_path(const std::string& dir) { return dir + "/results.jsonl"; }

nlohmann::json campaign_json(const Campaign& c, const RunnerOptions& o)
{
  return {{"name", c.name},
          {"mode", to_string(c.mode)},
          {"file", c.file},
          {"hash", c.hash()},
          {"swept", c.swept},
          {"total", c.runs.size()},
          {"command", o.command_line},
          {"shard", fmt::format("{}/{}", o.shard_index + 1, o.shard_count)}};
}

/// Reads campaign.json of an output directory (InputError if absent or malformed).
nlohmann::json read_campaign_json(const std::string& dir)
{
  std::string path = dir + "/campaign.json";
  std::ifstream in(path);
  if (!in) throw InputError::in_file(dir, 0, "not a campaign output directory (no campaign.json)");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError::in_file(path, 0, fmt::format("malformed: {}", e.what()));
  }
}

/// Completed run ids of a previous (interrupted) run of the same campaign; checks it is the same campaign.
std::vector<CampaignRow> previous_rows(const Campaign& c, const RunnerOptions& o)
{
  auto rows = read_rows(results_path(o.out_dir));
  if (rows.empty()) return rows;
  if (!o.resume)
    throw InputError::option("--out", o.out_dir,
                             fmt::format("already holds {} results of a campaign; add --resume to continue it or "
                                         "choose another --out",
                                         rows.size()));
  auto meta = read_campaign_json(o.out_dir);
  if (meta.value("hash", "") != c.hash())
    throw InputError::option(
        "--out", o.out_dir,
        fmt::format("holds results of another campaign (or the campaign file {} changed since)", c.file));
  return rows;
}

/// The run whose id is `id`, or nullptr. Runs are numbered 0..n-1 in order, but a caller may run a subset of them.
const CampaignRun* find_run(const Campaign& c, int id)
{
  if (id >= 0 && id < static_cast<int>(c.runs.size()) && c.runs[static_cast<std::size_t>(id)].id == id)
    return &c.runs[static_cast<std::size_t>(id)];
  auto it = std::find_if(c.runs.begin(), c.runs.end(), [id](const CampaignRun& run) { return run.id == id; });
  return it == c.runs.end() ? nullptr : &*it;
}

const CampaignRun& run_of(const Campaign& c, int id)
{
  const CampaignRun* run = find_run(c, id);
  assert(run != nullptr); // ids come from selected_runs
  return *run;
}

std::vector<int> selected_runs(const Campaign& c, const RunnerOptions& o)
{
  std::vector<int> ids;
  if (!o.only.empty()) {
    for (int id : o.only) {
      if (std::find(ids.begin(), ids.end(), id) != ids.end())
        throw InputError::option("--only", id, "this run is given twice: expected each run once");
      if (find_run(c, id) == nullptr)
        throw InputError::option("--only", id, fmt::format("the campaign has runs 0..{}", c.runs.size() - 1));
      if (id % o.shard_count != o.shard_index) // its row would land in another shard's directory
        throw InputError::option("--only", id,
                                 fmt::format("run {} belongs to shard {}/{}, not to --shard {}/{} (run id mod {} is "
                                             "the shard's number minus 1)",
                                             id, id % o.shard_count + 1, o.shard_count, o.shard_index + 1,
                                             o.shard_count, o.shard_count));
      ids.push_back(id);
    }
    return ids;
  }
  for (const auto& run : c.runs)
    if (run.id % o.shard_count == o.shard_index) ids.push_back(run.id);
  return ids;
}

/// The row of run `id` from its worker's outcome: the worker's own row, or a crashed or timeout row.
CampaignRow row_of(const Campaign& c, int id, const JobOutcome& o)
{
  const CampaignRun& run = run_of(c, id);
  switch (o.status) {
  case JobStatus::finished:
    try {
      return CampaignRow::from_json(nlohmann::json::parse(o.text), fmt::format("the worker of run {}", id));
    } catch (const std::exception&) { // not JSON, or not a row (InputError)
      return failed_row(c, run, RunStatus::crashed, "worker exited with code 0 without a result", o.seconds);
    }
  case JobStatus::bad_input:
  case JobStatus::failed: // execute_run threw: the worker's own crashed row, with no time
    return failed_row(c, run, RunStatus::crashed, o.text, 0);
  case JobStatus::timed_out:
    return failed_row(c, run, RunStatus::timeout, fmt::format("exceeded the run time limit of {} s", c.run_time_limit),
                      o.seconds);
  case JobStatus::out_of_memory: // the worker itself (its simulations report their own limits as errors)
    return failed_row(c, run, RunStatus::crashed, "worker ran out of memory: " + o.text, o.seconds);
  case JobStatus::crashed:
    break;
  }
  std::string why = o.signal != 0 ? fmt::format("worker killed by signal {} ({})", o.signal, strsignal(o.signal))
                                  : fmt::format("worker exited with code {} without a result", o.exit_code);
  return failed_row(c, run, RunStatus::crashed, why, o.seconds);
}

bool is_failure(const CampaignRow& row) { return is_failure(row.status); }

RunnerOptions checked(const RunnerOptions& options)
{
  RunnerOptions o = options;
  if (o.jobs <= 0) o.jobs = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (o.shard_count < 1 || o.shard_index < 0 || o.shard_index >= o.shard_count)
    throw InputError::option("--shard", fmt::format("{}/{}", o.shard_index + 1, o.shard_count),
                             "expected i/N with 1 <= i <= N");
  return o;
}

/// campaign.json and COMMAND.
void write_metadata(const Campaign& c, const RunnerOptions& o)
{
  write_file_atomically(o.out_dir + "/campaign.json", campaign_json(c, o).dump(2) + "\n");
  write_file_atomically(o.out_dir + "/COMMAND",
                        fmt::format("# the command that produced this directory\n{}\n"
                                    "# rerun one row alone (ID = its run_id) into another directory:\n"
                                    "pipesim campaign {} --only ID --out DIR\n",
                                    o.command_line, c.file));
}

/// --only reruns rows into a directory that does not hold them yet: a second row of a run would double it.
void refuse_done_only(const RunnerOptions& o, const std::vector<CampaignRow>& rows)
{
  std::set<int> only(o.only.begin(), o.only.end());
  for (const auto& row : rows)
    if (int id = row.run_id; only.count(id))
      throw InputError::option("--only", id,
                               fmt::format("{} already holds the row of run {}; rerun it into another --out (a second "
                                           "row would double the run, and merge refuses doubled runs)",
                                           o.out_dir, id));
}

/// The runs to execute: the shard's (or --only's), but those `rows` already hold.
std::vector<int> pending_runs(const Campaign& c, const RunnerOptions& o, const std::vector<CampaignRow>& rows,
                              RunnerSummary& summary)
{
  std::set<int> done;
  for (const auto& row : rows)
    done.insert(row.run_id);
  std::vector<int> pending;
  for (int id : selected_runs(c, o)) {
    ++summary.selected;
    if (done.count(id))
      ++summary.skipped;
    else
      pending.push_back(id);
  }
  return pending;
}

std::string trace_file(const Campaign& c, const RunnerOptions& o, int id)
{
  if (c.mode == CampaignMode::simulate && c.trace_ids.count(id)) return fmt::format("{}/trace-{}.json", o.out_dir, id);
  return "";
}

bool shard_complete(const Campaign& c, const RunnerOptions& o, const std::vector<CampaignRow>& rows)
{
  std::set<int> complete;
  for (const auto& row : rows)
    complete.insert(row.run_id);
  for (int id : selected_runs(c, o))
    if (!complete.count(id)) return false;
  return true;
}

/// Appends rows to results.jsonl and results.csv (one write and one fsync per file and batch) before counting them.
struct RowWriter {
  const Campaign& c;
  const RunnerOptions& o;
  std::vector<CampaignRow>& rows;
  RunnerSummary& summary;
  Progress& progress;
  DurableAppender jsonl{results_path(o.out_dir)};
  DurableAppender csv{o.out_dir + "/results.csv"};

  void write(std::vector<CampaignRow>&& batch)
  {
    std::vector<std::string> json_lines, csv_lines;
    for (const auto& row : batch) {
      json_lines.push_back(row.to_json().dump());
      csv_lines.push_back(row.csv_line(c.swept, c.mode));
    }
    jsonl.append_lines(json_lines);
    csv.append_lines(csv_lines);
    for (auto& row : batch) { // on disk: now they count as done
      ++summary.executed;
      summary.failures += is_failure(row) ? 1 : 0;
      progress.advance(is_failure(row));
      rows.push_back(std::move(row));
    }
  }
};

/// The rows of a worker that ran the first runs of `ids`: one JSON object per line, in order; nullopt when the text
/// is not that.
std::optional<std::vector<CampaignRow>> worker_rows(const std::string& text, const std::vector<int>& ids)
{
  std::vector<CampaignRow> out;
  try {
    for (std::size_t pos = 0, end; (end = text.find('\n', pos)) != std::string::npos; pos = end + 1) {
      if (out.size() == ids.size()) return std::nullopt;
      out.push_back(CampaignRow::from_json(nlohmann::json::parse(text.substr(pos, end - pos)),
                                           fmt::format("the worker of run {}", ids[out.size()])));
    }
  } catch (const std::exception&) { // not JSON, or not a row
    return std::nullopt;
  }
  if (out.empty()) return std::nullopt;
  return out;
}

/// What a round of workers left: runs no worker reached within its time budget, and runs of workers that did not
/// finish (crash, exception, timeout), to be run again one per process.
struct RowsLeft {
  std::vector<int> not_reached, unfinished;
};

/// Runs `ids` in worker processes of at most `per_worker` runs each, their rows written as each worker ends. A worker
/// of several runs stops after analytic_worker_seconds (at least one run): its other runs are left for the next
/// round, so slow rows still reach the files one by one.
RowsLeft run_rows(const Campaign& c, const RunnerOptions& o, const std::vector<int>& ids, int per_worker,
                  RowWriter& writer)
{
  std::vector<std::vector<int>> workers;
  for (std::size_t i = 0; i < ids.size(); i += static_cast<std::size_t>(per_worker))
    workers.emplace_back(ids.begin() + static_cast<long>(i),
                         ids.begin() +
                             static_cast<long>(std::min(ids.size(), i + static_cast<std::size_t>(per_worker))));
  auto run = [&](int k) { // in the worker process (its own process group: a timeout kills its simulations too)
    auto start = std::chrono::steady_clock::now();
    std::string text;
    for (int id : workers[static_cast<std::size_t>(k)]) {
      if (!text.empty() &&
          std::chrono::steady_clock::now() - start > std::chrono::duration<double>(analytic_worker_seconds))
        break;
      text += execute_run(c, run_of(c, id), trace_file(c, o, id)).to_json().dump() + "\n";
    }
    return text;
  };
  RowsLeft left;
  auto done = [&](int k, JobOutcome&& outcome) { // the worker's rows on disk as soon as it ends
    const std::vector<int>& mine = workers[static_cast<std::size_t>(k)];
    if (mine.size() == 1) {
      if (outcome.ok() && !outcome.text.empty() && outcome.text.back() == '\n') outcome.text.pop_back();
      return writer.write({row_of(c, mine.front(), outcome)});
    }
    auto rows = outcome.ok() ? worker_rows(outcome.text, mine) : std::nullopt;
    if (!rows) {
      left.unfinished.insert(left.unfinished.end(), mine.begin(), mine.end());
      return;
    }
    left.not_reached.insert(left.not_reached.end(), mine.begin() + static_cast<long>(rows->size()), mine.end());
    writer.write(std::move(*rows));
  };
  double limit = c.run_time_limit * static_cast<double>(per_worker); // 0 stays 0: no limit
  run_pool(static_cast<int>(workers.size()), {.jobs = o.jobs, .timeout = limit}, run, done);
  return left;
}

} // namespace

std::optional<std::pair<int, int>> parse_shard_spec(const std::string& text)
{
  auto whole = [](std::string_view digits) -> int {
    int value = 0;
    if (digits.empty() || digits.front() == '-' || digits.front() == '+') return 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return error == std::errc{} && end == digits.data() + digits.size() ? value : 0;
  };
  auto slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  int i = whole(std::string_view(text).substr(0, slash));
  int n = whole(std::string_view(text).substr(slash + 1));
  if (i < 1 || n < 1 || i > n) return std::nullopt;
  return std::pair{i - 1, n};
}

RunnerSummary run_campaign(const Campaign& c, const RunnerOptions& options)
{
  RunnerOptions o = checked(options);
  check_campaign_runs(c,
                      selected_runs(c, o)); // a bad --only or a run nothing can map: refused before anything is written
  require_output_directory(o.out_dir, {.option  = "--out",
                                       .command = "pipesim campaign",
                                       .writes  = DirectoryKind::campaign,
                                       .hash    = c.hash(),
                                       .shard   = fmt::format("{}/{}", o.shard_index + 1, o.shard_count)});
  std::filesystem::create_directories(o.out_dir);
  DirectoryLock lock(o.out_dir); // one runner per directory (a requeued SLURM task while the first still dies)
  std::vector<CampaignRow> rows = previous_rows(c, o);
  refuse_done_only(o, rows);
  write_metadata(c, o);
  write_sorted_results(o.out_dir, rows, c.swept, c.mode); // repairs the CSV after an interrupted run
  RunnerSummary summary;
  summary.total            = static_cast<int>(c.runs.size());
  std::vector<int> pending = pending_runs(c, o, rows, summary);
  Progress progress(c.name, "runs", static_cast<long>(pending.size()), progress_mode(o.quiet, ProgressMode::log), true);
  RowWriter writer{c, o, rows, summary, progress};
  int per_worker = o.rows_per_worker > 0              ? o.rows_per_worker
                   : c.mode == CampaignMode::analytic ? analytic_rows_per_worker
                                                      : 1;
  std::vector<int> unfinished;
  for (std::vector<int> todo = pending; !todo.empty();) { // rounds: each worker does at least one run
    RowsLeft left = run_rows(c, o, todo, per_worker, writer);
    unfinished.insert(unfinished.end(), left.unfinished.begin(), left.unfinished.end());
    todo = std::move(left.not_reached);
  }
  run_rows(c, o, unfinished, 1, writer); // the runs of workers that did not finish, each alone
  progress.finish();
  if (shard_complete(c, o, rows)) // sorted files, identical from one run of the campaign to the next
    write_sorted_results(o.out_dir, rows, c.swept, c.mode);
  return summary;
}

void merge_campaign_outputs(const std::vector<std::string>& dirs, const std::string& out_dir)
{
  if (dirs.empty()) throw InputError::option("merge", "no directory given: expected the directories to merge");
  nlohmann::json meta = read_campaign_json(dirs.front());
  std::map<int, std::string> seen; // run id -> directory
  std::vector<CampaignRow> rows;
  std::vector<int> doubled;
  for (const auto& dir : dirs) {
    nlohmann::json m = read_campaign_json(dir);
    if (m.value("hash", "") != meta.value("hash", "") || m.value("name", "") != meta.value("name", ""))
      throw InputError::option("merge", dir,
                               fmt::format("holds campaign '{}' ({}), {} holds '{}' ({})", m.value("name", "?"),
                                           m.value("hash", "?"), dirs.front(), meta.value("name", "?"),
                                           meta.value("hash", "?")));
    for (auto& row : read_rows(results_path(dir))) {
      int id = row.run_id;
      if (!seen.emplace(id, dir).second) doubled.push_back(id);
      rows.push_back(std::move(row));
    }
  }
  auto list = [](const std::vector<int>& ids) {
    std::string s;
    for (std::size_t i = 0; i < ids.size() && i < 20; ++i)
      s += (i ? ", " : "") + std::to_string(ids[i]);
    return ids.size() > 20 ? s + fmt::format(", ... ({} in all)", ids.size()) : s;
  };
  if (!doubled.empty())
    throw InputError::option("merge", fmt::format("runs present more than once: {}", list(doubled)));
  std::vector<int> missing;
  int total = meta.value("total", 0);
  for (int id = 0; id < total; ++id)
    if (!seen.count(id)) missing.push_back(id);
  if (!missing.empty())
    throw InputError::option("merge",
                             fmt::format("{} of {} runs are missing: {}", missing.size(), total, list(missing)));
  require_output_directory(out_dir, {.option  = "merge --out",
                                     .command = "pipesim merge",
                                     .writes  = DirectoryKind::campaign,
                                     .hash    = meta.value("hash", ""),
                                     .shard   = "merged",
                                     .inputs  = dirs});
  std::filesystem::create_directories(out_dir);
  meta["shard"]  = "merged";
  meta["merged"] = dirs;
  write_file_atomically(out_dir + "/campaign.json", meta.dump(2) + "\n");
  write_sorted_results(out_dir, rows, meta["swept"].get<std::vector<std::string>>(),
                       from_string<CampaignMode>(meta.value("mode", "")).value_or(CampaignMode::simulate));
  for (const auto& dir : dirs)
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.path().filename().string().rfind("trace-", 0) == 0)
        std::filesystem::copy_file(entry.path(), std::filesystem::path(out_dir) / entry.path().filename(),
                                   std::filesystem::copy_options::overwrite_existing);
}

} // namespace pipesim

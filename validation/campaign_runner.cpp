// Campaign runner: worker processes, durable results, resume, shards, progress, merge.
#include "validation/campaign_runner.hpp"

#include "base/input_error.hpp"
#include "validation/campaign_row.hpp"
#include "validation/progress.hpp"
#include "validation/result_files.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <poll.h>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace pipesim {

namespace {

using Clock = std::chrono::steady_clock;

struct Worker {
  pid_t pid     = -1;
  int run_index = 0;
  int fd        = -1;
  std::string output;
  Clock::time_point start;
  bool killed = false;
};

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
  if (!in) throw InputError(fmt::format("{}: not a campaign output directory (no campaign.json)", dir));
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: malformed: {}", path, e.what()));
  }
}

/// Completed run ids of a previous (interrupted) run of the same campaign; checks it is the same campaign.
std::vector<nlohmann::json> previous_rows(const Campaign& c, const RunnerOptions& o)
{
  auto rows = read_rows(results_path(o.out_dir));
  if (rows.empty()) return rows;
  if (!o.resume)
    throw InputError(fmt::format("{}: already holds {} results of a campaign; add --resume to continue it or "
                                 "choose another --out",
                                 o.out_dir, rows.size()));
  auto meta = read_campaign_json(o.out_dir);
  if (meta.value("hash", "") != c.hash())
    throw InputError(fmt::format("{}: holds results of another campaign (or the campaign file {} changed since)",
                                 o.out_dir, c.file));
  return rows;
}

std::vector<int> selected_runs(const Campaign& c, const RunnerOptions& o)
{
  std::vector<int> ids;
  if (!o.only.empty()) {
    for (int id : o.only) {
      if (id < 0 || id >= static_cast<int>(c.runs.size()))
        throw InputError(fmt::format("--only {}: the campaign has runs 0..{}", id, c.runs.size() - 1));
      ids.push_back(id);
    }
    return ids;
  }
  for (const auto& run : c.runs)
    if (run.id % o.shard_count == o.shard_index) ids.push_back(run.id);
  return ids;
}

/// Forks a worker for one run; the worker writes its row as one JSON line to the pipe.
Worker spawn(const Campaign& c, int index, const std::string& trace_file)
{
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(fmt::format("fork: {}", std::strerror(errno)));
  if (pid == 0) {
    ::close(fds[0]);
    ::setpgid(0, 0); // its own group: a timeout kills the worker and its simulation processes
    std::string line;
    try {
      line = execute_run(c, c.runs[static_cast<std::size_t>(index)], trace_file).dump() + "\n";
    } catch (const std::exception& e) {
      line = failed_row(c, c.runs[static_cast<std::size_t>(index)], "crashed", e.what(), 0).dump() + "\n";
    }
    const char* p    = line.data();
    std::size_t left = line.size();
    while (left > 0) {
      ssize_t n = ::write(fds[1], p, left);
      if (n <= 0) ::_exit(3);
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  Worker w;
  w.pid       = pid;
  w.run_index = index;
  w.fd        = fds[0];
  w.start     = Clock::now();
  return w;
}

/// The row of a finished worker (its own, or a crashed/timeout row).
nlohmann::json collect(const Campaign& c, Worker& w)
{
  int status = 0;
  while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::close(w.fd);
  double secs            = std::chrono::duration<double>(Clock::now() - w.start).count();
  const CampaignRun& run = c.runs[static_cast<std::size_t>(w.run_index)];
  if (w.killed)
    return failed_row(c, run, "timeout", fmt::format("exceeded the run time limit of {} s", c.run_time_limit), secs);
  if (!w.output.empty() && w.output.back() == '\n') {
    try {
      return nlohmann::json::parse(w.output);
    } catch (const nlohmann::json::exception&) {
    }
  }
  std::string why = WIFSIGNALED(status)
                        ? fmt::format("worker killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)))
                        : fmt::format("worker exited with code {} without a result", WEXITSTATUS(status));
  return failed_row(c, run, "crashed", why, secs);
}

bool is_failure(const nlohmann::json& row)
{
  std::string s = row.value("status", "");
  return s == "error" || s == "crashed" || s == "timeout";
}

} // namespace

RunnerSummary run_campaign(const Campaign& c, const RunnerOptions& options)
{
  RunnerOptions o = options;
  if (o.jobs <= 0) o.jobs = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (o.shard_count < 1 || o.shard_index < 0 || o.shard_index >= o.shard_count)
    throw InputError(fmt::format("--shard {}/{}: expected i/N with 1 <= i <= N", o.shard_index + 1, o.shard_count));
  std::filesystem::create_directories(o.out_dir);
  DirectoryLock lock(o.out_dir); // one runner per directory (a requeued SLURM task while the first still dies)
  std::vector<nlohmann::json> rows = previous_rows(c, o);
  std::set<int> done;
  for (const auto& row : rows)
    done.insert(row["run_id"].get<int>());
  write_file_atomically(o.out_dir + "/campaign.json", campaign_json(c, o).dump(2) + "\n");
  write_file_atomically(o.out_dir + "/COMMAND",
                        fmt::format("# the command that produced this directory\n{}\n"
                                    "# rerun one row alone (ID = its run_id) into another directory:\n"
                                    "pipesim campaign {} --only ID --out DIR\n",
                                    o.command_line, c.file));
  write_sorted_results(o.out_dir, rows, c.swept, c.mode); // repairs the CSV after an interrupted run
  DurableAppender jsonl(results_path(o.out_dir));
  DurableAppender csv(o.out_dir + "/results.csv");
  auto columns = csv_columns(c.swept, c.mode);

  RunnerSummary summary;
  summary.total = static_cast<int>(c.runs.size());
  std::vector<int> pending;
  for (int id : selected_runs(c, o)) {
    ++summary.selected;
    if (done.count(id) && o.only.empty())
      ++summary.skipped;
    else
      pending.push_back(id);
  }
  Progress progress(c.name, static_cast<int>(pending.size()), o.quiet);
  std::vector<Worker> active;
  std::size_t next = 0;
  while (next < pending.size() || !active.empty()) {
    while (static_cast<int>(active.size()) < o.jobs && next < pending.size()) {
      int id = pending[next++];
      std::string trace;
      if (c.mode == CampaignMode::simulate && c.trace_ids.count(id))
        trace = fmt::format("{}/trace-{}.json", o.out_dir, id);
      active.push_back(spawn(c, id, trace));
    }
    std::vector<pollfd> fds;
    for (const auto& w : active)
      fds.push_back(pollfd{w.fd, POLLIN, 0});
    int ready = ::poll(fds.data(), fds.size(), 200);
    if (ready < 0 && errno != EINTR) throw std::runtime_error(fmt::format("poll: {}", std::strerror(errno)));
    for (std::size_t i = active.size(); i-- > 0;) {
      Worker& w = active[i];
      bool eof  = false;
      if (ready > 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
        char buf[65536];
        ssize_t n = ::read(w.fd, buf, sizeof buf);
        if (n > 0)
          w.output.append(buf, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR)
          eof = true;
      }
      double age = std::chrono::duration<double>(Clock::now() - w.start).count();
      if (!eof && !w.killed && age > c.run_time_limit) {
        ::kill(-w.pid, SIGKILL); // the worker's group: its simulations too
        ::kill(w.pid, SIGKILL);
        w.killed = true;
      }
      if (!eof) continue;
      nlohmann::json row = collect(c, w);
      jsonl.append(row.dump());
      csv.append(csv_line(row, columns));
      rows.push_back(row);
      ++summary.executed;
      summary.failures += is_failure(row) ? 1 : 0;
      progress.advance(is_failure(row));
      active.erase(active.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  progress.finish();
  std::set<int> complete;
  for (const auto& row : rows)
    complete.insert(row["run_id"].get<int>());
  bool all = true;
  for (int id : selected_runs(c, o))
    all = all && complete.count(id) > 0;
  if (all) // the shard is complete: sorted files, identical from one run of the campaign to the next
    write_sorted_results(o.out_dir, rows, c.swept, c.mode);
  return summary;
}

void merge_campaign_outputs(const std::vector<std::string>& dirs, const std::string& out_dir)
{
  if (dirs.empty()) throw InputError("merge: no directory given");
  nlohmann::json meta = read_campaign_json(dirs.front());
  std::map<int, std::string> seen; // run id -> directory
  std::vector<nlohmann::json> rows;
  std::vector<int> doubled;
  for (const auto& dir : dirs) {
    nlohmann::json m = read_campaign_json(dir);
    if (m.value("hash", "") != meta.value("hash", "") || m.value("name", "") != meta.value("name", ""))
      throw InputError(fmt::format("merge: {} holds campaign '{}' ({}), {} holds '{}' ({})", dir, m.value("name", "?"),
                                   m.value("hash", "?"), dirs.front(), meta.value("name", "?"),
                                   meta.value("hash", "?")));
    for (auto& row : read_rows(results_path(dir))) {
      int id = row["run_id"].get<int>();
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
  if (!doubled.empty()) throw InputError(fmt::format("merge: runs present more than once: {}", list(doubled)));
  std::vector<int> missing;
  int total = meta.value("total", 0);
  for (int id = 0; id < total; ++id)
    if (!seen.count(id)) missing.push_back(id);
  if (!missing.empty())
    throw InputError(fmt::format("merge: {} of {} runs are missing: {}", missing.size(), total, list(missing)));
  std::filesystem::create_directories(out_dir);
  meta["shard"]  = "merged";
  meta["merged"] = dirs;
  write_file_atomically(out_dir + "/campaign.json", meta.dump(2) + "\n");
  write_sorted_results(out_dir, rows, meta["swept"].get<std::vector<std::string>>(),
                       campaign_mode(meta.value("mode", "")).value_or(CampaignMode::simulate));
  for (const auto& dir : dirs)
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.path().filename().string().rfind("trace-", 0) == 0)
        std::filesystem::copy_file(entry.path(), std::filesystem::path(out_dir) / entry.path().filename(),
                                   std::filesystem::copy_options::overwrite_existing);
}

} // namespace pipesim

// `pipesim campaign --slurm` on a real SLURM: the one-node cluster of scripts/local-slurm.sh, started and stopped
// by the ctest fixture `slurm_cluster` (apps/CMakeLists.txt) in a directory of 150+ characters, with the campaigns
// under paths as long (a checkout in a deep folder: issue 31). Every wait has a deadline and ends at once when SLURM
// will not start a job of the campaign (blocked_reason); on failure the message holds `pipesim campaign status` and
// the job logs.
#include "base/external_program.hpp"
#include "validation/campaigns/campaign_status.hpp"
#include "validation/campaigns/result_files.hpp"
#include "validation/campaigns/slurm_queue.hpp"

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <sstream>
#include <thread>
#include <unistd.h>

using namespace pipesim;
namespace fs = std::filesystem;

namespace {

struct Result {
  int code = -1;
  std::string out;
};

/// A program's exit code (-1 when it did not exit) and its stdout and stderr together.
Result run_argv(std::vector<std::string> argv)
{
  ProgramCall call;
  call.argv         = std::move(argv);
  call.merge_stderr = true;
  ProgramResult r   = run_program(call);
  return {r.status == ProgramStatus::exited ? r.exit_code : -1, r.out};
}

/// `pipesim ARGS` as a shell line (some tests redirect stderr).
Result run_pipesim(const std::string& args) { return run_argv({"/bin/sh", "-c", PIPESIM_EXECUTABLE " " + args}); }

std::string read(const fs::path& path)
{
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The cluster of the fixture, or why there is none.
std::string cluster_missing()
{
  const char* conf = std::getenv("SLURM_CONF");
  if (!conf) return "SLURM_CONF is not set (run this test through ctest, which starts the cluster)";
  if (!fs::exists(fs::path(conf).parent_path() / "pids"))
    return fmt::format("no local SLURM cluster in {} (scripts/local-slurm.sh start exits 77 when slurmctld, slurmd, "
                       "slurm-client or munge is not installed: run scripts/setup.sh)",
                       fs::path(conf).parent_path().string());
  return "";
}

/// A fresh directory whose path has at least 150 characters.
std::string temp_dir(const std::string& name)
{
  auto root = fs::temp_directory_path() / fmt::format("pipesim-slurm-{}-{}", getpid(), name);
  fs::remove_all(root);
  std::size_t length = root.string().size() + 1;
  auto dir           = root / std::string(length < 150 ? 150 - length : 1, 'x');
  fs::create_directories(dir);
  return dir.string();
}

/// What a failing assertion shows: the status table and the end of every job log.
std::string diagnose(const std::string& dir)
{
  std::string text = "\n--- pipesim campaign status\n" + run_pipesim("campaign status " + dir).out;
  if (fs::exists(dir + "/slurm/logs"))
    for (const auto& entry : fs::directory_iterator(dir + "/slurm/logs")) {
      std::string log = read(entry.path());
      text += "--- " + entry.path().string() + "\n" + (log.size() > 3000 ? log.substr(log.size() - 3000) : log);
    }
  return text;
}

/// Why SLURM will not start a job of the campaign in `dir` (its array tasks, its merge job): blocked_reason; "" while
/// every job can still run.
std::string stuck(const std::string& dir)
{
  CampaignStatus status = campaign_status(dir, SlurmTools{});
  std::string why;
  for (const auto& shard : status.shards)
    if (auto reason = shard.blocked(); !reason.empty())
      why += fmt::format("SLURM will not start shard {} ({}): {}\n", shard.index, shard.job->name(), reason);
  if (status.merge_job)
    if (auto reason = blocked_reason(*status.merge_job); !reason.empty())
      why += fmt::format("SLURM will not start merge job {}: {}\n", status.merge_job->name(), reason);
  return why;
}

/// Polls `done` every 50 ms for at most `seconds`; gives up at once when SLURM will not start a job of the campaign
/// in `dir` (asked once a second), with the reason in `why`.
bool wait_until(const std::string& dir, const std::function<bool()>& done, double seconds, std::string& why)
{
  auto now      = [] { return std::chrono::steady_clock::now(); };
  auto deadline = now() + std::chrono::duration<double>(seconds);
  auto asked    = now() - std::chrono::seconds(1);
  while (now() < deadline) {
    if (done()) return true;
    if (now() - asked >= std::chrono::seconds(1)) {
      asked = now();
      why   = stuck(dir);
      if (!why.empty()) return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  why = fmt::format("not done after {} s\n", seconds);
  return done();
}

/// The state of a job of the campaign in `dir` (array task "A_i" or job "J") once it has left the queue; nullopt
/// after `seconds`, or at once when SLURM will not start a job of the campaign (`why` says why).
std::optional<SlurmState> wait_for_end(const std::string& dir, long job, int task, double seconds, std::string& why)
{
  std::optional<SlurmState> state;
  wait_until(
      dir,
      [&] {
        std::string error;
        auto jobs = query_jobs(SlurmTools{}, {job}, error);
        if (!jobs) return false;
        for (const auto& j : *jobs)
          if (j.array_job_id == job && j.array_task == task && !in_queue(j.state)) state = j.state;
        return state.has_value();
      },
      seconds, why);
  return state;
}

/// The job ids that `pipesim campaign --slurm` printed.
std::pair<long, long> submitted_ids(const std::string& out)
{
  std::smatch array, merge;
  long a = std::regex_search(out, array, std::regex("submitted array job (\\d+)")) ? std::stol(array[1]) : 0;
  long m = std::regex_search(out, merge, std::regex("submitted merge job (\\d+)")) ? std::stol(merge[1]) : 0;
  return {a, m};
}

/// Rows by run id without their timing columns; `ids` counts the rows of each id.
std::map<int, nlohmann::json> timeless(const std::string& dir, std::map<int, int>* ids = nullptr)
{
  std::map<int, nlohmann::json> rows;
  for (const CampaignRow& typed : read_rows(dir + "/results.jsonl")) {
    nlohmann::json row = typed.to_json();
    row.erase("timing");
    int id = row["run_id"].get<int>();
    if (ids) ++(*ids)[id];
    rows[id] = row;
  }
  return rows;
}

/// Runs per shard: 4 N runs in all, n = 1..N outside, the mapper inside, so run id mod 4 picks the mapper and each
/// shard of 4 holds one: shard 1 simulates random interval mappings, shard 2 H7b-BSC's, shard 3 sleeps 0.1 s per run
/// (debug.sleep: time to cancel it part-way), shard 4 fails every run (debug.abort kills its worker: a mapper that
/// refuses the problem, as br07.fh-dp did here, now stops the campaign before it starts). 200 runs.
constexpr int per_shard = 50; // not built under the sanitizers (apps/CMakeLists.txt)

std::string sharded_campaign()
{
  return fmt::format(R"(name: slurm-cluster
mode: simulate
base:
  pipeline: {{generate: {{n: 3, w: [1, 20], delta: [1, 100], seed: 1}}}}
  platform: {{generate: {{class: fully-heterogeneous, p: 6, speed: [1, 20], bandwidth: [1, 10], seed: 1}}}}
  mapper: random.interval
  mapper_options: {{time_limit: 0.1}}
  simulation: {{datasets: 10}}
sweep:
  pipeline.generate.n: [1..{}]
  mapper: [random.interval, br07.h7b-bsc, debug.sleep, debug.abort]
)",
                     per_shard);
}

} // namespace

TEST(SlurmCluster, ShardsMergeToTheUnshardedResultsAndOnlyTheCancelledShardIsResubmitted)
{
  if (auto why = cluster_missing(); !why.empty()) GTEST_SKIP() << why;
  std::string root = temp_dir("sharded");
  std::string file = root + "/campaign.yaml";
  std::ofstream(file) << sharded_campaign();
  std::string dir     = root + "/run";
  std::string command = fmt::format("campaign {} --out {} --slurm --shards 4 --cpus-per-task 1", file, dir);

  Result first = run_pipesim(command);
  ASSERT_EQ(first.code, 0) << first.out;
  ASSERT_NE(first.out.find("shards 1-4 of 4"), std::string::npos) << first.out;
  auto [array, merge] = submitted_ids(first.out);
  ASSERT_GT(array, 0) << first.out;
  ASSERT_GT(merge, 0) << first.out;

  // cancel shard 3 part-way: once it has written a few rows
  std::string shard3 = dir + "/shards/3/results.jsonl";
  std::string why;
  ASSERT_TRUE(wait_until(
      dir, [&] { return count_results(shard3).rows >= 3; }, 60, why))
      << why << diagnose(dir);
  ASSERT_EQ(run_argv({"scancel", fmt::format("{}_3", array)}).code, 0);
  ASSERT_EQ(wait_for_end(dir, array, 3, 60, why), SlurmState::cancelled) << why << diagnose(dir);
  int before = count_results(shard3).rows;
  EXPECT_LT(before, per_shard) << "shard 3 finished before it was cancelled: make its runs slower";

  // meanwhile, the reference: the same campaign without SLURM and without shards
  Result reference = run_pipesim(fmt::format("campaign {} --out {}/reference --jobs 2 --quiet", file, root));
  ASSERT_EQ(reference.code, 0) << reference.out;

  // the merge job runs after the array whatever its outcome, refuses the incomplete shards and lists them
  ASSERT_EQ(wait_for_end(dir, merge, -1, 120, why), SlurmState::failed) << why << diagnose(dir);
  std::string merge_log = read(fmt::format("{}/slurm/logs/merge-{}.out", dir, merge));
  EXPECT_NE(merge_log.find("runs are missing"), std::string::npos) << merge_log;
  EXPECT_NE(merge_log.find("re-submit  shard 3"), std::string::npos) << merge_log;
  Result status = run_pipesim("campaign status --format json " + dir + " 2>/dev/null");
  auto j        = nlohmann::json::parse(status.out);
  EXPECT_EQ(j["resubmit"], nlohmann::json::array({3})) << status.out;
  EXPECT_EQ(j["shards"][3]["failed"], per_shard) << status.out;
  EXPECT_EQ(j["shards"][2]["slurm"]["state"], "CANCELLED") << status.out;

  // the same command again: shard 3 alone, resumed where it stopped
  Result second = run_pipesim(command);
  ASSERT_EQ(second.code, 0) << second.out;
  EXPECT_NE(second.out.find("shard 3 to run"), std::string::npos) << second.out;
  auto [array2, merge2] = submitted_ids(second.out);
  EXPECT_NE(read(dir + "/slurm/array.sbatch").find("#SBATCH --array=3\n"), std::string::npos);
  ASSERT_EQ(wait_for_end(dir, merge2, -1, 120, why), SlurmState::completed) << why << diagnose(dir);
  EXPECT_NE(read(dir + "/slurm/logs/shard-3.out").find(fmt::format("{} already done", before)), std::string::npos)
      << diagnose(dir);

  // complete, nothing doubled, equal to the unsharded run apart from the timing columns
  std::map<int, int> count;
  auto merged = timeless(dir, &count);
  EXPECT_EQ(merged.size(), 4u * per_shard);
  for (const auto& [id, n] : count)
    EXPECT_EQ(n, 1) << "run " << id;
  EXPECT_EQ(count_results(shard3).rows, per_shard);
  EXPECT_TRUE(merged == timeless(root + "/reference")) << "merged results differ from the unsharded run";
  // the failing shard did not stop the merge: the report counts its rows, the merge log lists them
  std::string report = read(dir + "/report.html");
  EXPECT_NE(report.find(fmt::format("crashed: {}", per_shard)), std::string::npos);
  merge_log = read(fmt::format("{}/slurm/logs/merge-{}.out", dir, merge2));
  EXPECT_NE(merge_log.find(fmt::format("failed     shard 4: {} runs", per_shard)), std::string::npos) << merge_log;

  // a third time: nothing left to submit
  Result third = run_pipesim(command);
  EXPECT_EQ(third.code, 0) << third.out;
  EXPECT_NE(third.out.find("campaign complete"), std::string::npos) << third.out;
  EXPECT_EQ(submitted_ids(third.out), std::make_pair(0L, 0L));
  (void)array2;
}

TEST(SlurmCluster, RequeuedTaskResumesItsShard)
{
  if (auto why = cluster_missing(); !why.empty()) GTEST_SKIP() << why;
  std::string root = temp_dir("requeue");
  std::string file = root + "/campaign.yaml";
  std::ofstream(file) << R"(name: slurm-requeue
mode: analytic
base:
  pipeline: {w: [1, 2], delta: [1, 1, 1]}
  platform: {processors: [{name: A, speed: 1}, {name: B, speed: 2}], bandwidth: 1}
  mapper: debug.sleep
  mapper_options: {time_limit: 0.15}
seed: {from: 1, count: 40}
)";
  std::string dir = root + "/run";
  Result first    = run_pipesim(fmt::format("campaign {} --out {} --slurm --shards 2", file, dir));
  ASSERT_EQ(first.code, 0) << first.out;
  auto [array, merge] = submitted_ids(first.out);
  std::string shard1  = dir + "/shards/1/results.jsonl";
  std::string why;
  ASSERT_TRUE(wait_until(
      dir, [&] { return count_results(shard1).rows >= 3; }, 60, why))
      << why << diagnose(dir);
  Result requeue = run_argv({"scontrol", "requeue", fmt::format("{}_1", array)});
  ASSERT_EQ(requeue.code, 0) << requeue.out;
  EXPECT_LT(count_results(shard1).rows, 20);
  // the requeued task waits for its old credential to expire (cred_expire=5 in the local cluster), then resumes
  ASSERT_EQ(wait_for_end(dir, merge, -1, 120, why), SlurmState::completed) << why << diagnose(dir);
  std::string log = read(dir + "/slurm/logs/shard-1.out");
  EXPECT_NE(log.find("restart 1"), std::string::npos) << log;
  EXPECT_NE(log.find("already done"), std::string::npos) << log;
  std::map<int, int> count;
  EXPECT_EQ(timeless(dir, &count).size(), 40u) << diagnose(dir);
  for (const auto& [id, n] : count)
    EXPECT_EQ(n, 1) << "run " << id;
  EXPECT_EQ(count_results(shard1).rows, 20);
}

TEST(SlurmCluster, StatusSaysWhyATaskCannotStartAndTheWaitEndsAtOnce)
{
  if (auto why = cluster_missing(); !why.empty()) GTEST_SKIP() << why;
  std::string root = temp_dir("held");
  std::string file = root + "/campaign.yaml";
  std::ofstream(file) << R"(name: slurm-held
mode: analytic
base:
  pipeline: {w: [1, 2], delta: [1, 1, 1]}
  platform: {processors: [{name: A, speed: 1}, {name: B, speed: 2}], bandwidth: 1}
  mapper: br07.h1a-gr
seed: {from: 1, count: 4}
)";
  std::string dir = root + "/run";
  // held at submission (both scripts): SLURM's reason is JobHeldUser, and nothing starts until someone releases it
  Result first = run_pipesim(fmt::format("campaign {} --out {} --slurm --shards 2 --sbatch-arg=--hold", file, dir));
  ASSERT_EQ(first.code, 0) << first.out;
  auto [array, merge] = submitted_ids(first.out);
  ASSERT_GT(array, 0) << first.out;

  std::string why;
  EXPECT_FALSE(wait_until(
      dir, [] { return false; }, 60, why));
  EXPECT_NE(why.find(fmt::format("SLURM will not start shard 1 ({}_1): PENDING, JobHeldUser", array)),
            std::string::npos)
      << why;
  Result table = run_pipesim("campaign status " + dir);
  EXPECT_NE(table.out.find(fmt::format("PENDING ({}_2): JobHeldUser", array)), std::string::npos) << table.out;
  EXPECT_NE(table.out.find(fmt::format("blocked    shard 2 ({}_2): PENDING, JobHeldUser: SLURM will not start it "
                                       "until someone acts",
                                       array)),
            std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find(fmt::format("blocked    merge job {}: PENDING, JobHeldUser", merge)), std::string::npos)
      << table.out;
  auto j = nlohmann::json::parse(run_pipesim("campaign status --format json " + dir + " 2>/dev/null").out);
  EXPECT_EQ(j["shards"][0]["slurm"]["reason"], "JobHeldUser");
  EXPECT_EQ(j["shards"][0]["slurm"]["blocked"], "PENDING, JobHeldUser");

  // released, it runs to the end
  ASSERT_EQ(run_argv({"scontrol", "release", fmt::format("{},{}", array, merge)}).code, 0);
  ASSERT_EQ(wait_for_end(dir, merge, -1, 120, why), SlurmState::completed) << why << diagnose(dir);
  EXPECT_EQ(timeless(dir).size(), 4u);
}

// Campaign status from the files alone, SLURM's states attached, and what a new submission runs (no SLURM needed).
#include "base/input_error.hpp"
#include "validation/campaigns/campaign_status.hpp"
#include "validation/campaigns/slurm_submit.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace pipesim;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
namespace fs = std::filesystem;

namespace {

std::string status_temp_dir(const std::string& name)
{
  auto dir = fs::temp_directory_path() / fmt::format("pipesim-status-{}-{}", getpid(), name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

void write(const std::string& path, const std::string& text)
{
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

/// A row as the runner writes it (keys sorted, a nested object holding its own "status" and "run_id").
std::string row(int id, const std::string& status)
{
  nlohmann::json j = {{"run_id", id},
                      {"status", status},
                      {"params", {{"status", "ok"}, {"run_id", 999}}},
                      {"scenario_yaml", "status: \"error\"\nrun_id: 5\n"}};
  return j.dump() + "\n";
}

/// A --slurm directory of a 10-run campaign in 3 shards (shard 1: runs 0, 3, 6, 9; shard 2: 1, 4, 7; shard 3: 2, 5,
/// 8): shard 1 complete with one failure, shard 2 has two rows and a torn third, shard 3 has not started.
std::string slurm_dir()
{
  std::string dir = status_temp_dir("slurm");
  write(dir + "/slurm/submission.json",
        R"({"name": "c", "file": "/x/c.yaml", "hash": "abc", "total": 10, "shards": 3})");
  write(dir + "/slurm/submissions.jsonl", R"({"array_job": 40, "merge_job": 41, "shards": [1, 2, 3], "depends_on": []})"
                                          "\n");
  write(dir + "/shards/1/campaign.json", R"({"hash": "abc", "total": 10, "shard": "1/3"})");
  write(dir + "/shards/1/results.jsonl", row(0, "ok") + row(3, "crashed") + row(6, "infeasible") + row(9, "ok"));
  write(dir + "/shards/2/campaign.json", R"({"hash": "abc", "total": 10, "shard": "2/3"})");
  write(dir + "/shards/2/results.jsonl", row(1, "ok") + row(4, "timeout") + R"({"run_id": 7, "sta)");
  return dir;
}

SlurmJob job(long id, long array, int task, SlurmState state)
{
  SlurmJob j;
  j.job_id       = id;
  j.array_job_id = array;
  j.array_task   = task;
  j.state        = state;
  return j;
}

} // namespace

TEST(CampaignStatus, CountsRowsPerShardFromTheFilesAlone)
{
  std::string dir  = slurm_dir();
  std::string torn = dir + "/shards/2/results.jsonl";
  auto size        = fs::file_size(torn);
  CampaignStatus s = read_campaign_status(dir);
  EXPECT_EQ(fs::file_size(torn), size); // read only: a runner may be writing the torn line
  EXPECT_TRUE(s.slurm);
  EXPECT_EQ(s.total, 10);
  ASSERT_EQ(s.shards.size(), 3u);
  EXPECT_EQ(s.shards[0].expected, 4); // runs 0, 3, 6, 9
  EXPECT_EQ(s.shards[0].done, 4);
  EXPECT_THAT(s.shards[0].counts.failed_ids, ElementsAre(3)); // crashed; infeasible is a result, not a failure
  EXPECT_EQ(s.shards[1].expected, 3);
  EXPECT_EQ(s.shards[1].done, 2); // the torn row of run 7 does not count
  EXPECT_THAT(s.shards[1].counts.failed_ids, ElementsAre(4));
  EXPECT_EQ(s.shards[2].expected, 3);
  EXPECT_EQ(s.shards[2].done, 0);
  EXPECT_EQ(s.done(), 6);
  EXPECT_EQ(s.failed(), 2);
  EXPECT_FALSE(s.merged());
  EXPECT_THAT(s.to_resubmit(), ElementsAre(2, 3)); // no job known: both unfinished shards
  EXPECT_THAT(s.jobs_to_query(), ElementsAre(40, 41));
  std::string table = status_table(s);
  EXPECT_THAT(table, HasSubstr("runs       6 of 10 done, 2 failed, in 3 shards"));
  EXPECT_THAT(table, HasSubstr("failed     shard 1: 1 runs (3)"));
  EXPECT_THAT(table, HasSubstr("re-submit  shards 2, 3"));
  EXPECT_THAT(table, HasSubstr("merged     no:"));
  auto j = status_json(s);
  EXPECT_EQ(j["done"], 6);
  EXPECT_EQ(j["shards"][1]["failed_ids"], nlohmann::json::array({4}));
  EXPECT_EQ(j["resubmit"], nlohmann::json::array({2, 3}));
}

TEST(CampaignStatus, SlurmStatesDecideWhatToResubmit)
{
  CampaignStatus s = read_campaign_status(slurm_dir());
  attach_jobs(s, {job(40, 40, 1, SlurmState::completed), job(43, 40, 2, SlurmState::running),
                  job(40, 40, 3, SlurmState::pending), job(41, 41, -1, SlurmState::pending),
                  job(77, 77, 3, SlurmState::running)}); // job 77 is not ours
  ASSERT_TRUE(s.shards[1].job);
  EXPECT_EQ(s.shards[1].job->name(), "40_2");
  EXPECT_TRUE(s.shards[2].queued());
  EXPECT_TRUE(s.to_resubmit().empty());
  SubmissionPlan plan = plan_submission(s);
  EXPECT_TRUE(plan.shards.empty());
  EXPECT_FALSE(plan.merge); // merge job 41 waits for them
  EXPECT_THAT(plan.reason, HasSubstr("shards 2-3 still queued or running; merge job 41 waits"));

  // shard 2 cancelled part-way, shard 3 still pending: only shard 2 again, merge after both arrays
  attach_jobs(s, {job(43, 40, 2, SlurmState::cancelled), job(40, 40, 3, SlurmState::pending),
                  job(41, 41, -1, SlurmState::pending)});
  plan = plan_submission(s);
  EXPECT_THAT(plan.shards, ElementsAre(2));
  EXPECT_TRUE(plan.merge);
  EXPECT_THAT(plan.depends_on, ElementsAre(40));
  EXPECT_THAT(plan.cancel, ElementsAre(41)); // the pending merge would merge before shard 2 is done

  // nothing known any more (jobs purged): every unfinished shard again; a running merge job is left alone
  attach_jobs(s, {job(41, 41, -1, SlurmState::running)});
  plan = plan_submission(s);
  EXPECT_THAT(plan.shards, ElementsAre(2, 3));
  EXPECT_TRUE(plan.depends_on.empty());
  EXPECT_TRUE(plan.cancel.empty());
}

TEST(CampaignStatus, SaysWhyATaskCannotStartWithItsLastLogLine)
{
  // shard 2 held after its launch failed (SLURM requeued it in a held state: slurmstepd could not start), its log
  // ending with what the last attempt wrote; shard 3 waits for resources, its log not written yet; the merge job
  // waits for the array
  std::string dir = slurm_dir();
  write(dir + "/slurm/logs/shard-2.out", "pipesim: shard 2/3, job 43, restart 0\n"
                                         "pipesim: error: out of disk space\r\n\n");
  CampaignStatus s = read_campaign_status(dir);
  EXPECT_EQ(s.shards[1].log_tail, "pipesim: error: out of disk space");
  EXPECT_EQ(s.shards[2].log_tail, "");
  auto jobs = parse_squeue("43|40|2|PENDING|launch failed requeued held\n44|40|3|PENDING|Resources\n"
                           "41|41|N/A|PENDING|Dependency\n");
  attach_jobs(s, jobs);
  EXPECT_EQ(s.shards[1].blocked(), "PENDING, launch failed requeued held");
  EXPECT_EQ(s.shards[2].blocked(), "");
  std::string table = status_table(s);
  EXPECT_THAT(table, HasSubstr("      2         2         3         1  PENDING (40_2): launch failed requeued held\n"));
  EXPECT_THAT(table, HasSubstr("      3         0         3         0  PENDING (40_3): Resources\n"));
  EXPECT_THAT(table, HasSubstr("blocked    shard 2 (40_2): PENDING, launch failed requeued held: SLURM will not start "
                               "it until someone acts\n"));
  EXPECT_THAT(table, HasSubstr("log        shard 2: " + dir +
                               "/slurm/logs/shard-2.out ends with: pipesim: error: out of disk space\n"));
  EXPECT_THAT(table, Not(HasSubstr("blocked    shard 3")));
  EXPECT_THAT(table, Not(HasSubstr("merge job 41: PENDING"))); // a dependency is met by itself
  auto j = status_json(s);
  EXPECT_EQ(j["shards"][1]["slurm"]["reason"], "launch failed requeued held");
  EXPECT_EQ(j["shards"][1]["slurm"]["blocked"], "PENDING, launch failed requeued held");
  EXPECT_EQ(j["shards"][1]["log_tail"], "pipesim: error: out of disk space");
  EXPECT_EQ(j["shards"][2]["slurm"]["blocked"], "");

  // a running task's log is its progress, not a reason: not shown
  attach_jobs(s, parse_squeue("43|40|2|RUNNING|None\n"));
  EXPECT_THAT(status_table(s), Not(HasSubstr("log        shard 2")));
}

TEST(CampaignStatus, LastLineReadsTheEndOfALongLog)
{
  std::string dir = status_temp_dir("log");
  std::string log(10000, 'a');
  write(dir + "/long.out", log + "\nprogress 1\rprogress 2\r\nthe end   \n\n");
  EXPECT_EQ(last_line(dir + "/long.out"), "the end");
  write(dir + "/one.out", "single line without newline");
  EXPECT_EQ(last_line(dir + "/one.out"), "single line without newline");
  EXPECT_EQ(last_line(dir + "/absent.out"), "");
}

TEST(CampaignStatus, FinishedShardsNeedOnlyTheMerge)
{
  std::string dir = slurm_dir();
  write(dir + "/shards/2/results.jsonl", row(1, "ok") + row(4, "ok") + row(7, "ok"));
  write(dir + "/shards/3/results.jsonl", row(2, "error") + row(5, "error") + row(8, "error"));
  CampaignStatus s = read_campaign_status(dir);
  EXPECT_EQ(s.done(), 10);
  SubmissionPlan plan = plan_submission(s);
  EXPECT_TRUE(plan.shards.empty());
  EXPECT_TRUE(plan.merge);
  EXPECT_TRUE(plan.depends_on.empty());

  attach_jobs(s, {job(41, 41, -1, SlurmState::pending)});
  EXPECT_FALSE(plan_submission(s).merge); // the queued merge job will do it

  std::string merged;
  for (int id = 0; id < 10; ++id)
    merged += row(id, "ok");
  write(dir + "/campaign.json", R"({"hash": "abc", "total": 10, "shard": "merged"})");
  write(dir + "/results.jsonl", merged);
  write(dir + "/report.html", "<html></html>");
  s = read_campaign_status(dir);
  EXPECT_TRUE(s.merged());
  EXPECT_TRUE(s.report);
  plan = plan_submission(s);
  EXPECT_FALSE(plan.merge);
  EXPECT_THAT(plan.reason, HasSubstr("campaign complete"));
  EXPECT_THAT(status_table(s), HasSubstr("failed     shard 3: 3 runs (2, 5, 8)"));
}

TEST(CampaignStatus, DoubledRowsAndForeignShardsAreReported)
{
  std::string dir = slurm_dir();
  write(dir + "/shards/2/results.jsonl", row(1, "ok") + row(4, "crashed") + row(4, "ok"));
  CampaignStatus s = read_campaign_status(dir);
  EXPECT_EQ(s.shards[1].done, 2);
  EXPECT_THAT(s.shards[1].counts.doubled, ElementsAre(4));
  EXPECT_TRUE(s.shards[1].counts.failed_ids.empty()); // the last row of run 4 is ok
  EXPECT_THAT(status_table(s), HasSubstr("doubled    shard 2: runs 4 appear twice"));

  write(dir + "/shards/3/campaign.json", R"({"hash": "other"})");
  EXPECT_THROW(read_campaign_status(dir), InputError);
  write(dir + "/shards/3/campaign.json", R"({"hash": "abc"})");
  write(dir + "/shards/3/results.jsonl", "{not json}\n");
  try {
    read_campaign_status(dir);
    FAIL() << "a malformed row must be refused";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("shards/3/results.jsonl:1: not a JSON result row"));
  }
}

TEST(CampaignStatus, PlainCampaignDirectoryAndShard)
{
  std::string dir = status_temp_dir("plain");
  write(dir + "/campaign.json", R"({"name": "p", "hash": "h", "total": 5, "shard": "2/2"})");
  write(dir + "/results.jsonl", row(1, "ok"));
  CampaignStatus s = read_campaign_status(dir);
  EXPECT_FALSE(s.slurm);
  ASSERT_EQ(s.shards.size(), 1u);
  EXPECT_EQ(s.shards[0].index, 2);
  EXPECT_EQ(s.shards[0].expected, 2); // runs 1 and 3
  EXPECT_EQ(s.shards[0].done, 1);
  EXPECT_THROW(read_campaign_status(status_temp_dir("empty")), InputError);
  // a shard read partly was read as 1/2 (and "x/2" ended as an internal error)
  for (const char* shard : {"1/2x", "x/2"}) {
    write(dir + "/campaign.json", fmt::format(R"({{"name": "p", "hash": "h", "total": 5, "shard": "{}"}})", shard));
    try {
      read_campaign_status(dir);
      ADD_FAILURE() << shard << " must be refused";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(),
                  HasSubstr(fmt::format("{}/campaign.json: key 'shard': value '{}': expected i/N", dir, shard)));
    }
  }
}

TEST(CampaignStatus, SubmissionDateIsUnderTimingAndOldRecordsStillRead)
{
  SlurmSubmission s;
  s.time           = "2026-11-22T10:00:00+0100";
  s.command        = "pipesim campaign c.yaml --out d --slurm";
  s.shards         = {1, 2};
  s.array_job      = 100;
  s.merge_job      = 101;
  nlohmann::json j = s.to_json();
  EXPECT_EQ(j["timing"]["submitted"], s.time); // the one value that differs between two identical submissions
  EXPECT_FALSE(j.contains("time"));
  EXPECT_EQ(SlurmSubmission::from_json(j).time, s.time);
  EXPECT_EQ(SlurmSubmission::from_json(j).merge_job, 101);
  // a record written before the timing rule
  auto old = nlohmann::json::parse(R"({"time": "2026-01-02T03:04:05+0000", "command": "c", "shards": [1],
                                       "array_job": 7, "merge_job": 8, "depends_on": []})");
  EXPECT_EQ(SlurmSubmission::from_json(old).time, "2026-01-02T03:04:05+0000");
  EXPECT_EQ(SlurmSubmission::from_json(old).array_job, 7);
}

// The batch scripts of `pipesim campaign --slurm` (no SLURM needed): their lines, array lists, refused settings.
#include "base/input_error.hpp"
#include "validation/campaigns/slurm_queue.hpp"
#include "validation/campaigns/slurm_scripts.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace pipesim;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

SlurmJobSettings settings()
{
  SlurmJobSettings s;
  s.executable    = "/opt/pipesim/bin/pipesim";
  s.campaign_file = "/home/u/c.yaml";
  s.out_dir       = "/scratch/u/run";
  s.campaign_name = "fidelity oneport";
  s.shard_count   = 4;
  s.cpus_per_task = 8;
  s.partition     = "short";
  s.time          = "1:30:00";
  s.sbatch_args   = {"--account=p42", "--mem=4G"};
  s.setup         = {"module load simgrid/3.32"};
  return s;
}

std::string scripts_message_of(const SlurmJobSettings& s)
{
  try {
    check_job_settings(s);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(SlurmScripts, ArraySpecJoinsRuns)
{
  EXPECT_EQ(array_spec({1, 2, 3, 4}), "1-4");
  EXPECT_EQ(array_spec({3}), "3");
  EXPECT_EQ(array_spec({7, 1, 2, 5, 8, 3}), "1-3,5,7-8");
  EXPECT_EQ(array_spec({2, 2, 4}), "2,4");
  EXPECT_EQ(array_spec({}), "");
}

TEST(SlurmScripts, ShellQuoteLeavesPathsAndQuotesTheRest)
{
  EXPECT_EQ(shell_quote("/opt/pipesim-1.0/bin/pipesim"), "/opt/pipesim-1.0/bin/pipesim");
  EXPECT_EQ(shell_quote("--sbatch-arg=--account=p42"), "--sbatch-arg=--account=p42");
  EXPECT_EQ(shell_quote("module load x"), "'module load x'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
}

TEST(SlurmScripts, ArrayScriptRunsShardIOfNWithResumeAndJobs)
{
  std::string text = array_script(settings(), {1, 2, 4});
  EXPECT_TRUE(text.starts_with("#!/bin/bash\n"));
  for (const char* line :
       {"#SBATCH --array=1-2,4\n", "#SBATCH --cpus-per-task=8\n", "#SBATCH --requeue\n", "#SBATCH --open-mode=append\n",
        "#SBATCH --output=/scratch/u/run/slurm/logs/shard-%a.out\n", "#SBATCH --partition=short\n",
        "#SBATCH --time=1:30:00\n", "#SBATCH --chdir=/scratch/u/run\n", "#SBATCH --account=p42\n", "#SBATCH --mem=4G\n",
        "#SBATCH --job-name=pipesim-fidelity_oneport\n", "\nmodule load simgrid/3.32\n"})
    EXPECT_THAT(text, HasSubstr(line));
  EXPECT_THAT(text, HasSubstr("exec /opt/pipesim/bin/pipesim campaign /home/u/c.yaml --out /scratch/u/run/shards/"
                              "\"$shard\" --shard \"$shard\"/4 --resume --jobs 8\n"));
  // every #SBATCH line comes before the first command (sbatch stops reading them there)
  EXPECT_LT(text.rfind("#SBATCH"), text.find("module load"));
}

TEST(SlurmScripts, MergeScriptMergesReportsAndListsTheShards)
{
  SlurmJobSettings s = settings();
  s.partition.clear();
  s.time.clear();
  s.merge_mem      = "16G";
  std::string text = merge_script(s);
  EXPECT_THAT(text, HasSubstr("#SBATCH --mem=16G\n"));
  EXPECT_THAT(array_script(s, {1}), Not(HasSubstr("--mem=16G")));
  EXPECT_THAT(text, HasSubstr("#SBATCH --output=/scratch/u/run/slurm/logs/merge-%j.out\n"));
  EXPECT_THAT(text, HasSubstr("#SBATCH --cpus-per-task=1\n"));
  EXPECT_THAT(text, Not(HasSubstr("--partition")));
  EXPECT_THAT(text, Not(HasSubstr("--time")));
  EXPECT_THAT(text, Not(HasSubstr("--array")));
  EXPECT_THAT(text, HasSubstr("/opt/pipesim/bin/pipesim merge /scratch/u/run/shards/* --out /scratch/u/run || "
                              "status=$?\n"));
  EXPECT_THAT(text, HasSubstr("then /opt/pipesim/bin/pipesim report /scratch/u/run || status=$?; fi\n"));
  EXPECT_THAT(text, HasSubstr("/opt/pipesim/bin/pipesim campaign status /scratch/u/run || true\n"));
  EXPECT_TRUE(text.ends_with("exit \"$status\"\n"));
}

TEST(SlurmScripts, RefusedSettingsNameTheOption)
{
  EXPECT_EQ(scripts_message_of(settings()), "");
  auto with = [](auto change) {
    SlurmJobSettings s = settings();
    change(s);
    return scripts_message_of(s);
  };
  EXPECT_THAT(with([](auto& s) { s.time = "90 min"; }), HasSubstr("--time 90 min: expected a SLURM time limit"));
  for (const char* good : {"90", "30:00", "2:00:00", "1-0", "1-12:00", "2-00:00:00", "UNLIMITED", "infinite"})
    EXPECT_EQ(with([&](auto& s) { s.time = good; }), "") << good;
  EXPECT_THAT(with([](auto& s) { s.cpus_per_task = 0; }), HasSubstr("--cpus-per-task 0"));
  EXPECT_THAT(with([](auto& s) { s.merge_mem = "16 GB"; }), HasSubstr("--merge-mem 16 GB"));
  EXPECT_EQ(with([](auto& s) { s.merge_mem = "2000"; }), "");
  EXPECT_THAT(with([](auto& s) { s.shard_count = 0; }), HasSubstr("--shards 0"));
  EXPECT_THAT(with([](auto& s) { s.partition = "a b"; }), HasSubstr("--partition 'a b'"));
  EXPECT_THAT(with([](auto& s) { s.sbatch_args = {"account=x"}; }), HasSubstr("--sbatch-arg 'account=x'"));
  EXPECT_THAT(with([](auto& s) { s.sbatch_args = {"--array=1-3"}; }), HasSubstr("pipesim sets --array itself"));
  EXPECT_THAT(with([](auto& s) { s.sbatch_args = {"-a3"}; }), HasSubstr("pipesim sets -a itself"));
  EXPECT_THAT(with([](auto& s) { s.sbatch_args = {"--dependency=afterok:1"}; }), HasSubstr("--dependency"));
  EXPECT_EQ(with([](auto& s) { s.sbatch_args = {"--account=a", "-A", "--array-not-really"}; }), "");
  EXPECT_THAT(with([](auto& s) { s.out_dir = "/scratch/my run"; }), HasSubstr("'/scratch/my run': a path with"));
  EXPECT_THAT(with([](auto& s) { s.out_dir = "/scratch/100%"; }), HasSubstr("'%'"));
  EXPECT_THAT(with([](auto& s) { s.setup = {"a\nb"}; }), HasSubstr("--setup"));
}

TEST(SlurmQueue, SqueueLinesAndStates)
{
  auto jobs = parse_squeue("7|6|1|RUNNING|None\n6|6|3|PENDING|Resources\n9|9|N/A|PENDING|Dependency\n"
                           "12|6|2|CANCELLED|None\ngarbage\n13|13|N/A|WEIRD_STATE|x\n");
  ASSERT_EQ(jobs.size(), 5u);
  EXPECT_EQ(jobs[0].job_id, 7);
  EXPECT_EQ(jobs[0].array_job_id, 6);
  EXPECT_EQ(jobs[0].array_task, 1);
  EXPECT_EQ(jobs[0].state, SlurmState::running);
  EXPECT_EQ(jobs[0].name(), "6_1");
  EXPECT_EQ(jobs[1].array_task, 3);
  EXPECT_EQ(jobs[1].state, SlurmState::pending);
  EXPECT_EQ(jobs[2].array_task, -1);
  EXPECT_EQ(jobs[2].name(), "9");
  EXPECT_EQ(jobs[2].reason, "Dependency");
  EXPECT_EQ(jobs[3].state, SlurmState::cancelled);
  EXPECT_EQ(jobs[4].state, SlurmState::unknown);
  EXPECT_TRUE(in_queue(SlurmState::pending));
  EXPECT_TRUE(in_queue(SlurmState::requeued));
  EXPECT_TRUE(in_queue(SlurmState::unknown)); // never run a shard twice on a guess
  EXPECT_FALSE(in_queue(SlurmState::cancelled));
  EXPECT_FALSE(in_queue(SlurmState::completed));
  EXPECT_FALSE(in_queue(SlurmState::timeout));
  EXPECT_EQ(slurm_state("NODE_FAIL"), SlurmState::node_fail);
  EXPECT_STREQ(to_string(SlurmState::out_of_memory), "OUT_OF_MEMORY");
}

TEST(SlurmQueue, BlockedJobsNameStateAndReason)
{
  // squeue's answer on the local cluster when slurmd could not create a job step's socket (issue 31: the spool under
  // a long path), a held task, and tasks that wait for something that comes by itself
  auto jobs =
      parse_squeue("3|1|1|PENDING|launch failed requeued held\n1|1|2|PENDING|JobHeldUser\n"
                   "4|4|1|PENDING|Resources\n5|4|2|PENDING|BeginTime\n6|6|N/A|PENDING|Dependency\n"
                   "7|6|1|RUNNING|None\n8|8|N/A|REQUEUE_HOLD|None\n9|9|N/A|PENDING|DependencyNeverSatisfied\n"
                   "10|10|N/A|FAILED|NonZeroExitCode\n11|11|N/A|PENDING|ReqNodeNotAvail, UnavailableNodes:n1\n");
  ASSERT_EQ(jobs.size(), 10u);
  EXPECT_EQ(jobs[0].reason, "launch failed requeued held");
  std::vector<std::string> blocked;
  for (const auto& job : jobs)
    blocked.push_back(blocked_reason(job));
  EXPECT_THAT(blocked, ElementsAre("PENDING, launch failed requeued held", "PENDING, JobHeldUser", "", "", "", "",
                                   "REQUEUE_HOLD, no reason given", "PENDING, DependencyNeverSatisfied", "",
                                   "PENDING, ReqNodeNotAvail, UnavailableNodes:n1"));
}

TEST(SlurmQueue, ParsableJobIds)
{
  EXPECT_EQ(parse_job_id("123\n"), 123);
  EXPECT_EQ(parse_job_id("4567;cluster2\n"), 4567);
  EXPECT_EQ(parse_job_id("sbatch: error: Batch job submission failed\n"), 0);
  EXPECT_EQ(parse_job_id(""), 0);
}

TEST(SlurmQueue, ToolsRunWithTheirTimeLimitAndOneOutput)
{
  SlurmTools tools;
  tools.timeout   = 10;
  ProgramResult r = run_slurm_tool(tools, {"sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_EQ(r.status, ProgramStatus::exited);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "out\nerr\n"); // stderr in the same text: sbatch's refusals are quoted from it
  EXPECT_EQ(run_slurm_tool(tools, {"/nonexistent/sbatch"}).status, ProgramStatus::not_found);
  tools.timeout = 0.3;
  EXPECT_EQ(run_slurm_tool(tools, {"sh", "-c", "sleep 30 & sleep 30"}).status, ProgramStatus::timed_out);
}

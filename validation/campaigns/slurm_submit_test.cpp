// `pipesim campaign --slurm` against stand-in sbatch, squeue and scancel scripts: what is submitted, recorded and
// refused (the real SLURM is apps/slurm_cluster_test.cpp's).
#include "base/input_error.hpp"
#include "validation/campaigns/slurm_submit.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace pipesim;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

const char* campaign_text = R"(name: tiny
mode: analytic
base:
  pipeline: {generate: {n: 3, w: [1, 20], delta: [1, 100], seed: 1}}
  platform: {generate: {class: fully-heterogeneous, p: 4, speed: [1, 20], bandwidth: [1, 10], seed: 1}}
  mapper: random.interval
seed: {from: 1, count: 10}
)";

std::string read_file(const std::string& path)
{
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const std::string& path, const std::string& text, bool executable = false)
{
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
  if (executable) ::chmod(path.c_str(), 0755);
}

/// A temporary directory with stand-ins: sbatch logs its arguments and answers the next job id (from 100), squeue
/// prints the file `queue`, scancel logs its arguments.
struct FakeSlurm {
  std::string root;
  SlurmSubmitOptions options;
  Campaign campaign;

  explicit FakeSlurm(const std::string& name)
  {
    root = (fs::temp_directory_path() / fmt::format("pipesim-submit-{}-{}", getpid(), name)).string();
    fs::remove_all(root);
    write_file(root + "/bin/sbatch",
               fmt::format("#!/bin/sh\necho \"$@\" >> {0}/sbatch.log\nn=$(cat {0}/next 2>/dev/null || echo 100)\n"
                           "echo $((n + 1)) > {0}/next\necho \"$n;cluster\"\n",
                           root),
               true);
    write_file(root + "/bin/squeue", fmt::format("#!/bin/sh\ncat {}/queue\n", root), true);
    write_file(root + "/bin/scancel", fmt::format("#!/bin/sh\necho \"$@\" >> {}/scancel.log\n", root), true);
    write_file(root + "/queue", "");
    write_file(root + "/c.yaml", campaign_text);
    campaign                  = parse_campaign(campaign_text, root + "/c.yaml", root);
    campaign.file             = root + "/c.yaml";
    options.job.campaign_file = root + "/c.yaml";
    options.job.out_dir       = root + "/out";
    options.job.executable    = "/opt/bin/pipesim";
    options.job.shard_count   = 3;
    options.command_line      = "pipesim campaign c.yaml --out out --slurm --shards 3";
    options.tools.sbatch      = root + "/bin/sbatch";
    options.tools.squeue      = root + "/bin/squeue";
    options.tools.scancel     = root + "/bin/scancel";
    options.tools.timeout     = 20;
  }

  SubmitOutcome submit() { return submit_campaign(campaign, options); }
  std::string out() const { return root + "/out"; }

  /// Rows of run ids `ids` in shard i (1-based) of 3, as the runner writes them.
  void shard_rows(int shard, const std::vector<int>& ids)
  {
    std::string dir = fmt::format("{}/shards/{}", out(), shard);
    write_file(dir + "/campaign.json", nlohmann::json({{"hash", campaign.hash()}, {"total", 10}}).dump());
    std::string rows;
    for (int id : ids)
      rows += nlohmann::json({{"run_id", id}, {"status", "ok"}}).dump() + "\n";
    write_file(dir + "/results.jsonl", rows);
  }
};

std::string refusal(FakeSlurm& f)
{
  try {
    f.submit();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(SlurmSubmit, FirstCallSubmitsTheArrayThenTheMergeAfterIt)
{
  FakeSlurm f("first");
  SubmitOutcome out = f.submit();
  EXPECT_THAT(out.plan.shards, ElementsAre(1, 2, 3));
  EXPECT_EQ(out.submission.array_job, 100);
  EXPECT_EQ(out.submission.merge_job, 101);
  EXPECT_EQ(read_file(f.root + "/sbatch.log"),
            fmt::format("--parsable {0}/slurm/array.sbatch\n"
                        "--parsable --dependency=afterany:100 {0}/slurm/merge.sbatch\n",
                        f.out()));
  EXPECT_THAT(read_file(f.out() + "/slurm/array.sbatch"), HasSubstr("#SBATCH --array=1-3\n"));
  EXPECT_THAT(read_file(f.out() + "/slurm/array.sbatch"),
              HasSubstr(fmt::format("exec /opt/bin/pipesim campaign {}/c.yaml --out {}/shards/", f.root, f.out())));
  EXPECT_TRUE(fs::is_directory(f.out() + "/slurm/logs"));
  EXPECT_THAT(read_file(f.out() + "/COMMAND"), HasSubstr("pipesim campaign c.yaml --out out --slurm --shards 3\n"));
  auto meta = nlohmann::json::parse(read_file(f.out() + "/slurm/submission.json"));
  EXPECT_EQ(meta["hash"], f.campaign.hash());
  EXPECT_EQ(meta["shards"], 3);
  EXPECT_EQ(meta["total"], 10);
  auto record = nlohmann::json::parse(read_file(f.out() + "/slurm/submissions.jsonl"));
  EXPECT_EQ(record["array_job"], 100);
  EXPECT_EQ(record["merge_job"], 101);
  EXPECT_THAT(out.message, HasSubstr("submitted array job 100: shards 1-3 of 3"));
  EXPECT_THAT(out.message, HasSubstr("submitted merge job 101 (afterany: 100)"));
}

TEST(SlurmSubmit, SecondCallSubmitsOnlyUnfinishedShardsNotQueued)
{
  FakeSlurm f("again");
  f.submit();
  f.shard_rows(1, {0, 3, 6, 9});
  f.shard_rows(2, {1, 4});    // cancelled part-way
  f.shard_rows(3, {2, 5, 8}); // done
  write_file(f.root + "/queue", "100|100|1|COMPLETED|None\n102|100|2|CANCELLED|None\n103|100|3|COMPLETED|None\n"
                                "101|101|N/A|PENDING|Dependency\n");
  SubmitOutcome out = f.submit();
  EXPECT_THAT(out.plan.shards, ElementsAre(2));
  EXPECT_THAT(out.plan.cancel, ElementsAre(101));
  EXPECT_EQ(read_file(f.root + "/scancel.log"), "101\n");
  EXPECT_THAT(read_file(f.out() + "/slurm/array.sbatch"), HasSubstr("#SBATCH --array=2\n"));
  EXPECT_THAT(read_file(f.root + "/sbatch.log"), HasSubstr("--parsable --dependency=afterany:102 "));
  EXPECT_EQ(out.submission.array_job, 102);

  f.options.job.shard_count = 0; // none given: the directory's
  write_file(f.root + "/queue", "102|102|2|RUNNING|None\n103|103|N/A|PENDING|Dependency\n");
  out = f.submit();
  EXPECT_TRUE(out.plan.shards.empty()); // shard 2 is running again: never twice at once
  EXPECT_FALSE(out.plan.merge);
  EXPECT_EQ(out.submission.array_job, 0);
  EXPECT_THAT(out.message, HasSubstr("merge job 103 waits for them: nothing to submit"));
}

TEST(SlurmSubmit, DryRunWritesTheScriptsAndSubmitsNothing)
{
  FakeSlurm f("dry");
  f.options.dry_run      = true;
  f.options.tools.sbatch = "/nonexistent/sbatch"; // not needed for a dry run
  SubmitOutcome out      = f.submit();
  EXPECT_THAT(out.plan.shards, ElementsAre(1, 2, 3));
  EXPECT_EQ(out.submission.array_job, 0);
  EXPECT_TRUE(fs::exists(f.out() + "/slurm/array.sbatch"));
  EXPECT_TRUE(fs::exists(f.out() + "/slurm/merge.sbatch"));
  EXPECT_FALSE(fs::exists(f.out() + "/slurm/submissions.jsonl"));
  EXPECT_THAT(out.message, HasSubstr("would submit array job: shards 1-3 of 3"));

  f.options.job.executable = "pipesim"; // a bare name stays one: the nodes' PATH finds it
  f.submit();
  EXPECT_THAT(read_file(f.out() + "/slurm/array.sbatch"), HasSubstr("\nexec pipesim campaign "));
}

TEST(SlurmSubmit, RefusalsNameWhatIsWrong)
{
  FakeSlurm missing("missing");
  missing.options.tools.sbatch = "/nonexistent/sbatch";
  EXPECT_THAT(refusal(missing), HasSubstr("/nonexistent/sbatch not found in PATH"));
  EXPECT_FALSE(fs::exists(missing.out())); // nothing written

  FakeSlurm too_many("too-many");
  too_many.options.job.shard_count = 11;
  EXPECT_THAT(refusal(too_many), HasSubstr("--shards 11: the campaign has 10 runs"));

  FakeSlurm other("other");
  other.submit();
  other.campaign.text += "# edited\n";
  EXPECT_THAT(refusal(other), HasSubstr("holds campaign 'tiny'"));

  FakeSlurm changed("changed");
  changed.submit();
  changed.options.job.shard_count = 4;
  EXPECT_THAT(refusal(changed), HasSubstr("--shards 4: " + changed.out() + " was submitted with --shards 3"));

  FakeSlurm plain("plain");
  write_file(plain.out() + "/results.jsonl", "");
  EXPECT_THAT(refusal(plain), HasSubstr("holds the results of a campaign run without --slurm"));

  FakeSlurm broken("broken");
  write_file(broken.out() + "/slurm/submission.json", "{\"hash\": ");
  EXPECT_THAT(refusal(broken), HasSubstr("slurm/submission.json: malformed"));

  FakeSlurm deaf("deaf");
  deaf.submit();
  write_file(deaf.root + "/bin/squeue",
             "#!/bin/sh\necho 'slurm_load_jobs error: Unable to contact slurm controller'\n"
             "exit 1\n",
             true);
  EXPECT_THAT(refusal(deaf), HasSubstr("cannot tell whether the jobs of the earlier submission are still queued"));

  FakeSlurm refused("refused");
  write_file(refused.root + "/bin/sbatch",
             "#!/bin/sh\necho 'sbatch: error: invalid partition specified: nope'\nexit 1\n", true);
  EXPECT_THAT(refusal(refused), HasSubstr("invalid partition specified: nope"));
}

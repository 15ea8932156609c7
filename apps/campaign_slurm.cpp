// `pipesim campaign ... --slurm` and `pipesim campaign status DIR`.
#include "apps/campaign_slurm.hpp"

#include "apps/cli_options.hpp"
#include "base/input_error.hpp"
#include "scenarios/campaign.hpp"
#include "validation/campaigns/campaign_status.hpp"
#include "validation/evaluation/run_checks.hpp"

#include <climits>
#include <fmt/format.h>
#include <iostream>

namespace pipesim {

void add_campaign_slurm_options(CLI::App* campaign, CampaignSlurmOptions& o)
{
  SlurmJobSettings& job = o.submit.job;
  job.shard_count       = 0; // none given: the earlier submission's, else default_shard_count
  auto* slurm           = campaign->add_flag(
                "--slurm", o.slurm,
                "Hand the campaign to SLURM: DIR/slurm/array.sbatch (one array task per shard) and DIR/slurm/merge.sbatch "
                          "(afterany: merge, report, status), submitted with sbatch; run again to re-submit unfinished shards "
                          "(docs/cluster.md)");
  std::vector<CLI::Option*> slurm_options{
      campaign
          ->add_option("--shards", job.shard_count,
                       "--slurm: number of shards = array tasks (default: the earlier submission's, else one "
                       "per 1,000 runs)")
          ->check(integer_in(1, INT_MAX)),
      campaign->add_option("--partition", job.partition, "--slurm: SLURM partition (default: the cluster's)"),
      campaign->add_option("--time", job.time, "--slurm: time limit of each job (SLURM format, e.g. 2:00:00)"),
      campaign
          ->add_option("--cpus-per-task", job.cpus_per_task,
                       "--slurm: CPUs of each array task, also its --jobs (default 1)")
          ->check(integer_in(1, INT_MAX)),
      campaign->add_option("--merge-mem", job.merge_mem,
                           "--slurm: memory of the merge job, e.g. 16G (it holds every row: about 9 kB per run)"),
      campaign->add_option("--sbatch-arg", job.sbatch_args,
                           "--slurm: one more #SBATCH option for both scripts, e.g. --sbatch-arg=--account=p42 "
                           "(repeatable)"),
      campaign->add_option("--setup", job.setup,
                           "--slurm: a shell line run before pipesim in both scripts, e.g. 'module load simgrid' "
                           "(repeatable)"),
      campaign->add_option("--executable", job.executable,
                           "--slurm: pipesim as the compute nodes reach it (default: this pipesim's absolute path)"),
      campaign->add_flag("--dry-run", o.submit.dry_run, "--slurm: write the scripts, submit nothing")};
  for (auto* option : slurm_options)
    option->needs(slurm);
  for (const char* own : {"--jobs", "--resume", "--shard", "--only", "--quiet"}) // a submission shows no progress
    if (auto* option = campaign->get_option_no_throw(own)) slurm->excludes(option);

  o.status = campaign->add_subcommand(
      "status", "Progress of a campaign directory: rows done / expected per shard and in total, failed rows, each "
                "array task's SLURM state (when squeue answers), what to re-submit");
  o.status->add_option("dir", o.status_dir, "Campaign output directory (--out of `campaign`)")->required();
  add_format_option(o.status, o.format);
}

void require_campaign_arguments(const std::string& file, const std::string& out_dir)
{
  if (file.empty() || out_dir.empty())
    throw InputError::option(file.empty() ? "campaign" : "--out",
                             "campaign: expected a campaign FILE and --out DIR (or `pipesim campaign status DIR`)");
}

int run_campaign_slurm(CampaignSlurmOptions o, const std::string& file, const std::string& out_dir,
                       const std::string& command_line)
{
  require_campaign_arguments(file, out_dir);
  require_distinct("--sbatch-arg", o.submit.job.sbatch_args, " ");
  Campaign campaign = load_campaign(file);
  std::vector<int> every_run;
  for (const CampaignRun& run : campaign.runs)
    every_run.push_back(run.id);
  check_campaign_runs(campaign, every_run); // before anything is submitted
  o.submit.job.campaign_file = file;
  o.submit.job.out_dir       = out_dir;
  o.submit.command_line      = command_line;
  SubmitOutcome outcome      = submit_campaign(campaign, o.submit);
  std::cout << outcome.message;
  return 0;
}

int run_campaign_status(const CampaignSlurmOptions& o)
{
  CampaignStatus status = campaign_status(o.status_dir, SlurmTools{});
  if (o.format == OutputFormat::json)
    std::cout << status_json(status).dump(2) << "\n";
  else
    std::cout << status_table(status);
  return 0;
}

} // namespace pipesim

// `pipesim campaign`, `merge` and `report`.
#include "apps/campaign_commands.hpp"

#include "base/input_error.hpp"
#include "scenarios/campaign.hpp"
#include "validation/campaigns/campaign_runner.hpp"
#include "validation/campaigns/output_directory.hpp"
#include "validation/reports/report.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <tuple>

namespace pipesim {

namespace {

/// --shard i/N as the runner's 0-based shard index and count: two whole integers around one slash, 1 <= i <= N
/// ("1/2x", "1/2.0", "1/2/3" are refused, not read as 1/2).
void parse_shard(const std::string& shard, RunnerOptions& r)
{
  auto spec = parse_shard_spec(shard);
  if (!spec) throw InputError::option("--shard", shard, "expected i/N, two whole numbers with 1 <= i <= N, e.g. 3/10");
  std::tie(r.shard_index, r.shard_count) = *spec;
}

/// `campaign status DIR` reads a directory and runs nothing: the options of a run have no effect there.
void refuse_run_options_with_status(const CampaignOptions& o)
{
  std::vector<std::string> given;
  if (!o.file.empty()) given.push_back("FILE " + o.file);
  if (!o.out_dir.empty()) given.push_back("--out " + o.out_dir);
  if (o.jobs > 0) given.push_back("--jobs");
  if (o.resume) given.push_back("--resume");
  if (!o.shard.empty()) given.push_back("--shard " + o.shard);
  if (!o.only.empty()) given.push_back("--only");
  if (o.quiet) given.push_back("--quiet");
  if (o.slurm.slurm) given.push_back("--slurm");
  if (!given.empty())
    throw InputError::option("campaign status", o.slurm.status_dir,
                             fmt::format("{} {} no effect there (status reads the directory and runs nothing); give "
                                         "`pipesim campaign status DIR [--format json]` alone",
                                         fmt::join(given, ", "), given.size() == 1 ? "has" : "have"));
}

/// The campaign run here, in worker processes.
int run_campaign_here(const CampaignOptions& o, const Invocation& invocation)
{
  require_campaign_arguments(o.file, o.out_dir);
  if (!invocation.simgrid_args.empty())
    throw InputError::option(invocation.simgrid_args.front(),
                             "campaign: --cfg/--log options go in the campaign's base scenario (simulation.simgrid)");
  Campaign campaign = load_campaign(o.file);
  RunnerOptions r;
  r.out_dir      = o.out_dir;
  r.jobs         = o.jobs;
  r.resume       = o.resume;
  r.only         = o.only;
  r.quiet        = o.quiet;
  r.command_line = invocation.command_line;
  if (!o.shard.empty()) parse_shard(o.shard, r);
  RunnerSummary s = run_campaign(campaign, r);
  std::cerr << fmt::format("pipesim: campaign '{}': {} runs, {} selected, {} already done, {} run now, {} failed; "
                           "results in {}/results.csv\n",
                           campaign.name, s.total, s.selected, s.skipped, s.executed, s.failures, o.out_dir);
  return 0;
}

} // namespace

Command add_campaign_command(CLI::App& app, const Invocation& invocation)
{
  auto o     = std::make_shared<CampaignOptions>();
  auto* camp = app.add_subcommand("campaign", "Run a campaign: sweeps of scenarios in worker processes");
  camp->add_option("file", o->file, "Campaign YAML file (required)");
  add_out_option(camp, o->out_dir,
                 "Output directory (required): new, empty, or holding this campaign's same shard; never one that holds "
                 "another campaign, another shard or another command's output");
  add_jobs_option(camp, o->jobs, "Worker processes (default: number of cores)", "--jobs,-j");
  camp->add_flag("--resume", o->resume, "Continue an interrupted campaign: skip completed runs");
  camp->add_option("--shard", o->shard,
                   "Run shard i of N (i/N, two whole numbers, 1 <= i <= N): runs whose id mod N is i-1");
  camp->add_option("--only", o->only,
                   "Run only these run ids, comma-separated (rerun single rows, into a directory that does not hold "
                   "them; with --shard, ids of that shard)")
      ->delimiter(',');
  add_quiet_option(camp, o->quiet,
                   "No progress on stderr (by default a live line on a terminal, a plain line every 5 s otherwise)");
  add_campaign_slurm_options(camp, o->slurm);
  return {camp, [o, &invocation] { return run_campaign_command(*o, invocation); }};
}

int run_campaign_command(const CampaignOptions& o, const Invocation& invocation)
{
  if (*o.slurm.status) {
    refuse_run_options_with_status(o);
    return run_campaign_status(o.slurm);
  }
  if (o.slurm.slurm) return run_campaign_slurm(o.slurm, o.file, o.out_dir, invocation.command_line);
  return run_campaign_here(o, invocation);
}

Command add_merge_command(CLI::App& app)
{
  auto o = std::make_shared<MergeOptions>();
  auto* merge =
      app.add_subcommand("merge", "Join shard outputs of one campaign, checking no run is missing or doubled");
  merge->add_option("dirs", o->dirs, "Shard output directories")->required();
  add_out_option(merge, o->out_dir,
                 "Merged output directory: not an input, and holding no other campaign or command output (its own "
                 "earlier merge, or the campaign's --slurm directory, may be written again)")
      ->required();
  return {merge, [o] { return run_merge(*o); }};
}

int run_merge(const MergeOptions& o)
{
  merge_campaign_outputs(o.dirs, o.out_dir);
  std::cerr << fmt::format("pipesim: merged {} directories into {}\n", o.dirs.size(), o.out_dir);
  return 0;
}

Command add_report_command(CLI::App& app)
{
  auto o       = std::make_shared<ReportCommandOptions>();
  auto* report = app.add_subcommand("report", "Write DIR/report.html with SVG plots (gnuplot) of a campaign");
  report->add_option("dir", o->dir, "Campaign output directory")->required();
  report->add_option("--x", o->x_axis,
                     "Swept key for the x axis of the per-mapper curves (default: the numeric one with the most "
                     "values); every other swept key but the seed gives its own curves");
  report->add_option("--series", o->series,
                     "A `pipesim simulate --format json` output of a platform with profiles: adds its throughput "
                     "over time (windows, analytic series, re-maps) to the re-mapping section (docs/dynamic.md)");
  return {report, [o] { return run_report(*o); }};
}

int run_report(const ReportCommandOptions& o)
{
  DirectoryContent held = directory_content(o.dir); // it writes report.html and plots there: a campaign's own
  if (held.kind != DirectoryKind::campaign && held.kind != DirectoryKind::slurm_campaign)
    throw InputError::option(
        "report", o.dir,
        fmt::format("holds {}; expected the output directory of a campaign (campaign.json)", held.describe()));
  ReportOptions ro;
  ro.x_key       = o.x_axis;
  ro.series_file = o.series;
  write_report(o.dir, ro);
  std::cerr << fmt::format("pipesim: wrote {}/report.html\n", o.dir);
  if (std::filesystem::exists(o.dir + "/elections-table.md"))
    std::cerr << fmt::format("pipesim: wrote {0}/elections-table.md and {0}/elections-table.csv\n", o.dir);
  if (std::filesystem::exists(o.dir + "/reliability-tables.md"))
    std::cerr << fmt::format("pipesim: wrote {}/reliability-tables.md (seed 004 Tables 2 and 3)\n", o.dir);
  if (std::filesystem::exists(o.dir + "/dynamic-table.md"))
    std::cerr << fmt::format("pipesim: wrote {}/dynamic-table.md (re-mapping during the run)\n", o.dir);
  if (std::filesystem::exists(o.dir + "/hedpm-tables.md"))
    std::cerr << fmt::format("pipesim: wrote {}/hedpm-tables.md (seed 002 Figs. 1-3)\n", o.dir);
  if (std::filesystem::exists(o.dir + "/period-after-crashes.md"))
    std::cerr << fmt::format("pipesim: wrote {}/period-after-crashes.md (period bound after crashes)\n", o.dir);
  return 0;
}

} // namespace pipesim

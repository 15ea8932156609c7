// `pipesim campaign`, `merge` and `report`: sweeps of scenarios run in worker processes, joined and plotted.
#pragma once

#include "apps/campaign_slurm.hpp"
#include "apps/cli_options.hpp"

namespace pipesim {

struct CampaignOptions {
  std::string file;
  std::string out_dir;
  int jobs    = 0;
  bool resume = false;
  std::string shard; // "i/N"
  std::vector<int> only;
  bool quiet = false;
  CampaignSlurmOptions slurm; // --slurm and its options, and the `status` sub-subcommand
};
Command add_campaign_command(CLI::App& app, const Invocation& invocation);
/// `campaign status DIR`, `campaign FILE --out DIR --slurm ...`, or the campaign run here in worker processes.
int run_campaign_command(const CampaignOptions& o, const Invocation& invocation);

struct MergeOptions {
  std::vector<std::string> dirs;
  std::string out_dir;
};
Command add_merge_command(CLI::App& app);
/// Joins shard outputs of one campaign.
int run_merge(const MergeOptions& o);

struct ReportCommandOptions {
  std::string dir;
  std::string x_axis;
  std::string series; // --series: a simulate JSON whose throughput over time the report plots
};
Command add_report_command(CLI::App& app);
/// Writes DIR/report.html and says which tables it wrote beside it.
int run_report(const ReportCommandOptions& o);

} // namespace pipesim

// `pipesim campaign FILE --out DIR --slurm ...` and `pipesim campaign status DIR` (docs/cluster.md).
#pragma once

#include "apps/cli_options.hpp"
#include "validation/campaigns/slurm_submit.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace pipesim {

struct CampaignSlurmOptions {
  bool slurm = false;
  SlurmSubmitOptions submit;
  CLI::App* status = nullptr; // the `status` sub-subcommand
  std::string status_dir;
  OutputFormat format = OutputFormat::table;
};

/// Registers --slurm and its options on the `campaign` subcommand (they need --slurm, and --slurm excludes
/// --jobs, --resume, --shard and --only, which the array tasks set themselves), and the `status` sub-subcommand.
/// The campaign subcommand's FILE and --out must not be `required()` in CLI11 (a required positional would swallow
/// the word `status`): check them with require_campaign_arguments.
void add_campaign_slurm_options(CLI::App* campaign, CampaignSlurmOptions& options);

/// An InputError unless both the campaign file and --out were given.
void require_campaign_arguments(const std::string& file, const std::string& out_dir);

/// Loads the campaign and submits it (or prints what --dry-run would submit); exit code.
int run_campaign_slurm(CampaignSlurmOptions options, const std::string& file, const std::string& out_dir,
                       const std::string& command_line);

/// Prints the status of DIR (table or JSON); exit code 0 whatever the progress.
int run_campaign_status(const CampaignSlurmOptions& options);

} // namespace pipesim

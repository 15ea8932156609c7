// Shared by the reproduction tests (hedpm_reproduction_test.cpp, sv95_reproduction_test.cpp): a shipped campaign run
// end to end in a fresh temporary directory, its rows read back.
#pragma once

#include "scenarios/campaign.hpp"
#include "validation/campaigns/campaign_runner.hpp"
#include "validation/reports/report_data.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <unistd.h>

namespace pipesim::test {

/// Runs `c` (validation/campaigns/<name>.yaml as loaded, possibly edited) with 2 jobs into a fresh directory and
/// returns its results (the runner's summary in `summary`); the directory is removed.
inline CampaignResults run_in_temp(const Campaign& c, const std::string& name, RunnerSummary* summary = nullptr)
{
  namespace fs = std::filesystem;
  auto dir     = fs::temp_directory_path() / fmt::format("pipesim-{}-{}", name, getpid());
  fs::remove_all(dir);
  RunnerOptions o;
  o.out_dir       = dir.string();
  o.jobs          = 2;
  o.quiet         = true;
  RunnerSummary s = run_campaign(c, o);
  if (summary) *summary = s;
  CampaignResults results = load_campaign_results(dir.string());
  fs::remove_all(dir);
  return results;
}

/// validation/campaigns/<name>.yaml, loaded.
inline Campaign shipped_campaign(const std::string& name)
{
  return load_campaign(std::string(PIPESIM_SOURCE_DIR) + "/validation/campaigns/" + name + ".yaml");
}

} // namespace pipesim::test

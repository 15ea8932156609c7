// Campaign files (YAML): a base scenario plus sweeps, expanded into a deterministic list of runs (DESIGN.md §7).
#pragma once

#include "base/enum_names.hpp"
#include "base/source_map.hpp"
#include "base/yaml_node.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace pipesim {

/// analytic: mappers and formulas; simulate: also SimGrid; elections: mappers and formulas, then bbr10's four
/// election heuristics and the §5 MILP on the mapping with every processor alive
/// (validation/campaigns/elections_run.hpp).
enum class CampaignMode { analytic, simulate, elections };
PIPESIM_ENUM_NAMES(CampaignMode, {analytic, "analytic"}, {simulate, "simulate"}, {elections, "elections"});

/// One value per swept key, as written (YAML scalar or collection).
struct CampaignRun {
  int id = 0;
  std::vector<std::pair<std::string, YAML::Node>> params; // swept key -> value, in axis order
  std::uint64_t seed = 0;
  std::string scenario_yaml;    // the complete scenario of this run
  std::string describe() const; // "n=5 mapper=x seed=3"
};

struct CampaignSources; // where the keys of the runs' scenarios come from (campaign.cpp)
struct Scenario;

struct Campaign {
  std::string name;
  std::string file;         // campaign path
  std::string base_dir;     // directory of the campaign file
  std::string scenario_dir; // where the runs' relative platform files resolve (the base scenario's directory)
  std::string text;         // the campaign file's text (hashed to recognise the campaign on --resume / merge)
  CampaignMode mode      = CampaignMode::simulate;
  double run_time_limit  = 600;   // seconds per run
  double milp_time_limit = 60;    // elections mode: CBC's time limit per run (seconds)
  std::set<int> trace_ids{0};     // simulated runs whose event trace is kept (trace-<id>.json)
  std::vector<std::string> swept; // swept keys in axis order ("seed" included when swept)
  std::vector<CampaignRun> runs;
  std::shared_ptr<const CampaignSources> sources; // the base scenario and the sweeps, with their lines

  std::string hash() const; // hex digest of `text`
};

/// Sets the dotted `key` ("simulation.datasets") of the scenario document `root` to `value`, creating maps on the
/// way; a null value removes the key. What a sweep does to the base scenario for each run (and the Python module's
/// Scenario.with_values). InputError at `where` when the key is malformed or goes through a value that is no map.
void set_scenario_key(YAML::Node root, const std::string& key, const YAML::Node& value, const YamlNode& where);

/// Where each key of `run`'s scenario was given: in the base scenario (its file, or the campaign's `base` section),
/// at the line of the value swept for it in the campaign, at the run seed's line for the seeds it sets.
SourceMap run_sources(const Campaign& campaign, const CampaignRun& run);

/// `run`'s scenario, its sources those of run_sources (with the mapper standing in for its mapping); a refusal while
/// parsing it names the campaign's or the base scenario's file and line of its key, not the line of the run's text.
Scenario run_scenario(const Campaign& campaign, const CampaignRun& run);

/// Parses and expands a campaign; every run's scenario is parsed once here, so a campaign that would produce a bad
/// scenario fails before anything runs. Errors are InputError naming the campaign file, line and key; so is a
/// campaign of more than `max_runs` runs (10^7 by default; the fuzz harness uses a small cap).
Campaign load_campaign(const std::string& path);
Campaign parse_campaign(const std::string& text, const std::string& label, const std::string& base_dir,
                        std::size_t max_runs = 10'000'000);

} // namespace pipesim

// Campaign parsing and expansion into runs.
#include "scenarios/campaign.hpp"

#include "scenarios/campaign_axes.hpp"

#include "base/input_error.hpp"
#include "base/yaml_node.hpp"
#include "mappers/mapper.hpp"
#include "scenarios/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <sstream>

namespace pipesim {

namespace {

/// The run seed sets every seed of the scenario that is not swept explicitly.
void apply_seed(YAML::Node doc, std::uint64_t seed, const std::set<std::string>& swept)
{
  if (!doc.IsMap()) return; // parse_scenario refuses it
  auto set_if = [&](const char* section, const char* key, bool only_if_present) {
    std::string full = std::string(section) + "." + key;
    if (swept.count(full)) return;
    YAML::Node s = doc[section];
    if (s.IsDefined() && !s.IsMap()) return; // not a map: parse_scenario says so, with its line (fuzz_campaign)
    if (only_if_present && !s.IsDefined()) return;
    if (!s.IsDefined()) doc[section] = YAML::Node(YAML::NodeType::Map);
    doc[section][key] = seed;
  };
  set_if("simulation", "seed", false);
  set_if("mapper_options", "seed", false);
  if (doc["pipeline"].IsMap() && doc["pipeline"]["generate"].IsMap() && !swept.count("pipeline.generate.seed"))
    doc["pipeline"]["generate"]["seed"] = seed;
  if (doc["platform"].IsMap() && doc["platform"]["generate"].IsMap() && !swept.count("platform.generate.seed"))
    doc["platform"]["generate"]["seed"] = seed;
  if (YAML::Node profiles = doc["platform"].IsMap() ? doc["platform"]["profiles"] : YAML::Node();
      profiles.IsMap() && profiles["generate"].IsMap() && !swept.count("platform.profiles.generate.seed"))
    profiles["generate"]["seed"] = seed; // the load epochs (docs/dynamic.md): a new load with each instance
}

/// The base scenario: its file, or the campaign's `base` section (the runs' keys are read in it, SourceMap).
YamlNode load_base(const YamlNode& root, const std::string& base_dir, std::string& scenario_dir)
{
  YamlNode base = root.at("base");
  scenario_dir  = base_dir;
  if (base.is_scalar()) {
    std::filesystem::path path = base.as_string();
    if (path.is_relative()) path = std::filesystem::path(base_dir) / path;
    std::error_code ec; // a directory or a device (/dev/zero) is no scenario file
    if (!std::filesystem::is_regular_file(path, ec)) base.fail("base scenario file not found (no such regular file)");
    scenario_dir = path.parent_path().string();
    return load_yaml_file(path.string());
  }
  base.require_map();
  return base;
}

/// The campaign's own settings: name, mode, time limits, traced runs.
void parse_settings(const YamlNode& root, const std::string& label, Campaign& c)
{
  c.name = root.has("name") ? root.at("name").as_string() : std::filesystem::path(label).stem().string();
  if (auto mode = root.find("mode")) c.mode = mode->as_enum<CampaignMode>();
  if (auto limit = root.find("run_time_limit")) c.run_time_limit = limit->as_positive();
  if (auto limit = root.find("milp_time_limit")) {
    if (c.mode != CampaignMode::elections) limit->fail_key("applies to mode: elections only");
    c.milp_time_limit = limit->as_positive();
  }
  if (auto trace = root.find("trace")) { // N: the first N runs; [ids]: these runs
    c.trace_ids.clear();
    if (trace->is_sequence()) {
      for (const auto& item : trace->items())
        if (!c.trace_ids.insert(item.as_int_at_least(0)).second) item.fail("this run id is given twice: each once");
    } else {
      for (int id = 0, n = trace->as_int_at_least(0); id < n; ++id)
        c.trace_ids.insert(id);
    }
  }
}

} // namespace

/// Where the keys of the runs' scenarios come from: the base scenario and the axes, whose values know their items.
struct CampaignSources {
  std::optional<YamlNode> base;
  std::vector<Axis> axes;
  std::set<std::string> swept;
};

namespace {

/// The parsed sweep: the axes of the product (in `sources`), where each swept key was given, and the base scenario.
struct Sweep {
  std::shared_ptr<CampaignSources> sources = std::make_shared<CampaignSources>();
  std::vector<std::pair<std::string, YamlNode>> key_nodes;
  bool distinct_seeds = false;
  std::set<std::string> swept;
  YAML::Node base;
  std::string scenario_dir; // where the runs' relative platform files resolve
};

/// The value index of each axis for run `id` (first axis outermost).
std::vector<std::size_t> picks(const std::vector<Axis>& axes, int id)
{
  std::size_t rem = static_cast<std::size_t>(id);
  std::vector<std::size_t> pick(axes.size());
  for (std::size_t a = axes.size(); a-- > 0;) {
    pick[a] = rem % axes[a].size();
    rem /= axes[a].size();
  }
  return pick;
}

/// A run's seed `v`, refused at the line of the item that gave it.
std::uint64_t seed_of(const YAML::Node& v, const YamlNode& item)
{
  SourceMap at;
  at.add("seed", item);
  return with_sources(at, [&] { return static_cast<std::uint64_t>(YamlNode(v, "", "seed").as_int_at_least(0)); });
}

/// Number of runs of the Cartesian product of `axes`; saturates at max_runs + 1 (a product of axis sizes can
/// overflow).
std::size_t product_size(const std::vector<Axis>& axes, std::size_t max_runs)
{
  std::size_t total = 1;
  for (const auto& a : axes)
    total = a.size() != 0 && total > max_runs / a.size() ? max_runs + 1 : total * a.size();
  return total;
}

/// Sets run.params, the swept keys of `doc` and, when the seed is swept, run.seed, for the run.id-th element of the
/// product (first axis outermost); whether the seed is swept.
bool set_run_parameters(const Sweep& sweep, CampaignRun& run, YAML::Node& doc)
{
  const auto& axes                    = sweep.sources->axes;
  const std::vector<std::size_t> pick = picks(axes, run.id);
  bool has_seed                       = false;
  for (std::size_t a = 0; a < axes.size(); ++a)
    for (std::size_t k = 0; k < axes[a].keys.size(); ++k) {
      const std::string& key  = axes[a].keys[k];
      const YAML::Node& value = axes[a].values[k][pick[a]];
      // distinct seeds: a new node (assigning to `value` would write through to the axis: yaml-cpp nodes are
      // references)
      const YamlNode& item = axes[a].sources[k].of(pick[a]);
      YAML::Node v         = key == "seed" && sweep.distinct_seeds
                                 ? YAML::Node(seed_of(axes[a].values[k].front(), item) + static_cast<unsigned>(run.id))
                                 : value;
      run.params.emplace_back(key, v);
      const YamlNode& where = std::find_if(sweep.key_nodes.begin(), sweep.key_nodes.end(), [&](const auto& kn) {
                                return kn.first == key;
                              })->second;
      if (key == "seed") {
        run.seed = seed_of(v, item);
        has_seed = true;
      } else {
        set_scenario_key(doc, key, v, where);
      }
    }
  return has_seed;
}

/// Run `index` of the product: its parameters, seed and scenario YAML; the scenario is parsed here so that a bad
/// one (or one the mode cannot run, or a misspelt mapper) fails before anything runs, at the place of its key in the
/// campaign or the base scenario, the run named first in the message.
CampaignRun expand_run(const Sweep& sweep, std::size_t index, const Campaign& c)
{
  CampaignRun run;
  run.id         = static_cast<int>(index);
  YAML::Node doc = YAML::Clone(sweep.base);
  bool has_seed  = set_run_parameters(sweep, run, doc);
  if (has_seed) apply_seed(doc, run.seed, sweep.swept);
  YAML::Emitter e;
  e << doc;
  run.scenario_yaml = e.c_str();
  try {
    Scenario s = run_scenario(c, run);
    for_scenario(s, [&] {
      if (!s.mapper.empty()) MapperRegistry::instance().create(s.mapper);
      if (c.mode == CampaignMode::elections && s.simulation.model != CommModel::multi_port)
        throw InputError::keyed("simulation.model", s.simulation.model,
                                "mode 'elections' needs the multi-port model (simulation.model: multi-port)");
    });
    if (!has_seed) run.seed = s.simulation.seed;
  } catch (InputError& err) {
    const std::string parameters = run.describe(); // empty for the one run of a campaign without a sweep
    err.prefix_message(parameters.empty() ? fmt::format("run {}: ", run.id)
                                          : fmt::format("run {} ({}): ", run.id, parameters));
    throw;
  }
  return run;
}

} // namespace

// A null value removes the key, so that a zip can give some runs a `mapper` and others a `mapping`.
void set_scenario_key(YAML::Node root, const std::string& key, const YAML::Node& value, const YamlNode& where)
{
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    auto dot = key.find('.', start);
    parts.push_back(key.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  YAML::Node node = root;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    if (parts[i].empty()) where.fail_key(fmt::format("'{}' is not a dotted scenario key", key));
    YAML::Node child = node[parts[i]];
    if (child.IsDefined() && !child.IsMap())
      where.fail_key(fmt::format("'{}' goes through '{}', which is not a mapping in the base scenario", key, parts[i]));
    if (!child.IsDefined()) node[parts[i]] = YAML::Node(YAML::NodeType::Map);
    node.reset(node[parts[i]]);
  }
  if (value.IsNull())
    node.remove(parts.back());
  else
    node[parts.back()] = YAML::Clone(value);
}

SourceMap run_sources(const Campaign& campaign, const CampaignRun& run)
{
  SourceMap sources;
  if (!campaign.sources) return sources;
  const CampaignSources& cs = *campaign.sources;
  if (cs.base) sources.add("", *cs.base);
  const std::vector<std::size_t> pick = picks(cs.axes, run.id);
  for (std::size_t a = 0; a < cs.axes.size(); ++a) // the run seed first: a key swept as such wins (added later)
    for (std::size_t k = 0; k < cs.axes[a].keys.size(); ++k)
      if (cs.axes[a].keys[k] == "seed")
        for (const char* key : {"simulation.seed", "mapper_options.seed", "pipeline.generate.seed",
                                "platform.generate.seed", "platform.profiles.generate.seed"})
          if (!cs.swept.count(key)) sources.add(key, cs.axes[a].sources[k].of(pick[a]));
  for (std::size_t a = 0; a < cs.axes.size(); ++a)
    for (std::size_t k = 0; k < cs.axes[a].keys.size(); ++k)
      if (cs.axes[a].keys[k] != "seed") sources.add(cs.axes[a].keys[k], cs.axes[a].sources[k].of(pick[a]));
  return sources;
}

Scenario run_scenario(const Campaign& campaign, const CampaignRun& run)
{
  const std::string label = fmt::format("{} (run {})", campaign.file, run.id);
  SourceMap sources       = run_sources(campaign, run);
  try {
    Scenario s = parse_scenario(run.scenario_yaml, label, campaign.scenario_dir);
    s.sources  = std::move(sources);
    if (!s.mapping) s.sources.add_stand_in("mapping", "mapper");
    return s;
  } catch (InputError& e) {
    sources.relocate(e, label); // from the lines of the run's text to those of the campaign and base files
    throw;
  }
}

std::string CampaignRun::describe() const
{
  std::string out;
  for (const auto& [key, value] : params) {
    YAML::Emitter e;
    e << YAML::Flow << value;
    out += (out.empty() ? "" : " ") + key + "=" + e.c_str();
  }
  return out;
}

std::string Campaign::hash() const
{
  std::uint64_t h = 1469598103934665603ULL; // FNV-1a
  for (unsigned char c : text)
    h = (h ^ c) * 1099511628211ULL;
  return fmt::format("{:016x}", h);
}

Campaign parse_campaign(const std::string& text, const std::string& label, const std::string& base_dir,
                        std::size_t max_runs)
{
  YamlNode root = load_yaml_text(text, label);
  root.require_map();
  root.allow_only({"name", "mode", "base", "sweep", "zip", "seed", "run_time_limit", "milp_time_limit", "trace"});
  Campaign c;
  c.file     = label;
  c.base_dir = base_dir;
  c.text     = text;
  parse_settings(root, label, c);
  Sweep sweep;
  YamlNode base       = load_base(root, base_dir, sweep.scenario_dir);
  sweep.base          = base.raw(); // each run clones it
  sweep.sources->base = base;
  c.scenario_dir      = sweep.scenario_dir;
  sweep.sources->axes = parse_axes(root, sweep.key_nodes, sweep.distinct_seeds);
  for (const auto& [key, node] : sweep.key_nodes) {
    if (!sweep.swept.insert(key).second) node.fail_key(fmt::format("'{}' is swept twice", key));
    c.swept.push_back(key);
  }
  sweep.sources->swept = sweep.swept;
  c.sources            = sweep.sources;
  std::size_t total    = product_size(sweep.sources->axes, max_runs);
  if (total > max_runs) root.fail_key(fmt::format("the campaign expands to more than {} runs", max_runs));
  for (std::size_t index = 0; index < total; ++index)
    c.runs.push_back(expand_run(sweep, index, c));
  return c;
}

Campaign load_campaign(const std::string& path)
{
  std::ifstream in(path);
  if (!in) throw InputError::in_file(path, 0, "cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  auto dir = std::filesystem::path(path).parent_path().string();
  return parse_campaign(ss.str(), path, dir.empty() ? "." : dir);
}

} // namespace pipesim

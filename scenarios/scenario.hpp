// Scenario files (YAML): pipeline + platform + mapper or explicit mapping + objective + simulation settings.
#pragma once

#include "base/source_map.hpp"
#include "mappers/mapper.hpp"
#include "model/mapping.hpp"
#include "model/network_correction.hpp"
#include "model/pipeline.hpp"
#include "model/variability.hpp"
#include "platforms/platform.hpp"
#include "platforms/platform_edits.hpp"
#include "scenarios/dynamic_spec.hpp"
#include "scenarios/task_chain_spec.hpp"
#include "simulator/simulation.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// An explicit mapping as written, with host names and the lines they came from, resolved once the platform is
/// known (for an XML platform only the simulating process can load it).
struct MappingSpec {
  struct Group {
    std::vector<std::string> hosts;
    int line = 0;
  };
  struct IntervalSpec {
    int first = 1;
    int last  = 1;
    std::vector<Group> replicas;
    Replication replication = Replication::active;
    int line                = 0;
  };
  std::vector<IntervalSpec> intervals;
  std::string file;
  std::optional<YamlNode> node; // the `mapping` section (the places of the keys the model's checks name)
};

/// Resolves host names against the platform; an unknown host is an InputError naming file, line and host.
/// The result is validated against the pipeline and platform (messages also carry file:line).
Mapping resolve_mapping(const MappingSpec& spec, const Pipeline& pipeline, const Platform& platform);

/// Where the platform comes from.
struct PlatformSpec {
  enum class Kind { model, xml } kind = Kind::model;
  Platform model;       // Kind::model: built from YAML (explicit processors or a generator), before `options`
  std::string xml_file; // Kind::xml: path as resolved (exists)
  std::string in_name  = "in";
  std::string out_name = "out";
  PlatformOptions options;            // platform.hosts and platform.edits (applied in load_platform)
  std::vector<HostProfiles> profiles; // Kind::xml: platform.profiles (hosts), added to the XML's own in load_platform
  int line = 0;
};

struct Scenario {
  std::string file; // the scenario's path ("<string>" when parsed from text)
  std::string name;
  Pipeline pipeline;
  VariabilitySpec variability; // pipeline.variability: laws of each data set's w_i and delta_i (deterministic default)
  PlatformSpec platform;
  std::string mapper = explicit_mapper_name;
  std::optional<MappingSpec> mapping;
  std::optional<TaskChainSpec> task_chain; // sv95's tasks; then `pipeline` stands for them (one stage each)
  Objective objective;
  MapperOptions mapper_options;
  SimulationSettings simulation;      // its `model` is the mappers' communication model too
  std::optional<DynamicSpec> dynamic; // re-mapping during the run (scenarios/dynamic_spec.hpp)
  /// `analytic.network`: the network the analytic figures and the event graph assume (model/network_correction.hpp);
  /// the mappers always map on the platform as given.
  AnalyticNetwork analytic_network = AnalyticNetwork::exact;
  /// Where each key came from: the file's nodes, the command-line options that overrode keys, the run of a campaign
  /// (docs/scenarios.md "Errors"); with a `mapper`, the mapper stands in for `mapping` (the mapping it returns).
  SourceMap sources;
  /// `analytic.max_states`: the chain of markings of the exponential period stops beyond it (random times only).
  long long analytic_max_states = 0; // 0: the chain's own limit (ExponentialOptions::max_states)
};

/// Runs `f` on behalf of `scenario`: an InputError about a key of it gets that key's file and line (with_sources).
template <class F>
decltype(auto) for_scenario(const Scenario& scenario, F&& f)
{
  return with_sources(scenario.sources, std::forward<F>(f));
}

/// A model platform (Kind::model) with its selection and edits applied.
Platform model_platform(const PlatformSpec& spec);

/// Loads a scenario file; every problem is an InputError naming file, line, key and value.
Scenario load_scenario(const std::string& path);
/// Same from text; `label` stands for the file name in messages; relative XML paths resolve against `base_dir`.
Scenario parse_scenario(const std::string& text, const std::string& label, const std::string& base_dir = ".");

/// What a scenario written to `out_file` (a copy or a variant of a loaded one) says for a file the original gave as
/// `given` and that resolved to `resolved` (PlatformSpec::xml_file): `given` when it is absolute or names that same
/// file from out_file's folder, else the absolute path of `resolved`; so the written scenario loads from any working
/// directory (a relative `resolved` is relative to the working directory of the load).
std::string file_reference(const std::string& given, const std::string& resolved, const std::string& out_file);

} // namespace pipesim

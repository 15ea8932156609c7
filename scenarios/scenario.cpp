// Scenario files (YAML) read strictly: every problem is an InputError naming file, line, key and value.
//
// Choices:
// - `name` defaults to the stem of the file (of the label for parse_scenario); Scenario::file is the label.
// - `pipeline`, `platform` and exactly one of `mapper` / `mapping` are required; every other section and key is
//   optional and keeps the defaults of the structs.
// - `pipeline.generate.seed` is required, as for `platform.generate` (not defaulted to simulation.seed: changing the
//   simulation seed must not change the instance); `generate.n` is capped at 1,000,000 stages. With
//   `generate.preset`, w and delta are optional and override the preset's ranges (docs/generators.md).
// - `platform.file`: the path is taken as given if it names a file from the current directory, else relative to the
//   scenario's directory; it is stored as found (lexically normalised, not made absolute). The XML is not loaded
//   here (that needs a SimGrid engine, in the simulating process). `io` keys default to "in" / "out".
// - An explicit mapping on a model platform is resolved at load time, so its errors surface here; on an XML
//   platform only the stage checks run here and host names are resolved by resolve_mapping after loading.
// - In `mapping`, a replica written as a bare host name is a one-host replica (`replicas: [P1, P2]` = two replicas),
//   a list is one group (`[[P1, P2]]` = one data-parallel group); `stages` also takes a bare stage number.
//   Messages name the interval or group as `mapping[j].stages` / `mapping[j].replicas[r]`.
// - `mapper: explicit` without a `mapping` is an error (the explicit mapper has nothing to map).
// - `mapper_options.seed` defaults to simulation.seed; seeds are integers >= 0. `mapper_options.period_test`
//   (worst-case, the default, or all-alive-best-election) is read by the bbr10 reliability heuristics only.
// - `simulation.failures` is read by scenarios/failure_spec.cpp; trace hosts are checked here against a YAML
//   platform (with their lines), and against an XML platform only when the crash schedule is drawn.
// - `simulation` is read by scenarios/simulation_spec.cpp.
// - `pipeline.variability` (random operation times) is read by scenarios/variability_spec.cpp; its sample files
//   resolve like `platform.file`; without its own `seed` the simulation's seed keys the draws.
// - `analytic: {network: exact | lv08}` (default exact) says which network the analytic figures assume; a task chain
//   (sv95's response functions) refuses lv08, its times are not transfers on links.
#include "scenarios/scenario.hpp"

#include "base/input_error.hpp"
#include "base/yaml_node.hpp"
#include "base/yaml_range.hpp"
#include "model/exponential_period.hpp"
#include "model/pipeline_generator.hpp"
#include "model/pipeline_presets.hpp"
#include "platforms/platform_yaml.hpp"
#include "platforms/profile_yaml.hpp"
#include "scenarios/failure_spec.hpp"
#include "scenarios/mapping_spec.hpp"
#include "scenarios/simulation_spec.hpp"
#include "scenarios/variability_spec.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <system_error>

namespace pipesim {

namespace fs = std::filesystem;

namespace {

constexpr int max_generated_stages = 1'000'000;

std::string parse_name(const YamlNode& node)
{
  std::string s = node.as_string();
  if (s.empty()) node.fail("expected a non-empty string");
  return s;
}

/// `preset: NAME` (model/pipeline_presets.hpp) gives w and delta; a `w` or `delta` key given overrides it.
Pipeline parse_generated_pipeline(const YamlNode& node)
{
  node.require_map();
  node.allow_only({"preset", "n", "w", "delta", "seed"});
  const PipelinePreset* preset = nullptr;
  if (auto name = node.find("preset")) {
    preset = find_pipeline_preset(name->as_string());
    if (!preset) name->fail(fmt::format("unknown pipeline preset (expected one of: {})", pipeline_preset_names()));
  }
  const YamlNode n_node = node.at("n");
  int n                 = n_node.as_int_at_least(1);
  if (n > max_generated_stages) n_node.fail(fmt::format("expected at most {} stages", max_generated_stages));
  auto w_node     = preset ? node.find("w") : node.at("w");
  auto delta_node = preset ? node.find("delta") : node.at("delta");
  Range w         = w_node ? parse_range(*w_node, false) : preset->w;
  Range delta     = delta_node ? parse_range(*delta_node, false) : preset->delta;
  return generate_pipeline(n, w, delta, parse_seed(node.at("seed")));
}

Pipeline parse_pipeline(const YamlNode& node)
{
  node.require_map();
  node.allow_only({"w", "delta", "generate", "variability"});
  if (auto generate = node.find("generate")) {
    if (node.has("w") || node.has("delta")) node.fail_key("give either w and delta, or generate, not both");
    return parse_generated_pipeline(*generate);
  }
  Pipeline pipeline;
  const YamlNode w = node.at("w");
  for (const YamlNode& item : w.items())
    pipeline.w.push_back(item.as_nonnegative());
  if (pipeline.w.empty()) w.fail("expected at least one stage");
  const YamlNode delta              = node.at("delta");
  const std::vector<YamlNode> items = delta.items();
  if (items.size() != pipeline.w.size() + 1)
    delta.fail(fmt::format("expected n+1 = {} values (n = {} stages in w), got {}", pipeline.w.size() + 1,
                           pipeline.w.size(), items.size()));
  for (const YamlNode& item : items)
    pipeline.delta.push_back(item.as_nonnegative());
  return pipeline;
}

void parse_platform_options(const YamlNode& node, PlatformSpec& spec)
{
  if (auto hosts = node.find("hosts")) spec.options.hosts = parse_host_pattern(*hosts);
  if (auto edits = node.find("edits")) spec.options.edits = parse_platform_edits(*edits);
  if (spec.kind == PlatformSpec::Kind::model) (void)model_platform(spec); // selection and edits checked now
}

PlatformSpec parse_platform(const YamlNode& node, const std::string& base_dir)
{
  node.require_map();
  PlatformSpec spec;
  spec.line = node.line();
  if (!node.has("file")) {
    spec.kind     = PlatformSpec::Kind::model;
    spec.model    = parse_platform_yaml(node);
    spec.in_name  = spec.model.in_name();
    spec.out_name = spec.model.out_name();
    if (auto profiles = node.find("profiles"))
      spec.model.set_profiles(parse_profiles_yaml(*profiles, base_dir, &spec.model));
    parse_platform_options(node, spec);
    return spec;
  }
  node.allow_only({"file", "io", "hosts", "edits", "profiles"});
  spec.kind     = PlatformSpec::Kind::xml;
  spec.xml_file = resolve_yaml_file(node.at("file"), base_dir);
  if (auto io = node.find("io")) {
    io->require_map();
    io->allow_only({"in", "out"});
    if (auto in = io->find("in")) spec.in_name = parse_name(*in);
    if (auto out = io->find("out")) spec.out_name = parse_name(*out);
  }
  if (auto profiles = node.find("profiles")) spec.profiles = parse_profiles_yaml(*profiles, base_dir, nullptr).hosts;
  parse_platform_options(node, spec);
  return spec;
}

Objective parse_objective(const YamlNode& node)
{
  node.require_map();
  node.allow_only({"minimize", "period_bound"});
  Objective objective;
  objective.kind = node.at("minimize").as_enum<Objective::Kind>();
  auto bound     = node.find("period_bound");
  switch (objective.kind) {
  case Objective::Kind::min_period:
    if (bound) bound->fail("period_bound only applies to minimize: failure_probability");
    break;
  case Objective::Kind::min_failure_probability:
    if (!bound) node.fail_key("minimize: failure_probability needs a period_bound (a period > 0)");
    objective.period_bound = bound->as_positive();
    break;
  }
  return objective;
}

MapperOptions parse_mapper_options(const YamlNode& node, std::uint64_t default_seed)
{
  node.require_map();
  node.allow_only({"time_limit", "seed", "period_test"});
  MapperOptions options;
  options.seed = default_seed;
  if (auto limit = node.find("time_limit")) options.time_limit = limit->as_positive();
  if (auto seed = node.find("seed")) options.seed = parse_seed(*seed);
  if (auto test = node.find("period_test")) options.period_test = test->as_enum<PeriodTest>("period test");
  return options;
}

/// `analytic: {network: exact | lv08}`.
void parse_analytic(const YamlNode& node, Scenario& scenario)
{
  node.require_map();
  node.allow_only({"network", "max_states"});
  if (auto states = node.find("max_states")) {
    const long long value = states->as_integer();
    if (value < 1 || value > ExponentialOptions{}.max_states)
      states->fail(fmt::format("expected a number of states in [1, {}] (the chain of markings of the exponential "
                               "period takes about 170 bytes and 10 us per state)",
                               ExponentialOptions{}.max_states));
    scenario.analytic_max_states = value;
  }
  if (auto network = node.find("network")) {
    scenario.analytic_network = network->as_enum<AnalyticNetwork>();
    if (scenario.task_chain && scenario.analytic_network != AnalyticNetwork::exact)
      network->fail("a task_chain's times are seed 001's response functions, not transfers on links: only exact "
                    "applies");
  }
}

/// `mapper` or `mapping`, exactly one of them.
void parse_mapper_choice(const YamlNode& root, Scenario& scenario)
{
  auto mapper  = root.find("mapper");
  auto mapping = root.find("mapping");
  if (mapper && mapping)
    mapping->fail_key("give either mapper (a mapper's name) or mapping (an explicit mapping), not both");
  if (!mapper && !mapping)
    throw InputError::at(root.file(), root.line(), "mapper",
                         "missing key (and no 'mapping'): give a mapper's name or an explicit mapping");
  if (mapping) {
    scenario.mapper  = explicit_mapper_name;
    scenario.mapping = parse_mapping_spec(*mapping);
    return;
  }
  scenario.mapper = parse_name(*mapper);
  if (scenario.mapper == explicit_mapper_name)
    mapper->fail("the explicit mapper needs a `mapping:` section instead of `mapper:`");
  scenario.sources.add_stand_in("mapping", "mapper"); // a refusal of the mapping is about the mapper that returned it
}

void check_mapping(const Scenario& scenario)
{
  if (!scenario.mapping) return;
  if (scenario.platform.kind == PlatformSpec::Kind::model)
    resolve_mapping(*scenario.mapping, scenario.pipeline, model_platform(scenario.platform));
  else
    check_mapping_stages(*scenario.mapping, scenario.pipeline.n());
}

/// `dynamic:` (scenarios/dynamic_spec.hpp) with what it needs of the rest of the scenario.
void parse_dynamic(const YamlNode& node, Scenario& scenario)
{
  if (scenario.task_chain) node.fail_key("seed 001's task chains do not re-map (the pipeline executions do)");
  scenario.dynamic  = parse_dynamic_spec(node, scenario.pipeline.n());
  const bool repair = scenario.dynamic->remap.repair;
  if (scenario.simulation.failures.enabled() && !repair)
    node.fail_key("a re-mapping policy runs without simulation.failures unless dynamic.on_crash is remap");
  if (repair && scenario.simulation.failures.model == FailureModel::platform)
    node.fail_key("on_crash: remap repairs the crashes of a schedule (failures model probability, exponential or "
                  "trace), not the XML platform's state profiles (model platform): not built yet");
  if (repair && scenario.simulation.runs > 1)
    node.fail_key("on_crash: remap runs one crash run (simulation.runs 1): a Monte Carlo series of repairs is not "
                  "built yet (validation/studies/crash_repair.hpp compares schedules)");
  // a registered policy may decide without a mapper (its view's map() then maps with the explicit one)
  const RemapPolicyKind kind = scenario.dynamic->policy;
  if (((kind != RemapPolicyKind::static_mapping && kind != RemapPolicyKind::registered) || repair) &&
      scenario.dynamic->mapper.empty() && scenario.mapper == explicit_mapper_name)
    node.fail_key(fmt::format("policy {}{} re-maps with a mapper: give dynamic.mapper (the scenario's mapping is "
                              "explicit)",
                              scenario.dynamic->policy_name(), repair ? " with on_crash: remap" : ""));
}

Scenario parse_body(const YamlNode& root, const std::string& label, const std::string& base_dir, SourceMap sources)
{
  if (!root.is_map())
    throw InputError::in_file(label, root.line(),
                              "a scenario is a mapping of keys (name, pipeline, platform, mapper or mapping, ...)");
  root.allow_only({"name", "pipeline", "task_chain", "platform", "mapper", "mapping", "objective", "mapper_options",
                   "simulation", "analytic", "dynamic"});
  Scenario scenario;
  scenario.sources = std::move(sources);
  scenario.file    = label;
  scenario.name    = fs::path(label).stem().string();
  if (auto name = root.find("name")) scenario.name = parse_name(*name);
  if (auto simulation = root.find("simulation")) scenario.simulation = parse_simulation(*simulation);
  if (auto chain = root.find("task_chain")) { // scenarios/task_chain_spec.hpp
    if (root.has("pipeline")) chain->fail_key("give either pipeline or task_chain (one stage per task), not both");
    scenario.task_chain = parse_task_chain_spec(*chain);
    scenario.pipeline   = task_chain_pipeline(scenario.task_chain->chain);
  } else {
    scenario.pipeline = parse_pipeline(root.at("pipeline"));
    if (auto variability = root.at("pipeline").find("variability"))
      scenario.variability = parse_variability_spec(
          *variability, scenario.pipeline.n(), [&](const YamlNode& file) { return resolve_yaml_file(file, base_dir); });
  }
  scenario.platform = parse_platform(root.at("platform"), base_dir);
  if (auto profiles = root.at("platform").find("profiles"); profiles && scenario.task_chain)
    profiles->fail_key("seed 001's task chains run on platforms whose values do not change (their response "
                       "functions are measured on one); leave platform.profiles out");
  parse_mapper_choice(root, scenario);
  if (auto objective = root.find("objective")) scenario.objective = parse_objective(*objective);
  scenario.mapper_options.seed = scenario.simulation.seed;
  if (auto options = root.find("mapper_options"))
    scenario.mapper_options = parse_mapper_options(*options, scenario.simulation.seed);
  check_mapping(scenario);
  if (scenario.task_chain && scenario.platform.kind == PlatformSpec::Kind::model) { // XML: in map_scenario
    Platform platform = model_platform(scenario.platform);
    complete_task_chain_spec(*scenario.task_chain, platform);
    check_task_chain_spec(*scenario.task_chain, platform.p());
  }
  if (scenario.task_chain && scenario.mapping) check_task_chain_mapping(*scenario.task_chain, *scenario.mapping);
  if (auto analytic = root.find("analytic")) parse_analytic(*analytic, scenario);
  if (auto simulation = root.find("simulation"))
    if (auto failures = simulation->find("failures"))
      check_failure_settings(*failures, scenario.simulation.failures, scenario.platform);
  if (auto dynamic = root.find("dynamic")) parse_dynamic(*dynamic, scenario);
  return scenario;
}

/// The scenario of `root`; a refusal by code that does not know the file (a generator, the model's checks of a
/// mapping or a task chain) gets the place of its key.
Scenario parse_root(const YamlNode& root, const std::string& label, const std::string& base_dir)
{
  SourceMap sources;
  sources.add("", root);
  return with_sources(sources, [&] { return parse_body(root, label, base_dir, sources); });
}

} // namespace

Platform model_platform(const PlatformSpec& spec) { return apply_platform_options(spec.model, spec.options); }

std::string file_reference(const std::string& given, const std::string& resolved, const std::string& out_file)
{
  const fs::path as_given(given), out_dir = fs::absolute(out_file).parent_path();
  std::error_code ec;
  if (as_given.is_absolute() || fs::equivalent(out_dir / as_given, resolved, ec)) return given;
  return fs::absolute(resolved).lexically_normal().string();
}

Scenario load_scenario(const std::string& path)
{
  YamlNode root        = load_yaml_file(path);
  std::string base_dir = fs::path(path).parent_path().string();
  return parse_root(root, path, base_dir.empty() ? "." : base_dir);
}

Scenario parse_scenario(const std::string& text, const std::string& label, const std::string& base_dir)
{
  return parse_root(load_yaml_text(text, label), label, base_dir);
}

} // namespace pipesim

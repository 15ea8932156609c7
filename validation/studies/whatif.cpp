// What-if studies: variants of a scenario's platform, evaluated with the baseline's mapping and re-mapped.
#include "validation/studies/whatif.hpp"

#include "base/input_error.hpp"
#include "base/table.hpp"
#include "base/yaml_node.hpp"
#include "validation/evaluation/result_output.hpp"
#include "validation/evaluation/scenario_run.hpp"
#include "validation/reports/gnuplot.hpp"
#include "validation/studies/whatif_plots.hpp"

#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace pipesim {

namespace {

std::vector<WhatIfVariant> parse_variants(const YamlNode& root)
{
  YamlNode list = root;
  if (root.is_map()) {
    root.allow_only({"variants"});
    list = root.at("variants");
  }
  if (!list.is_sequence() || list.items().empty())
    list.fail("expected a list of variants, each {name: ..., edits: [...]} (docs/whatif.md)");
  std::vector<WhatIfVariant> variants;
  for (const auto& item : list.items()) {
    item.require_map();
    item.allow_only({"name", "edits"});
    WhatIfVariant v;
    v.name = item.at("name").as_string();
    if (v.name.empty()) item.at("name").fail("expected a non-empty name");
    for (const auto& other : variants)
      if (other.name == v.name) item.at("name").fail("two variants have this name");
    v.edits = parse_platform_edits(item.at("edits"));
    v.node  = item.at("edits");
    if (v.edits.empty()) item.at("edits").fail("expected at least one edit");
    variants.push_back(std::move(v));
  }
  return variants;
}

WhatIfFigures figures_of(const ScenarioRun& run)
{
  WhatIfFigures f;
  f.mapping          = to_text(run.mapper.mapping, run.platform);
  f.analytic_period  = run.analytic.period;
  f.analytic_latency = run.analytic.latency;
  f.reliability      = 1 - run.analytic.failure_probability;
  if (run.simulated) {
    const FailureOutcome& o = run.simulated->failures;
    if (o.failed())
      f.verdict = fmt::format("failed at t = {:.6g} ({} of {} data sets delivered)", o.failure_time, o.delivered,
                              run.scenario.simulation.datasets);
    else
      f.simulated_period = run.simulated->period;
    if (std::isfinite(run.simulated_latency)) f.simulated_latency = run.simulated_latency;
  }
  if (run.monte_carlo) {
    f.survival_rate = run.monte_carlo->survival_rate;
    f.survival_low  = run.monte_carlo->ci95.low;
    f.survival_high = run.monte_carlo->ci95.high;
  }
  return f;
}

WhatIfFigures without_figures(WhatIfStatus status, std::string note)
{
  WhatIfFigures f;
  f.status = status;
  f.note   = std::move(note);
  return f;
}

Scenario with_edits(const Scenario& scenario, const WhatIfVariant& variant)
{
  Scenario v = scenario;
  v.platform.options.edits.insert(v.platform.options.edits.end(), variant.edits.begin(), variant.edits.end());
  if (variant.node) v.sources.add("platform.edits", *variant.node); // a refusal of the edits: the edits file's line
  return v;
}

/// The scenario's mapper, or WhatIfOptions::mapper; empty when it cannot map (an explicit mapping without --mapper).
Scenario remapping_scenario(const Scenario& scenario, const WhatIfOptions& options)
{
  Scenario s = scenario;
  if (!options.mapper.empty()) {
    s.mapper = options.mapper;
    s.mapping.reset();
    s.sources.add_option("mapper", "--mapper", options.mapper);
    s.sources.add_stand_in("mapping", "mapper");
  }
  return s;
}

WhatIfFigures remapped(const Scenario& variant, const WhatIfOptions& options)
{
  if (variant.mapping)
    return without_figures(WhatIfStatus::not_applicable,
                           "the scenario gives its mapping: pass --mapper NAME to re-map the edited platforms");
  ScenarioRun run = map_scenario(variant);
  if (!run.has_mapping())
    return without_figures(WhatIfStatus::infeasible,
                           run.mapper.note.empty() ? "the mapper found no mapping" : run.mapper.note);
  if (options.simulate && !run.deadlock) simulate_run(run, options.jobs);
  return figures_of(run);
}

/// The baseline's mapping, by host names, on the edited platform.
WhatIfFigures fixed(const Scenario& variant, const ScenarioRun& base, const WhatIfOptions& options, Platform& platform)
{
  ScenarioRun run;
  run.scenario = variant;
  run.platform = platform;
  Mapping mapping;
  for (const auto& in : base.mapper.mapping.intervals) {
    Interval out = in;
    for (auto& group : out.replicas)
      for (int& u : group) {
        const std::string& name = base.platform.node_name(u);
        auto found              = platform.find(name);
        if (!found)
          return without_figures(WhatIfStatus::removed, fmt::format("host '{}' of the baseline's mapping is not a "
                                                                    "processor of this platform",
                                                                    name));
        u = *found;
      }
    mapping.intervals.push_back(std::move(out));
  }
  run.mapper.mapping = mapping;
  run.mapper.status  = SolveStatus::feasible;
  run.rule           = classify(mapping);
  if (auto pair = unreachable_pair(mapping, platform)) {
    WhatIfFigures f = without_figures(WhatIfStatus::unreachable,
                                      fmt::format("the mapping sends from '{}' to '{}', which have no "
                                                  "route",
                                                  platform.node_name(pair->first), platform.node_name(pair->second)));
    f.mapping       = to_text(mapping, platform);
    return f;
  }
  analyze_run(run);
  if (options.simulate && !run.deadlock) simulate_run(run, options.jobs);
  return figures_of(run);
}

std::string whatif_number(double x) { return format_number(x, ".6g"); }
template <class T>
nlohmann::json json_optional(const std::optional<T>& x)
{
  if (!x) return nullptr;
  if constexpr (std::is_same_v<T, double>)
    return json_number(*x);
  else
    return *x;
}

/// Relative change from the baseline, "+12.5 %", or "" when either side has no value.
std::string change(std::optional<double> value, std::optional<double> base)
{
  if (!value || !base || !std::isfinite(*value) || !std::isfinite(*base) || *base == 0) return "";
  return fmt::format("{:+.1f} %", 100 * (*value / *base - 1));
}

std::optional<double> analytic_period(const WhatIfFigures& f)
{
  return f.status == WhatIfStatus::ok || f.analytic_period > 0 ? std::optional<double>(f.analytic_period)
                                                               : std::nullopt;
}
std::optional<double> reliability(const WhatIfFigures& f)
{
  return f.status == WhatIfStatus::ok ? std::optional<double>(f.reliability) : std::nullopt;
}

nlohmann::json figures_json(const WhatIfFigures& f, const WhatIfFigures& base)
{
  nlohmann::json j = {{"status", to_string(f.status)}};
  if (!f.note.empty()) j["note"] = f.note;
  if (f.status != WhatIfStatus::ok && f.mapping.empty()) return j;
  j["mapping"]   = f.mapping;
  j["analytic"]  = {{"period", json_number(f.analytic_period)},
                    {"latency", json_number(f.analytic_latency)},
                    {"reliability", json_number(f.reliability)}};
  j["simulated"] = {
      {"period", json_optional(f.simulated_period)},
      {"latency", json_optional(f.simulated_latency)},
      {"verdict", json_optional(f.verdict)},
      {"survival_rate", json_optional(f.survival_rate)},
      {"survival_ci", f.survival_rate ? nlohmann::json{*f.survival_low, *f.survival_high} : nlohmann::json(nullptr)}};
  auto ratio = [](std::optional<double> a, std::optional<double> b) {
    if (!a || !b || !std::isfinite(*a) || !std::isfinite(*b) || *b == 0) return nlohmann::json(nullptr);
    return nlohmann::json(*a / *b);
  };
  j["ratio_to_baseline"] = {{"analytic_period", ratio(analytic_period(f), analytic_period(base))},
                            {"simulated_period", ratio(f.simulated_period, base.simulated_period)},
                            {"analytic_latency", ratio(f.analytic_latency, base.analytic_latency)},
                            {"reliability", ratio(reliability(f), reliability(base))}};
  return j;
}

std::string optional_text(std::optional<double> x) { return x ? whatif_number(*x) : "-"; }

std::string table_line(const std::string& label, const WhatIfFigures& f, const WhatIfFigures& base)
{
  if (f.status != WhatIfStatus::ok && !f.verdict) return fmt::format("  {:<10} {}: {}\n", label, f.status, f.note);
  bool ok         = f.status == WhatIfStatus::ok;
  auto text       = [&](double x) { return ok ? whatif_number(x) : std::string("-"); };
  std::string out = fmt::format("  {:<10} {:<12} {:>9} {:<10} {:<12} {:>9} {:<10} {:<10} {}\n", label,
                                text(f.analytic_period), change(analytic_period(f), analytic_period(base)),
                                f.verdict ? "-" : optional_text(f.simulated_period), text(f.analytic_latency),
                                ok ? change(f.analytic_latency, base.analytic_latency) : "", text(f.reliability),
                                f.survival_rate ? whatif_number(*f.survival_rate) : "-", f.mapping);
  if (f.verdict) out += fmt::format("  {:<10} simulated: {}\n", "", *f.verdict);
  if (!ok) out += fmt::format("  {:<10} {}: {}\n", "", f.status, f.note);
  return out;
}

} // namespace

std::vector<WhatIfVariant> load_whatif_variants(const std::string& path)
{
  return parse_variants(load_yaml_file(path));
}

std::vector<WhatIfVariant> parse_whatif_variants(const std::string& text, const std::string& label)
{
  return parse_variants(load_yaml_text(text, label));
}

namespace {
WhatIfStudy whatif_unlocated(const Scenario& scenario, const std::vector<WhatIfVariant>& variants,
                             const WhatIfOptions& options)
{
  WhatIfStudy study;
  study.scenario      = scenario.name;
  study.scenario_file = scenario.file;
  study.seed          = scenario.simulation.seed;
  ScenarioRun base    = map_scenario(scenario);
  study.mapper        = scenario.mapping ? "explicit" : scenario.mapper;
  if (!base.has_mapping())
    throw InputError::keyed(scenario.mapping ? "mapping" : "mapper",
                            fmt::format("the baseline has no mapping ({}): nothing to compare",
                                        base.mapper.note.empty() ? "the mapper found none" : base.mapper.note));
  Progress progress("whatif", "variants", static_cast<long>(variants.size()) + 1, options.progress);
  if (options.simulate && !base.deadlock) simulate_run(base, options.jobs);
  study.baseline = figures_of(base);
  progress.advance();
  Scenario remap_base = remapping_scenario(scenario, options);
  if (!options.mapper.empty()) study.mapper = options.mapper;
  for (const auto& variant : variants) {
    WhatIfRow row;
    row.variant       = variant.name;
    Scenario edited   = with_edits(scenario, variant);
    Platform platform = load_platform(edited); // bad edits: InputError naming the edits file and line
    const auto& all   = platform.applied_edits();
    row.edits.assign(all.end() - static_cast<std::ptrdiff_t>(variant.edits.size()), all.end());
    row.fixed    = fixed(edited, base, options, platform);
    row.remapped = remapped(with_edits(remap_base, variant), options);
    study.rows.push_back(std::move(row));
    progress.advance();
  }
  progress.finish();
  return study;
}
} // namespace

WhatIfStudy run_whatif(const Scenario& scenario, const std::vector<WhatIfVariant>& variants,
                       const WhatIfOptions& options)
{
  return for_scenario(scenario, [&] { return whatif_unlocated(scenario, variants, options); });
}

void to_json(nlohmann::json& j, const WhatIfStudy& study)
{
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : study.rows) {
    nlohmann::json edits = nlohmann::json::array();
    for (const auto& e : row.edits)
      edits.push_back({{"edit", e.edit}, {"matched", e.matched}});
    rows.push_back({{"variant", row.variant},
                    {"edits", edits},
                    {"fixed", figures_json(row.fixed, study.baseline)},
                    {"remapped", figures_json(row.remapped, study.baseline)}});
  }
  j = {{"scenario", study.scenario},
       {"scenario_file", study.scenario_file},
       {"mapper", study.mapper},
       {"seed", study.seed},
       {"baseline", figures_json(study.baseline, study.baseline)},
       {"variants", rows}};
  if (!study.command_line.empty()) j["command"] = study.command_line;
}

std::string whatif_table(const WhatIfStudy& study)
{
  std::string out = fmt::format("scenario   {} ({}), mapper {}, seed {}\n\n", study.scenario, study.scenario_file,
                                study.mapper, study.seed);
  out += fmt::format("  {:<10} {:<12} {:>9} {:<10} {:<12} {:>9} {:<10} {:<10} {}\n", "", "period", "change",
                     "simulated", "latency", "change", "1 - F", "survival", "mapping");
  out += "baseline\n" + table_line("", study.baseline, study.baseline);
  for (const auto& row : study.rows) {
    out += fmt::format("\n{}\n", row.variant);
    for (const auto& e : row.edits)
      out += fmt::format("  edit: {} ({} matched)\n", e.edit, e.matched.size());
    out += table_line("fixed", row.fixed, study.baseline);
    out += table_line("re-mapped", row.remapped, study.baseline);
  }
  return out;
}

bool write_whatif_files(const std::string& dir, const WhatIfStudy& study)
{
  std::filesystem::create_directories(dir);
  write_text_file(dir + "/whatif.json", nlohmann::json(study).dump(2) + "\n");
  Table csv;
  for (const char* name :
       {"variant", "evaluation", "status", "mapping", "analytic_period", "simulated_period", "analytic_latency",
        "simulated_latency", "reliability", "survival_rate", "period_ratio", "note"})
    csv.add_column(name);
  auto csv_row = [&](const std::string& variant, const char* what, const WhatIfFigures& f) {
    auto opt = [](std::optional<double> x) { return x ? whatif_number(*x) : std::string(); };
    auto ap = analytic_period(f), bp = analytic_period(study.baseline);
    std::string ratio = ap && bp && std::isfinite(*ap) ? whatif_number(*ap / *bp) : "";
    csv.add_row({variant, what, to_string(f.status), f.mapping, opt(ap), opt(f.simulated_period),
                 f.status == WhatIfStatus::ok ? whatif_number(f.analytic_latency) : "", opt(f.simulated_latency),
                 opt(reliability(f)), opt(f.survival_rate), ratio, f.note});
  };
  csv_row("baseline", "baseline", study.baseline);
  for (const auto& row : study.rows) {
    csv_row(row.variant, "fixed", row.fixed);
    csv_row(row.variant, "remapped", row.remapped);
  }
  write_text_file(dir + "/whatif.csv", csv.csv());
  write_text_file(dir + "/whatif.md", "```\n" + whatif_table(study) + "```\n");

  try {
    render_plot(dir, whatif_period_plot(study), "gnuplot");
    render_plot(dir, whatif_reliability_plot(study), "gnuplot");
  } catch (const std::runtime_error&) { // gnuplot missing or failing: the data and scripts are there
    return false;
  }
  return true;
}

} // namespace pipesim

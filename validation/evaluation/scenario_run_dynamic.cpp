// A scenario's re-mapping during the run (`dynamic:`, DESIGN.md §3.12): the policy and settings handed to the
// simulator, and the re-maps in the table and the JSON.
#include "base/table.hpp"
#include "model/deal.hpp"
#include "platforms/profile.hpp"
#include "simulator/throughput_series.hpp"
#include "validation/evaluation/remap_policies.hpp"
#include "validation/evaluation/result_output.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace pipesim {

namespace {
/// Rows of the re-map table at most (the JSON has every re-map).
constexpr std::size_t max_remap_rows = 24;

/// One interval of to_text's form ("[2-3]:P1|P4/deal", groups "P1+P2"), or nullopt.
std::optional<Interval> interval_from_text(const std::string& text, const Platform& platform)
{
  Interval in;
  std::size_t colon = text.find("]:");
  if (text.empty() || text[0] != '[' || colon == std::string::npos) return std::nullopt;
  std::string stages = text.substr(1, colon - 1), rest = text.substr(colon + 2);
  std::size_t dash = stages.find('-');
  in.first         = std::atoi(stages.substr(0, dash).c_str());
  in.last          = dash == std::string::npos ? in.first : std::atoi(stages.substr(dash + 1).c_str());
  if (rest.ends_with("/deal")) {
    in.replication = Replication::deal;
    rest.resize(rest.size() - 5);
  }
  for (std::size_t r = 0; r <= rest.size();) {
    std::size_t bar = std::min(rest.find('|', r), rest.size());
    ProcessorGroup group;
    for (std::size_t g = r; g <= bar;) {
      std::size_t plus     = std::min(rest.find('+', g), bar);
      std::optional<int> u = platform.find(rest.substr(g, plus - g));
      if (!u) return std::nullopt;
      group.push_back(*u);
      g = plus + 1;
    }
    in.replicas.push_back(group);
    r = bar + 1;
  }
  return in;
}

/// A mapping written by to_text, read back (nullopt when it does not read back to the same text).
std::optional<Mapping> mapping_from_text(const std::string& text, const Platform& platform)
{
  Mapping m;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t space          = std::min(text.find(' ', i), text.size());
    std::optional<Interval> in = interval_from_text(text.substr(i, space - i), platform);
    if (!in) return std::nullopt;
    m.intervals.push_back(std::move(*in));
    i = space + 1;
  }
  if (to_text(m, platform) != text) return std::nullopt;
  return m;
}
} // namespace

Mapping dynamic_initial_mapping(const ScenarioRun& run)
{
  const Scenario& s = run.scenario;
  if (!s.dynamic || s.dynamic->policy != RemapPolicyKind::clairvoyant || run.platform.profiles().empty())
    return run.mapper.mapping;
  // the clairvoyant policy knows the platform of t = 0 too: it starts with the mapper's mapping there
  Problem problem;
  problem.pipeline  = s.pipeline;
  problem.platform  = platform_at(run.platform, 0);
  problem.model     = s.simulation.model;
  problem.objective = s.objective;
  MapperResult r    = run_mapper(s.dynamic->mapper.empty() ? s.mapper : s.dynamic->mapper, problem, s.mapper_options);
  return r.status == SolveStatus::infeasible || r.mapping.intervals.empty() ? run.mapper.mapping : r.mapping;
}

void configure_dynamic(const ScenarioRun& run, SimulationJob& job)
{
  const Scenario& s = run.scenario;
  if (!s.dynamic) return;
  PolicyContext context;
  context.problem.pipeline  = s.pipeline;
  context.problem.platform  = run.platform;
  context.problem.model     = s.simulation.model;
  context.problem.objective = s.objective;
  context.options           = s.mapper_options;
  context.buffer            = s.simulation.buffer;
  job.remap                 = s.dynamic->remap;
  // the clairvoyant reference re-maps at zero cost: its free decisions hand over, with no drain (DESIGN.md §3.12)
  job.remap.free_handover = s.dynamic->policy == RemapPolicyKind::clairvoyant;
  if (job.remap.window == 0)
    job.remap.window = s.simulation.window > 0
                           ? s.simulation.window
                           : default_throughput_window(s.simulation.datasets, deal_round(job.mapping));
  if (job.remap.check == 0) { // half a window at the predicted period: a decision comes within a window
    double p        = predicted_period(s.pipeline, run.platform, job.mapping, s.simulation.model, s.simulation.buffer);
    job.remap.check = std::isfinite(p) && p > 0 ? job.remap.window * p / 2 : 1;
  }
  job.policy = make_remap_policy(*s.dynamic, s.mapper, context, job.mapping);
}

std::vector<Mapping> remap_mappings(const std::vector<RemapRecord>& remaps, const Platform& platform)
{
  std::vector<Mapping> out;
  for (const RemapRecord& r : remaps) {
    std::optional<Mapping> m = mapping_from_text(r.to, platform);
    if (!m) return {}; // a mapping the text does not describe whole: no segment series
    out.push_back(std::move(*m));
  }
  return out;
}

namespace {
std::string remap_table(const std::vector<RemapRecord>& remaps)
{
  if (remaps.empty()) return "";
  Table t;
  t.add_column("time", Align::right, 10).add_column("data set", Align::right, 8);
  t.add_column("downtime", Align::right, 10).add_column("drain", Align::right, 10);
  t.add_column("transfer", Align::right, 10).add_column("restart", Align::right, 8);
  t.add_column("bytes", Align::right, 8)
      .add_column("mapping", Align::left, 0, 2)
      .add_column("reason", Align::left, 0, 2);
  for (std::size_t i = 0; i < remaps.size() && i < max_remap_rows; ++i) {
    const RemapRecord& r = remaps[i];
    t.add_row({format_number(r.time, ".6g"), std::to_string(r.dataset), format_number(r.downtime, ".6g"),
               format_number(r.drain, ".6g"), format_number(r.transfer, ".6g"), format_number(r.restart, ".6g"),
               format_number(r.bytes, ".6g"), r.to, r.reason});
  }
  std::string out = t.text(2);
  if (remaps.size() > max_remap_rows)
    out += fmt::format("  ... {} more re-maps (the JSON has them all)\n", remaps.size() - max_remap_rows);
  return out;
}
} // namespace

std::string remaps_text(const ScenarioRun& run)
{
  if (!run.simulated || !run.scenario.dynamic) return "";
  const SimulationResult& sim = *run.simulated;
  const DynamicSpec& d        = *run.scenario.dynamic;
  std::string out             = fmt::format(
                  "\nre-mapping (docs/dynamic.md): policy {}, cost {}, {} measurement windows, {} re-map{}\n", d.policy_name(),
                  d.remap.cost, sim.remap_windows, sim.remaps.size(), sim.remaps.size() == 1 ? "" : "s");
  out += remap_table(sim.remaps);
  if (!d.remap.repair || !run.crash_run) return out;
  const SimulationResult& crash = *run.crash_run;
  out += fmt::format("repair after crashes (on_crash: remap, detected after {:g} s): crash run {}, {} crash{} "
                     "repaired, {} data set{} lost, {} delivered\n",
                     d.remap.detect, crash.failures.verdict, crash.crashes_repaired,
                     crash.crashes_repaired == 1 ? "" : "es", crash.datasets_lost, crash.datasets_lost == 1 ? "" : "s",
                     crash.failures.delivered);
  return out + remap_table(crash.remaps);
}

void add_remaps_json(nlohmann::json& j, const ScenarioRun& run)
{
  if (!run.simulated || !run.scenario.dynamic) return;
  const DynamicSpec& d        = *run.scenario.dynamic;
  const SimulationResult& sim = *run.simulated;
  j["dynamic"]                = {{"policy", d.policy_name()},
                                 {"mapper", d.mapper.empty() ? run.scenario.mapper : d.mapper},
                                 {"cost", to_string(d.remap.cost)},
                                 {"restart", d.remap.restart},
                                 {"state", d.remap.state},
                                 {"windows", sim.remap_windows},
                                 {"remaps", sim.remaps}};
  if (!d.remap.repair || !run.crash_run) return;
  const SimulationResult& crash = *run.crash_run; // on_crash: remap: the crash run's repairs
  j["dynamic"]["on_crash"]      = {{"detect", d.remap.detect},
                                   {"verdict", to_string(crash.failures.verdict)},
                                   {"datasets_lost", crash.datasets_lost},
                                   {"crashes_repaired", crash.crashes_repaired},
                                   {"delivered", crash.failures.delivered},
                                   {"remaps", crash.remaps}};
}

} // namespace pipesim

// hedpm Table 2 for a scenario (Algorithm 4.1's iterations and Algorithm 4.2's runs).
#include "validation/studies/hedpm_trace.hpp"

#include "base/input_error.hpp"
#include "base/table.hpp"
#include "mappers/hedpm/hedpm_scan.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace pipesim {

namespace {
Problem hedpm_problem(const Pipeline& pipeline, const Platform& platform)
{
  Problem problem;
  problem.pipeline = pipeline;
  problem.platform = platform;
  if (auto why = hedpm_refuses(problem)) throw InputError::keyed("platform", "hedpm-trace: " + *why);
  return problem;
}

std::string processors_text(const Platform& platform, const std::vector<int>& list, const char* separator)
{
  std::string out;
  for (int u : list)
    out += fmt::format("{}{}", out.empty() ? "" : separator, platform.node_name(u));
  return out;
}

std::string stages_text(const std::vector<int>& list)
{
  std::string out;
  for (int i : list)
    out += fmt::format("{}S{}", out.empty() ? "" : ", ", i);
  return out;
}

std::string match_text(const Platform& platform, const HedpmIteration& it)
{
  std::string stages;
  for (int i = it.first; i <= it.last; ++i)
    stages += fmt::format("S{}", i);
  return processors_text(platform, it.processors, " ") + " " + stages;
}

std::vector<std::string> names(const Platform& platform, const std::vector<int>& list)
{
  std::vector<std::string> out;
  for (int u : list)
    out.push_back(platform.node_name(u));
  return out;
}

const char* yes_no(bool b) { return b ? "yes" : "no"; }
} // namespace

std::string hedpm_trace_table(const Pipeline& pipeline, const Platform& platform)
{
  Problem problem     = hedpm_problem(pipeline, platform);
  HedpmScan scan      = hedpm_algorithm42(problem);
  const HedpmRun& run = scan.steps.front().run;
  std::string out     = "HeDPM, Algorithm 4.1 (seed 002 Table 2; Tideal by eq. (6), Tmatch by eqs. (1)-(2))\n\n";
  Table iterations;
  iterations.add_column("iter", Align::left, 5).add_column("processor list", Align::left, 40);
  iterations.add_column("stage list", Align::left, 40).add_column("Tideal", Align::right, 10);
  iterations.add_column("matching", Align::left, 24, 2).add_column("Tmatch", Align::right, 10);
  for (std::size_t k = 0; k < run.iterations.size(); ++k) {
    const HedpmIteration& it = run.iterations[k];
    iterations.add_row({std::to_string(k + 1), "(" + processors_text(platform, it.processor_list, ", ") + ")",
                        "(" + stages_text(it.stage_list) + ")", format_number(it.tideal, ".4f"),
                        match_text(platform, it), format_number(it.tmatch, ".4f")});
  }
  out += iterations.text();
  if (!run.leftover.empty())
    out += fmt::format("\nprocessors left when the stages ran out, added to the last match: {}\n",
                       processors_text(platform, run.leftover, ", "));
  out += fmt::format("\nmapping    {}\npredicted  {:.10g} (seed002-eq1-2)\n", to_text(run.mapping, platform),
                     scan.steps.front().production_time);
  const char* direction = scan.direction > 0   ? "the last match is the most loaded: objective raised"
                          : scan.direction < 0 ? "the last match is the least loaded: objective lowered"
                                               : "the last match is neither the most nor the least loaded: no sweep";
  out += fmt::format("\nHeDPM-scan, Algorithm 4.2: TObj0 = {:.4f}; {}\n\n", scan.tobj0, direction);
  Table runs;
  runs.add_column("run", Align::left, 4).add_column("objective", Align::right, 10);
  runs.add_column("production time", Align::right, 16).add_column("most", Align::right, 6);
  runs.add_column("least", Align::right, 6).add_column("mapping", Align::left, 0, 2);
  for (std::size_t k = 0; k < scan.steps.size(); ++k) {
    const HedpmScanStep& s = scan.steps[k];
    runs.add_row({std::to_string(k), s.objective > 0 ? format_number(s.objective, ".4f") : std::string("eq. (6)"),
                  format_number(s.production_time, ".10g"), yes_no(s.last_most_loaded), yes_no(s.last_least_loaded),
                  to_text(s.run.mapping, platform)});
  }
  out += runs.text();
  out += fmt::format("kept: run {}{} ({:.10g})\n", scan.best, scan.best == 0 ? ", the initial mapping" : "",
                     scan.steps[scan.best].production_time);
  return out;
}

nlohmann::json hedpm_trace_json(const Pipeline& pipeline, const Platform& platform)
{
  Problem problem     = hedpm_problem(pipeline, platform);
  HedpmScan scan      = hedpm_algorithm42(problem);
  const HedpmRun& run = scan.steps.front().run;
  auto iterations     = nlohmann::json::array();
  for (const HedpmIteration& it : run.iterations)
    iterations.push_back({{"processor_list", names(platform, it.processor_list)},
                          {"stage_list", it.stage_list},
                          {"tideal", it.tideal},
                          {"match", {{"stages", {it.first, it.last}}, {"processors", names(platform, it.processors)}}},
                          {"tmatch", it.tmatch}});
  auto runs = nlohmann::json::array();
  for (const HedpmScanStep& s : scan.steps)
    runs.push_back({{"objective", s.objective},
                    {"production_time", s.production_time},
                    {"last_most_loaded", s.last_most_loaded},
                    {"last_least_loaded", s.last_least_loaded},
                    {"mapping", to_text(s.run.mapping, platform)}});
  return {{"iterations", iterations},
          {"leftover", names(platform, run.leftover)},
          {"mapping", to_text(run.mapping, platform)},
          {"production_time", scan.steps.front().production_time},
          {"formula", "seed002-eq1-2"},
          {"scan", {{"tobj0", scan.tobj0}, {"direction", scan.direction}, {"best", scan.best}, {"runs", runs}}}};
}

} // namespace pipesim

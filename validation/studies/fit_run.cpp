// `pipesim fit` (fit_run.hpp): samples, fits, the fitted scenario file, the mapping on the fit simulated.
#include "validation/studies/fit_run.hpp"

#include "base/input_error.hpp"
#include "base/table.hpp"
#include "simulator/program_actors.hpp"
#include "validation/evaluation/compare.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <yaml-cpp/yaml.h>

namespace pipesim {

namespace {
ProgramStep program_step(FitStep step)
{
  switch (step) {
  case FitStep::exec:
    return ProgramStep::exec;
  case FitStep::icom:
    return ProgramStep::icom;
  case FitStep::ecom:
    return ProgramStep::ecom;
  }
  return ProgramStep::exec;
}

/// The smallest value of a fitted function over the p (and pr) a mapper may give it, and where.
struct Lowest {
  double value = 0;
  int p = 1, pr = 0;
};
Lowest lowest_value(const FittedFunction& f, int P)
{
  Lowest low{std::numeric_limits<double>::infinity(), 1, 0};
  for (int p = 1; p <= P; ++p)
    for (int pr = 1; pr <= (f.step == FitStep::ecom ? P - p : 1); ++pr)
      if (double value = f.value(p, pr); !(value >= low.value)) low = {value, p, f.step == FitStep::ecom ? pr : 0};
  return low;
}

/// Where the scenario gives each function of its chain: its key (`exec`, `icom`, `ecom`), else the task's `program`
/// (what the samples run), else the task.
FitLocator locate_in(const TaskChainSpec& spec)
{
  return [&spec](FitStep step, int task) {
    const TaskChainSpec::TaskNodes& nodes = spec.nodes.at(static_cast<std::size_t>(task - 1));
    const std::optional<YamlNode>& given  = step == FitStep::exec   ? nodes.exec
                                            : step == FitStep::icom ? nodes.icom
                                                                    : nodes.ecom;
    const YamlNode& node                  = given ? *given : nodes.program ? *nodes.program : nodes.task;
    return node.path();
  };
}

/// A fit may go below 0 between or beyond its samples: refused, unless by rounding alone (within 1e-9 of the largest
/// sample: a time that is 0 at some p, such as a transpose on one processor), where C1 is raised to make it 0.
void refuse_negative_fit(FittedChain& fit, int P, const FitLocator& where)
{
  for (FittedFunction& f : fit.functions) {
    Lowest low = lowest_value(f, P);
    if (low.value >= 0) continue;
    double scale = *std::max_element(f.measured.begin(), f.measured.end());
    if (!(low.value >= -1e-9 * scale))
      throw InputError::keyed(where(f.step, f.task),
                              fmt::format("fit: the fitted {} is {:.6g} at p = {}{}: a time must be >= 0; sample "
                                          "more processor counts (--samples) or give that function as a table",
                                          f.label(fit.chain), low.value, low.p,
                                          low.pr > 0 ? fmt::format(", pr = {}", low.pr) : ""));
    f.coefficients[0] -= low.value;
    apply_fit(fit.chain, f);
  }
}

FitRun fit_unlocated(const Scenario& scenario, const FitOptions& options)
{
  if (!scenario.task_chain)
    throw InputError::keyed("task_chain", "missing: pipesim fit needs a task_chain (seed 001's data-parallel tasks)");
  FitRun run;
  run.scenario       = scenario;
  run.platform       = load_platform(scenario);
  const int P        = run.platform.p();
  TaskChainSpec spec = *scenario.task_chain;
  complete_task_chain_spec(spec, run.platform); // f_exec of programs on one speed; the rest is measured
  check_task_chain_spec(spec, P);
  const TaskChain chain = spec.chain;
  run.source            = chain.has_programs() ? FitSource::program : FitSource::functions;
  FitSampler sample     = [&](const std::vector<FitPoint>& plan) {
    if (run.source == FitSource::functions) return evaluate_samples(chain, plan);
    std::vector<ProgramSample> steps;
    for (const FitPoint& pt : plan)
      steps.push_back({program_step(pt.step), pt.task, pt.p, pt.pr});
    return measure_program_steps(chain, run.platform, steps, scenario.simulation);
  };
  run.fit = fit_task_chain(chain, P, sample, options.samples, locate_in(spec));
  refuse_negative_fit(run.fit, P, locate_in(spec)); // part of the fit: the file --out writes has it
  if (!options.map) return run;
  Scenario fitted                 = scenario;
  fitted.task_chain->chain        = run.fit.chain;
  run.mapped                      = map_scenario(fitted);
  run.mapped->scenario.task_chain = scenario.task_chain; // simulated on what was sampled, predicted by the fit
  if (options.simulate && run.mapped->has_mapping()) simulate_run(*run.mapped, 1);
  return run;
}
} // namespace

FitRun fit_scenario(const Scenario& scenario, const FitOptions& options)
{
  return for_scenario(scenario, [&] { return fit_unlocated(scenario, options); });
}

namespace {
YAML::Node flow_list(const std::vector<double>& values)
{
  YAML::Node node(YAML::NodeType::Sequence);
  for (double v : values)
    node.push_back(v + 0.0); // -0 + 0 = 0: no "-0" in the file
  node.SetStyle(YAML::EmitterStyle::Flow);
  return node;
}

double largest_residual(const FittedChain& fit)
{
  double worst = 0;
  for (const FittedFunction& f : fit.functions)
    worst = std::max(worst, f.max_rel_residual);
  return worst;
}
} // namespace

void write_fitted_scenario(const FitRun& run, const std::string& path)
{
  YAML::Node root  = YAML::LoadFile(run.scenario.file);
  YAML::Node tasks = root["task_chain"]["tasks"];
  for (const FittedFunction& f : run.fit.functions) {
    YAML::Node task         = tasks[static_cast<std::size_t>(f.task - 1)];
    task[to_string(f.step)] = flow_list(f.coefficients);
  }
  if (YAML::Node file = root["platform"]["file"]) // read from the folder of `path`, whatever the working directory
    file = file_reference(file.as<std::string>(), run.scenario.platform.xml_file, path);
  YAML::Emitter e;
  e.SetDoublePrecision(17);
  e << root;
  std::ofstream out(path);
  out << fmt::format("# Fitted by `pipesim fit {}` (seed 001 §5, {} samples per function, from the {}):\n# f_exec, "
                     "f_icom and f_ecom are least-squares polynomials of the samples; largest relative residual "
                     "{:.3g}\n# (docs/sv95.md, \"Fitting\").\n",
                     run.scenario.file, run.fit.functions.empty() ? 0 : run.fit.functions.front().points.size(),
                     run.source == FitSource::program ? "programs" : "given functions", largest_residual(run.fit))
      << e.c_str() << "\n";
  if (!out) throw InputError::option("--out", path, "cannot write the fitted scenario there");
}

namespace {
std::string coefficients_text(const FittedFunction& f)
{
  std::string out;
  for (double c : f.coefficients)
    out += fmt::format("{}{:.6g}", out.empty() ? "" : ", ", c + 0.0); // -0 + 0 = 0: no "-0" printed
  return "[" + out + "]";
}

std::string prediction_text(const ScenarioRun& mapped)
{
  std::string out = fmt::format("\nmapping on the fit ({}): {}\n", mapped.scenario.mapper,
                                mapped.has_mapping() ? to_text(mapped.mapper.mapping, mapped.platform) : "none");
  if (!mapped.has_mapping()) return out;
  Table t;
  t.add_column("figure", Align::left, 10).add_column("predicted", Align::right, 12);
  bool simulated = mapped.simulated.has_value();
  if (simulated) t.add_column("simulated", Align::right, 12).add_column("difference", Align::right, 10);
  auto row = [&](const std::string& what, double predicted, std::optional<double> measured) {
    if (!measured) {
      t.add_row({what, format_number(predicted, ".6g")});
      return;
    }
    t.add_row({what, format_number(predicted, ".6g"), format_number(*measured, ".6g"),
               fmt::format("{:+.2f} %", 100 * (*measured / predicted - 1))});
  };
  std::optional<double> period = simulated ? std::optional(mapped.simulated->period) : std::nullopt;
  row("period", mapped.analytic.period, period);
  row("throughput", 1 / mapped.analytic.period, period ? std::optional(1 / *period) : std::nullopt);
  return out + t.text(2);
}
} // namespace

std::string fit_table(const FitRun& run)
{
  std::string out = fmt::format("scenario   {} ({})\nplatform   {} processors\nsamples    {} per function, from "
                                "the {}\n\n",
                                run.scenario.name, run.scenario.file, run.platform.p(),
                                run.fit.functions.empty() ? 0 : run.fit.functions.front().points.size(),
                                run.source == FitSource::program ? "programs (SimGrid runs)" : "chain's own functions");
  Table t;
  t.add_column("function", Align::left, 24).add_column("coefficients", Align::left, 30);
  t.add_column("rms residual", Align::right, 12).add_column("max residual", Align::right, 12);
  t.add_column("max rel.", Align::right, 9);
  for (const FittedFunction& f : run.fit.functions)
    t.add_row({f.label(run.fit.chain), coefficients_text(f), format_number(f.rms_residual, ".3g"),
               format_number(f.max_abs_residual, ".3g"), format_number(f.max_rel_residual, ".3g")});
  out += t.text(2);
  if (run.mapped) out += prediction_text(*run.mapped);
  return out;
}

void to_json(nlohmann::json& j, const FitRun& run)
{
  j = {{"scenario", run.scenario.file}, {"source", to_string(run.source)}, {"processors", run.platform.p()}};
  j["functions"] = nlohmann::json::array();
  for (const FittedFunction& f : run.fit.functions) {
    nlohmann::json samples = nlohmann::json::array();
    for (std::size_t s = 0; s < f.points.size(); ++s)
      samples.push_back({{"p", f.points[s].p},
                         {"pr", f.step == FitStep::ecom ? nlohmann::json(f.points[s].pr) : nlohmann::json(nullptr)},
                         {"measured", json_number(f.measured[s])},
                         {"fitted", json_number(f.fitted[s])}});
    j["functions"].push_back({{"function", to_string(f.step)},
                              {"task", f.task},
                              {"label", f.label(run.fit.chain)},
                              {"coefficients", f.coefficients},
                              {"rms_residual", json_number(f.rms_residual)},
                              {"max_abs_residual", json_number(f.max_abs_residual)},
                              {"max_rel_residual", json_number(f.max_rel_residual)},
                              {"samples", samples}});
  }
  if (run.mapped) j["mapped"] = *run.mapped;
}

void print(const FitRun& run, ResultFormat format, std::ostream& out)
{
  if (format == ResultFormat::json) {
    out << nlohmann::json(run).dump(2) << "\n";
    return;
  }
  out << fit_table(run);
}

} // namespace pipesim

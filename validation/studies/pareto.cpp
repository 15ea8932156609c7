// The Pareto sweep: every mapper at every period bound, each returned mapping checked against its bound.
#include "validation/studies/pareto.hpp"

#include "base/input_error.hpp"
#include "mappers/bbr10/period_check.hpp"
#include "model/analytic.hpp"
#include "model/bbr10/worst_case_period.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>

namespace pipesim {

const ParetoCurve* ParetoSweep::curve(const std::string& mapper) const
{
  for (const auto& c : curves)
    if (c.mapper == mapper) return &c;
  return nullptr;
}

std::vector<double> pareto_linear_bounds(double from, double to, int steps)
{
  if (!(from > 0) || !std::isfinite(from)) throw InputError::option("--from", from, "a period bound must be > 0");
  if (!(to >= from) || !std::isfinite(to))
    throw InputError::option("--to", to, fmt::format("must be a period >= --from ({})", from));
  if (steps < 1) throw InputError::option("--steps", steps, "expected at least 1");
  if (steps > max_pareto_bounds) // each bound runs every mapper: 10^8 steps ran for days with no output
    throw InputError::option("--steps", steps,
                             fmt::format("at most {} bounds (each one runs every mapper)", max_pareto_bounds));
  if (steps == 1 && to != from) // the sweep would stop at --from and never reach --to
    throw InputError::option("--steps", 1,
                             fmt::format("one bound cannot go from --from {} to --to {}: expected at least 2 steps (or "
                                         "--bounds {} for that bound alone)",
                                         from, to, from));
  if (steps > 1 && to == from)
    throw InputError::option("--steps", steps,
                             fmt::format("--from and --to are both {}, so the {} bounds would all be {}: expected "
                                         "--steps 1 (or a --to above --from)",
                                         from, steps, from));
  std::vector<double> bounds;
  for (int i = 0; i < steps; ++i)
    bounds.push_back(steps == 1 ? from : from + (to - from) * i / (steps - 1));
  return bounds;
}

void check_pareto_bounds(const std::vector<double>& bounds)
{
  if (bounds.empty())
    throw InputError::option("--bounds", "no period bound: give --bounds or --from, --to and --steps");
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    double b = bounds[i];
    if (!(b > 0) || !std::isfinite(b)) throw InputError::option("--bounds", b, "a period bound must be > 0");
    if (std::find(bounds.begin(), bounds.begin() + static_cast<long>(i), b) != bounds.begin() + static_cast<long>(i))
      throw InputError::option("--bounds", fmt::format("{}", fmt::join(bounds, ",")),
                               fmt::format("the bound {} is given twice: expected each bound once", b));
  }
}

std::vector<std::string> pareto_mappers(const Problem& problem, const std::vector<std::string>& requested)
{
  auto& registry = MapperRegistry::instance();
  std::vector<std::string> names;
  for (const auto& name : requested) {
    if (registry.find(name) == nullptr)
      throw InputError::option("--mappers", name,
                               fmt::format("unknown mapper (known: {})", fmt::join(registry.names(), ", ")));
    if (auto refusal = mapper_refusal(name, problem)) throw InputError::option("--mappers", name, *refusal);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  if (requested.empty())
    for (const auto& name : registry.names()) {
      MapperFamily family = registry.info(name).family; // a given mapping or a testing aid is not a front
      if (family != MapperFamily::given && family != MapperFamily::testing && !registry.create(name)->refuses(problem))
        names.push_back(name);
    }
  std::vector<std::string> out; // the exact mappers first
  for (const auto& name : pareto_exact_mappers)
    if (!registry.create(name)->refuses(problem)) out.push_back(name);
  for (const auto& name : names)
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  if (out.empty()) {
    auto why = registry.create(pareto_exact_mappers.front())->refuses(problem).value_or("");
    throw InputError::keyed("pipeline", fmt::format("no registered mapper accepts this problem with objective "
                                                    "min_failure_probability (bbr10.exhaustive: {})",
                                                    why));
  }
  return out;
}

namespace {
/// Checks the returned mapping against its bound and fills the point.
void check_point(const Pipeline& pipeline, const Platform& platform, const MapperResult& result, ParetoPoint& point)
{
  const Mapping& mapping = result.mapping;
  if (mapping.intervals.empty()) return;
  point.mapping = to_text(mapping, platform);
  // Exact: the upper bound with disjoint subsets (docs/bbr10-periods.md), the enumeration on few processors.
  if (bbr10_disjoint_subsets(mapping) || mapping.processors().size() > 10) {
    point.worst_case_period = bbr10_worst_case_upper_bound(pipeline, platform, mapping);
    point.worst_case_exact  = bbr10_disjoint_subsets(mapping);
  } else {
    point.worst_case_period = bbr10_exact_worst_case_period(pipeline, platform, mapping);
    point.worst_case_exact  = true;
  }
  point.meets_bound = *point.worst_case_period <= point.period_bound * (1 + 1e-9);
  if (point.meets_bound) point.failure_probability = bbr10_eq2_failure_probability(platform, mapping);
}
} // namespace

namespace {
ParetoSweep pareto_unlocated(const Scenario& scenario, const Platform& platform, const ParetoOptions& options)
{
  check_pareto_bounds(options.bounds);
  Problem problem;
  problem.pipeline  = scenario.pipeline;
  problem.platform  = platform;
  problem.model     = scenario.simulation.model;
  problem.objective = {Objective::Kind::min_failure_probability, options.bounds.front()};
  if (scenario.mapping) problem.explicit_mapping = resolve_mapping(*scenario.mapping, scenario.pipeline, platform);
  ParetoSweep sweep;
  sweep.scenario      = scenario.name;
  sweep.scenario_file = scenario.file;
  sweep.command_line  = options.command_line;
  sweep.n             = scenario.pipeline.n();
  sweep.p             = platform.p();
  sweep.model         = scenario.simulation.model;
  sweep.mapper_seed   = scenario.mapper_options.seed;
  sweep.time_limit    = scenario.mapper_options.time_limit;
  sweep.bounds        = options.bounds;
  auto& registry      = MapperRegistry::instance();
  auto names          = pareto_mappers(problem, options.mappers);
  Progress progress("pareto", "points", static_cast<long>(names.size() * options.bounds.size()), options.progress);
  for (const auto& name : names) {
    ParetoCurve curve;
    curve.mapper = name;
    curve.exact =
        std::find(pareto_exact_mappers.begin(), pareto_exact_mappers.end(), name) != pareto_exact_mappers.end();
    auto mapper = registry.create(name);
    for (double bound : options.bounds) {
      problem.objective.period_bound = bound;
      ParetoPoint point;
      point.period_bound = bound;
      if (auto why = mapper->refuses(problem)) {
        point.status.reset(); // refused
        point.note = *why;
      } else {
        auto start          = std::chrono::steady_clock::now();
        MapperResult result = mapper->map(problem, scenario.mapper_options);
        point.seconds       = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        point.status        = result.status;
        check_point(problem.pipeline, platform, result, point);
      }
      curve.points.push_back(std::move(point));
      progress.advance();
    }
    sweep.curves.push_back(std::move(curve));
  }
  progress.finish();
  return sweep;
}
} // namespace

ParetoSweep pareto_sweep(const Scenario& scenario, const Platform& platform, const ParetoOptions& options)
{
  return for_scenario(scenario, [&] { return pareto_unlocated(scenario, platform, options); });
}

} // namespace pipesim

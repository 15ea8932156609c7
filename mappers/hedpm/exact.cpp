// Mappers hedpm.exact and hedpm.exact.replicated-intervals: hedpm.scan's mapping, then the exact search.
#include "mappers/hedpm/exact.hpp"

#include "mappers/exact/interval.hpp"
#include "mappers/hedpm/exact_general.hpp"
#include "mappers/hedpm/exact_uniform.hpp"
#include "mappers/hedpm/hedpm_scan.hpp"
#include "model/hedpm/production_time.hpp"

#include <cassert>
#include <fmt/format.h>
#include <memory>

namespace pipesim {

namespace {
const MapperRegistration hedpm_exact_registration{
    [] { return std::make_unique<HedpmExact>(HedpmSpace::single_stage_replicas); }};
const MapperRegistration hedpm_exact_replicated_registration{
    [] { return std::make_unique<HedpmExact>(HedpmSpace::replicated_intervals); }};

constexpr int max_hedpm_stages = 2000;
} // namespace

MapperResult hedpm_exact_optimum(const Problem& problem, HedpmSpace space, const Deadline& deadline,
                                 HedpmSearchKind kind)
{
  HedpmScan scan = hedpm_algorithm42(problem);
  MapperResult result;
  result.mapping            = scan.steps[scan.best].run.mapping;
  result.objective          = scan.steps[scan.best].production_time;
  result.statistics["scan"] = result.objective;
  bool uniform =
      kind == HedpmSearchKind::uniform || (kind == HedpmSearchKind::automatic && uniform_links(problem.platform));
  assert(not uniform || uniform_links(problem.platform));
  std::unique_ptr<hedpm_exact::Search> search;
  if (uniform)
    search = std::make_unique<hedpm_exact::UniformSearch>(problem, space);
  else
    search = std::make_unique<hedpm_exact::GeneralSearch>(problem, space);
  hedpm_exact::Outcome outcome = search->minimize(result.objective, deadline);
  if (not outcome.mapping.intervals.empty()) {
    result.mapping   = std::move(outcome.mapping);
    result.objective = hedpm_production_time(problem.pipeline, problem.platform, result.mapping);
    assert(result.objective == outcome.value);
  }
  result.status                      = outcome.complete ? SolveStatus::optimal : SolveStatus::time_limit;
  result.statistics["nodes"]         = static_cast<double>(outcome.nodes);
  result.statistics["improvements"]  = outcome.improvements;
  result.statistics["uniform_links"] = uniform ? 1 : 0;
  return result;
}

MapperInfo HedpmExact::info() const
{
  const char* complexity = "exponential in p in the worst case; at most (n + 1) 2^p states with equal links";
  if (space_ == HedpmSpace::single_stage_replicas)
    return hedpm_info("hedpm.exact",
                      "optimal HeDPM production time over gatherings and replicas of single stages, by branch and "
                      "bound from hedpm.scan's mapping",
                      Paper::pipesim, MapperFamily::period_search, true, complexity);
  return hedpm_info("hedpm.exact.replicated-intervals",
                    "optimal HeDPM production time over gatherings and replicas of intervals, by branch and bound "
                    "from hedpm.scan's mapping",
                    Paper::pipesim, MapperFamily::period_search, true, complexity);
}

std::optional<std::string> HedpmExact::instance_refusal(const Problem& problem) const
{
  if (auto reason = hedpm_refuses(problem)) return reason;
  if (problem.platform.p() > 64)
    return fmt::format("p = {} > 64: the search keeps the set of used processors in a 64-bit mask",
                       problem.platform.p());
  if (problem.pipeline.n() > max_hedpm_stages)
    return fmt::format("n = {} stages, more than {} (the tables take O(n^2) memory)", problem.pipeline.n(),
                       max_hedpm_stages);
  return std::nullopt;
}

MapperResult HedpmExact::map(const Problem& problem, const MapperOptions& options) const
{
  return hedpm_exact_optimum(problem, space_, options.deadline());
}

} // namespace pipesim

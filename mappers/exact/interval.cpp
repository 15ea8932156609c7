// Mapper exact.interval: picks the exact search for the platform and reports the optimum or the best found in time.
#include "mappers/exact/interval.hpp"

#include "mappers/exact/comm_hom_search.hpp"
#include "mappers/exact/hetero_search.hpp"
#include "mappers/exact/processor_set.hpp"
#include "model/analytic.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <memory>

namespace pipesim {

namespace {
const MapperRegistration exact_interval_registration{[] { return std::make_unique<ExactInterval>(); }};

constexpr int max_stages                     = 2000;
constexpr int max_processors_differing_links = 64 * static_cast<int>(exact::max_set_words); // with links that differ
} // namespace

bool uniform_links(const Platform& platform)
{
  bool first_seen = false;
  double b        = 0;
  double c        = 0;
  for (int u = 0; u < platform.nodes(); ++u)
    for (int v = 0; v < platform.nodes(); ++v) {
      // Pairs a mapping never uses: a node with itself, into P_in, out of P_out, P_in -> P_out.
      if (u == v || u == platform.out() || v == platform.in() || (u == platform.in() && v == platform.out())) continue;
      if (not first_seen) {
        first_seen = true;
        b          = platform.bandwidth(u, v);
        c          = platform.latency(u, v);
      } else if (platform.bandwidth(u, v) != b || platform.latency(u, v) != c) {
        return false;
      }
    }
  return true;
}

MapperInfo ExactInterval::info() const
{
  MapperInfo info;
  info.name        = "exact.interval";
  info.description = "optimal interval mapping of br07's problem (eq. (2), latencies included) by branch and bound "
                     "down the candidate periods over subsets of processors";
  info.paper       = Paper::pipesim;
  info.family      = MapperFamily::period_search;
  info.objective   = MapperObjective::period;
  info.models      = {CommModel::one_port};
  info.mapping     = MappingRule::interval;
  info.exact       = true;
  info.complexity  = "exponential in the worst case (at most n 2^p p states); n = 100, p = 24 in about 64 ms";
  info.restriction = "it minimises br07 eq. (2), the one-port period";
  return info;
}

std::optional<std::string> ExactInterval::instance_refusal(const Problem& problem) const
{
  const Platform& platform = problem.platform;
  int n                    = problem.pipeline.n();
  for (int u = 0; u < platform.p(); ++u)
    if (not(platform.speed(u) > 0))
      return fmt::format("processor {} has speed {}; speeds must be positive", platform.node_name(u),
                         platform.speed(u));
  if (n > max_stages) return fmt::format("n = {} stages, more than {} (the tables take O(n^2) memory)", n, max_stages);
  if (not uniform_links(platform) && platform.p() > max_processors_differing_links)
    return fmt::format("p = {} > {} on a platform whose links differ: the search keeps the set of used processors "
                       "in at most {} bits",
                       platform.p(), max_processors_differing_links, max_processors_differing_links);
  return std::nullopt;
}

MapperResult ExactInterval::map(const Problem& problem, const MapperOptions& options) const
{
  const Deadline deadline = options.deadline();
  std::vector<std::unique_ptr<exact::PeriodSearch>> searches;
  if (uniform_links(problem.platform)) {
    searches.push_back(exact::make_comm_hom_search(problem));
  } else { // both directions: some instances are easy one way and hard the other
    searches.push_back(exact::make_hetero_search(problem, false));
    searches.push_back(exact::make_hetero_search(problem, true));
  }
  std::vector<exact::PeriodSearch*> list;
  for (const auto& search : searches)
    list.push_back(search.get());
  exact::SearchOutcome best = exact::solve(list, deadline, exact::SearchOutcome{});

  MapperResult result;
  result.objective = std::numeric_limits<double>::infinity();
  result.status    = best.complete ? SolveStatus::optimal : SolveStatus::time_limit;
  if (not best.intervals.empty()) {
    result.mapping   = make_interval_mapping(best.intervals, best.alloc);
    result.objective = br07_eq2_period(problem.pipeline, problem.platform, result.mapping);
  }
  result.lower_bound = best.complete ? result.objective : best.lower_bound;
  double nodes       = 0;
  for (const auto& search : searches)
    nodes += static_cast<double>(search->nodes());
  result.statistics["nodes"]        = nodes;
  result.statistics["improvements"] = best.improvements;
  result.statistics["directions"]   = static_cast<double>(searches.size());
  return result;
}

} // namespace pipesim

// Shared scaffolding of the br07 §4 heuristics: refusals, result building, the L-cut and link-cost estimates.
#include "mappers/br07/heuristic.hpp"

#include "mappers/br07/one_to_one_search.hpp"
#include "model/analytic.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <numeric>

namespace pipesim {

MapperInfo br07_heuristic_info(std::string name, std::string description, std::string complexity)
{
  MapperInfo info;
  info.name        = std::move(name);
  info.description = std::move(description);
  info.paper       = Paper::br07;
  info.family      = MapperFamily::heuristic;
  info.objective   = MapperObjective::period;
  info.models      = {CommModel::one_port};
  info.mapping     = MappingRule::interval;
  info.complexity  = std::move(complexity);
  info.restriction = "br07 eq. (2) is the one-port period";
  return info;
}

MapperResult Br07Heuristic::map(const Problem& problem, const MapperOptions& options) const
{
  MapperResult result;
  if (problem.platform.p() == 0) { // the only instance without any interval mapping
    result.status    = SolveStatus::infeasible;
    result.objective = std::numeric_limits<double>::infinity();
    return result;
  }
  IntervalAssignment assignment  = assign(problem, options);
  result.mapping                 = make_interval_mapping(assignment.intervals, assignment.alloc);
  result.status                  = SolveStatus::feasible;
  result.objective               = br07_eq2_period(problem.pipeline, problem.platform, result.mapping);
  result.statistics              = std::move(assignment.statistics);
  result.statistics["intervals"] = result.mapping.m();
  return result;
}

std::vector<std::pair<int, int>> br07_greedy_intervals(int n, int p)
{
  int length = (n + p - 1) / p; // L = ceil(n/p)
  std::vector<std::pair<int, int>> intervals;
  for (int first = 1; first <= n; first += length)
    intervals.emplace_back(first, std::min(n, first + length - 1));
  return intervals;
}

std::vector<int> br07_processors_by_speed(const Platform& platform)
{
  std::vector<int> order(static_cast<std::size_t>(platform.p()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return platform.speed(a) > platform.speed(b); });
  return order;
}

std::vector<int> br07_match_by_speed(const Platform& platform, const std::vector<double>& key)
{
  std::vector<std::size_t> order(key.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key[a] > key[b]; });
  std::vector<int> processors = br07_processors_by_speed(platform);
  std::vector<int> alloc(key.size());
  for (std::size_t rank = 0; rank < order.size(); ++rank)
    alloc[order[rank]] = processors[rank];
  return alloc;
}

std::vector<double> br07_cycle_times(const Problem& problem, const std::vector<std::pair<int, int>>& intervals,
                                     const std::vector<int>& alloc)
{
  const Platform& platform = problem.platform;
  std::vector<double> times;
  for (std::size_t j = 0; j < intervals.size(); ++j) {
    int prev = j == 0 ? platform.in() : alloc[j - 1];
    int next = j + 1 == intervals.size() ? platform.out() : alloc[j + 1];
    times.push_back(br07_interval_cycle_time(problem.pipeline, platform, intervals[j].first, intervals[j].second,
                                             alloc[j], prev, next));
  }
  return times;
}

NeighbourCosts::NeighbourCosts(const Problem& problem, std::vector<int> neighbours)
    : problem_(problem), neighbours_(std::move(neighbours)), uniform_(br07_links_uniform(problem.platform))
{
  const Platform& platform = problem.platform;
  auto width               = static_cast<std::size_t>(problem.pipeline.n() + 1);
  auto p                   = static_cast<std::size_t>(platform.p());
  others_.assign(p, 0);
  for (int u = 0; u < platform.p(); ++u)
    for (int v : neighbours_)
      others_[static_cast<std::size_t>(u)] += v != u ? 1 : 0;
  if (uniform_) return; // a representative neighbour is exact: no means needed
  mean_in_.assign(p * width, 0.0);
  mean_out_.assign(p * width, 0.0);
  for (int u = 0; u < platform.p(); ++u) {
    auto row = static_cast<std::size_t>(u) * width;
    for (std::size_t i = 0; i < width; ++i) {
      double bytes = problem.pipeline.data(static_cast<int>(i));
      for (int v : neighbours_) {
        if (v == u) continue;
        mean_in_[row + i] += platform.transfer_time(v, u, bytes);
        mean_out_[row + i] += platform.transfer_time(u, v, bytes);
      }
      int count = others_[static_cast<std::size_t>(u)];
      if (count > 0) {
        mean_in_[row + i] /= count;
        mean_out_[row + i] /= count;
      }
    }
  }
}

double NeighbourCosts::cycle_time(int first, int last, int u, int prev, int next) const
{
  const Platform& platform = problem_.platform;
  if ((prev == unknown || next == unknown) && others_[static_cast<std::size_t>(u)] == 0)
    return std::numeric_limits<double>::infinity(); // no processor can be that neighbour
  if (uniform_) {
    if (prev == unknown || next == unknown) { // any other neighbour stands for it (exists: others_[u] > 0)
      int other = neighbours_[0] != u ? neighbours_[0] : neighbours_[1];
      prev      = prev == unknown ? other : prev;
      next      = next == unknown ? other : next;
    }
    return br07_interval_cycle_time(problem_.pipeline, platform, first, last, u, prev, next);
  }
  // An unknown neighbour first stands for u itself (a local, free transfer), then its mean transfer is added.
  double t = br07_interval_cycle_time(problem_.pipeline, platform, first, last, u, prev == unknown ? u : prev,
                                      next == unknown ? u : next);
  auto row = static_cast<std::size_t>(u) * static_cast<std::size_t>(problem_.pipeline.n() + 1);
  if (prev == unknown) t += mean_in_[row + static_cast<std::size_t>(first - 1)];
  if (next == unknown) t += mean_out_[row + static_cast<std::size_t>(last)];
  return t;
}

} // namespace pipesim

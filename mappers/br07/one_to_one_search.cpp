// br07 Theorem 1 machinery: cost table, Algorithm 1 (greedy assignment) and the exact binary search.
#include "mappers/br07/one_to_one_search.hpp"

#include "model/analytic.hpp"

#include <algorithm>
#include <numeric>

namespace pipesim {

bool br07_links_uniform(const Platform& platform)
{
  if (platform.classify() == PlatformClass::fully_heterogeneous) return false;
  double first = -1;
  for (int u = 0; u < platform.nodes(); ++u)
    for (int v = 0; v < platform.nodes(); ++v) {
      if (u == v || u == platform.out() || v == platform.in() || (u == platform.in() && v == platform.out())) continue;
      double c = platform.latency(u, v);
      if (first < 0)
        first = c;
      else if (c != first)
        return false;
    }
  return true;
}

std::vector<int> br07_fastest_processors(const Platform& platform, int count)
{
  std::vector<int> order(static_cast<std::size_t>(platform.p()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return platform.speed(a) > platform.speed(b); });
  order.resize(static_cast<std::size_t>(count));
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return platform.speed(a) < platform.speed(b); });
  return order;
}

OneToOneCosts br07_one_to_one_costs(const Problem& problem, std::vector<int> processors)
{
  const Platform& platform = problem.platform;
  OneToOneCosts costs;
  costs.n          = problem.pipeline.n();
  costs.processors = std::move(processors);
  for (int k = 1; k <= costs.n; ++k)
    for (int u : costs.processors) {
      // Any other retained processor stands for the neighbour (n > 1 means at least two are retained).
      int other = -1;
      if (costs.n > 1) other = costs.processors[0] != u ? costs.processors[0] : costs.processors[1];
      int prev = k == 1 ? platform.in() : other;
      int next = k == costs.n ? platform.out() : other;
      costs.cycle_time.push_back(br07_interval_cycle_time(problem.pipeline, platform, k, k, u, prev, next));
    }
  return costs;
}

std::vector<int> br07_greedy_assignment(const OneToOneCosts& costs, double period)
{
  std::vector<int> alloc(static_cast<std::size_t>(costs.n), -1);
  // br07 Algorithm 1: from the slowest to the fastest processor, take a free stage that fits in the period.
  for (std::size_t i = 0; i < costs.processors.size(); ++i) {
    int chosen      = 0;
    double chosen_t = -1;
    for (int k = 1; k <= costs.n; ++k) {
      if (alloc[static_cast<std::size_t>(k - 1)] >= 0) continue;
      double t = costs.at(k, i);
      if (t <= period && t > chosen_t) { // largest cycle-time that fits; ties keep the smallest k
        chosen   = k;
        chosen_t = t;
      }
    }
    if (chosen == 0) return {};
    alloc[static_cast<std::size_t>(chosen - 1)] = costs.processors[i];
  }
  return alloc;
}

OneToOneSearch br07_one_to_one_search(const OneToOneCosts& costs)
{
  // The optimal period is the cycle-time of some stage on some retained processor.
  std::vector<double> candidates = costs.cycle_time;
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());

  // Binary search for the smallest feasible candidate; the largest one is always feasible.
  OneToOneSearch search;
  search.candidates = static_cast<int>(candidates.size());
  std::size_t lo    = 0;
  std::size_t hi    = candidates.size() - 1;
  while (lo < hi) {
    std::size_t mid        = lo + (hi - lo) / 2;
    std::vector<int> alloc = br07_greedy_assignment(costs, candidates[mid]);
    ++search.tests;
    if (alloc.empty()) {
      lo = mid + 1;
    } else {
      hi           = mid;
      search.alloc = std::move(alloc);
    }
  }
  if (search.alloc.empty()) { // every test failed: the answer is the largest candidate, never tested
    search.alloc = br07_greedy_assignment(costs, candidates[lo]);
    ++search.tests;
  }
  search.period = candidates[lo];
  return search;
}

} // namespace pipesim

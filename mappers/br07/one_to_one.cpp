// Seed 000 Theorem 1: optimal one-to-one mapping on (Fully or Communication) Homogeneous platforms.
#include "mappers/br07/one_to_one.hpp"

#include "model/analytic.hpp"

#include <algorithm>
#include <cassert>
#include <fmt/format.h>
#include <limits>
#include <numeric>

namespace pipesim {

namespace {
const MapperRegistration registration{"br07.one-to-one", [] { return std::make_unique<Br07OneToOne>(); }};

/// True when every latency c_{u,v} the mapping may use is the same (same pairs as PlatformFlags::link_hom).
bool latency_homogeneous(const Platform& platform)
{
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

/// Seed 000 eq. (1) cycle-time of stage k alone on u. On these platforms it does not depend on the neighbours'
/// processors, except that stage 1 receives from P_in and stage n sends to P_out: those real links are used,
/// and any other retained processor stands for the neighbour elsewhere (all links and latencies are equal).
double cycle_time(const Problem& problem, const std::vector<int>& processors, int k, int u)
{
  const Platform& platform = problem.platform;
  int n                    = problem.pipeline.n();
  int other                = -1;
  if (n > 1) other = processors[0] != u ? processors[0] : processors[1];
  int prev = k == 1 ? platform.in() : other;
  int next = k == n ? platform.out() : other;
  return br07_interval_cycle_time(problem.pipeline, platform, k, k, u, prev, next);
}

/// The n fastest processors, sorted by non-decreasing speed (ties: smallest index first among the retained).
std::vector<int> fastest_processors(const Platform& platform, int n)
{
  std::vector<int> order(static_cast<std::size_t>(platform.p()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return platform.speed(a) > platform.speed(b); });
  order.resize(static_cast<std::size_t>(n));
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return platform.speed(a) < platform.speed(b); });
  return order;
}
} // namespace

std::vector<int> br07_greedy_assignment(const Problem& problem, const std::vector<int>& processors, double period)
{
  int n = problem.pipeline.n();
  std::vector<int> alloc(static_cast<std::size_t>(n), -1);
  // Seed 000 Algorithm 1: from the slowest to the fastest processor, take a free stage that fits in the period.
  for (int u : processors) {
    int chosen      = 0;
    double chosen_t = -1;
    for (int k = 1; k <= n; ++k) {
      if (alloc[static_cast<std::size_t>(k - 1)] >= 0) continue;
      double t = cycle_time(problem, processors, k, u);
      if (t <= period && t > chosen_t) { // largest cycle-time that fits; ties keep the smallest k
        chosen   = k;
        chosen_t = t;
      }
    }
    if (chosen == 0) return {};
    alloc[static_cast<std::size_t>(chosen - 1)] = u;
  }
  return alloc;
}

std::string Br07OneToOne::description() const
{
  return "optimal one-to-one mapping, binary search + greedy (seed 000 Theorem 1, Algorithm 1)";
}

std::optional<std::string> Br07OneToOne::refuses(const Problem& problem) const
{
  if (problem.objective.kind != Objective::Kind::min_period)
    return "it only minimises the period (objective min_period)";
  if (problem.model != CommModel::one_port)
    return fmt::format("it assumes the one-port model of seed 000, not {}", to_string(problem.model));
  if (problem.platform.classify() == PlatformClass::fully_heterogeneous)
    return "the platform is fully-heterogeneous (link bandwidths differ); optimal one-to-one mapping is NP-hard "
           "there (seed 000 §3.3, Theorem 5); Theorem 1 needs all b_{u,v} equal";
  if (not latency_homogeneous(problem.platform))
    return "link latencies c_{u,v} differ between pairs; the greedy of seed 000 Algorithm 1 assumes that every "
           "transfer costs the same";
  return std::nullopt;
}

MapperResult Br07OneToOne::map(const Problem& problem, const MapperOptions& /*options*/) const
{
  MapperResult result;
  int n = problem.pipeline.n();
  if (n > problem.platform.p()) {
    result.status    = SolveStatus::infeasible;
    result.objective = std::numeric_limits<double>::infinity();
    return result;
  }

  std::vector<int> processors = fastest_processors(problem.platform, n);
  // The optimal period is the cycle-time of some stage on some retained processor.
  std::vector<double> candidates;
  for (int k = 1; k <= n; ++k)
    for (int u : processors)
      candidates.push_back(cycle_time(problem, processors, k, u));
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());

  // Binary search for the smallest feasible candidate; the largest one is always feasible.
  std::size_t lo = 0;
  std::size_t hi = candidates.size() - 1;
  std::vector<int> best_alloc;
  int tests = 0;
  while (lo < hi) {
    std::size_t mid        = lo + (hi - lo) / 2;
    std::vector<int> alloc = br07_greedy_assignment(problem, processors, candidates[mid]);
    ++tests;
    if (alloc.empty()) {
      lo = mid + 1;
    } else {
      hi         = mid;
      best_alloc = std::move(alloc);
    }
  }
  if (best_alloc.empty()) { // every test failed: the answer is the largest candidate, never tested
    best_alloc = br07_greedy_assignment(problem, processors, candidates[lo]);
    ++tests;
  }
  assert(not best_alloc.empty());

  std::vector<std::pair<int, int>> intervals;
  for (int k = 1; k <= n; ++k)
    intervals.emplace_back(k, k);
  result.mapping   = make_interval_mapping(intervals, best_alloc);
  result.status    = SolveStatus::optimal;
  result.objective = br07_eq2_period(problem.pipeline, problem.platform, result.mapping);
  assert(result.objective == candidates[lo]);
  result.statistics["candidates"]        = static_cast<double>(candidates.size());
  result.statistics["feasibility_tests"] = tests;
  return result;
}

} // namespace pipesim

// HeDPM's exact optimum on uniform links: best-fit branch and bound over (stages placed, used ranks).
#include "mappers/hedpm/exact_uniform.hpp"

#include "model/hedpm/production_time.hpp"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace pipesim::hedpm_exact {

using exact::Walk;

UniformSearch::UniformSearch(const Problem& problem, HedpmSpace space)
    : problem_(problem), space_(space), n_(problem.pipeline.n()), p_(problem.platform.p())
{
  const Platform& platform = problem.platform;
  processor_.resize(static_cast<std::size_t>(p_));
  std::iota(processor_.begin(), processor_.end(), 0);
  std::stable_sort(processor_.begin(), processor_.end(),
                   [&](int a, int b) { return platform.speed(a) < platform.speed(b); });
  for (int u : processor_)
    speed_.push_back(platform.speed(u));
  // Every link is equal, so P_in -> P1 stands for all of them (the same b, c and bytes give the same bits).
  for (int i = 0; i <= n_; ++i)
    transfer_.push_back(platform.transfer_time(platform.in(), 0, problem.pipeline.data(i)));
  work_ = exact::interval_work_table(problem.pipeline);
}

double UniformSearch::time(int rank, int i, int e, int replicas) const
{
  double work = work_[static_cast<std::size_t>(i) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(e - 1)];
  double t    = hedpm_replica_time(transfer_[static_cast<std::size_t>(i)], work, speed_[static_cast<std::size_t>(rank)],
                                   transfer_[static_cast<std::size_t>(e)]);
  return t / replicas; // eq. (1): the slowest replica's t over R
}

double UniformSearch::free_speed(std::uint64_t used) const
{
  double sum = 0;
  for (int r = 0; r < p_; ++r)
    if (not(used >> r & 1)) sum += speed_[static_cast<std::size_t>(r)];
  return sum;
}

Outcome UniformSearch::minimize(double upper, const Deadline& deadline)
{
  best_          = Outcome{};
  bound_         = below(upper);
  deadline_      = &deadline;
  Walk walk      = dfs(0, 0, 0.0);
  best_.complete = walk != Walk::stopped;
  return best_;
}

Walk UniformSearch::dfs(int i, std::uint64_t used, double fixed)
{
  ++best_.nodes;
  if (poll_.expired(*deadline_)) return Walk::stopped;
  if (failed_.find(used, static_cast<std::uint64_t>(i))) return Walk::exhausted;
  double capacity = bound_ * free_speed(used) * (1 + capacity_slack);
  if (work_[static_cast<std::size_t>(i) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(n_ - 1)] > capacity) {
    failed_.raise(used, static_cast<std::uint64_t>(i), 0);
    return Walk::exhausted;
  }
  int free = p_ - std::popcount(used);
  for (int e = i + 1; e <= n_; ++e) {
    if (work_[static_cast<std::size_t>(i) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(e - 1)] > capacity)
      break; // W grows with e
    int most = space_ == HedpmSpace::single_stage_replicas && e > i + 1 ? 1 : free;
    for (int replicas = 1; replicas <= most; ++replicas) {
      // Best fit under the current bound; when the bound drops while a child is explored, best fit may now pick
      // faster ranks: that child is explored too, so the exchange argument holds for the final bound.
      std::uint64_t tried = 0;
      while (true) {
        auto [chosen, slowest] = best_fit(i, e, used, replicas);
        if (chosen == 0 || chosen == tried) break;
        tried     = chosen;
        Walk walk = place(i, e, used, chosen, slowest, replicas, fixed);
        if (walk == Walk::stopped) return walk;
        if (bound_ < fixed) return Walk::abandoned;
      }
    }
  }
  failed_.raise(used, static_cast<std::uint64_t>(i), 0);
  return Walk::exhausted;
}

std::pair<std::uint64_t, int> UniformSearch::best_fit(int i, int e, std::uint64_t used, int replicas) const
{
  // level: the slowest rank on which the interval fits with `replicas` replicas (t / R is non-increasing in speed)
  int lo = 0;
  int hi = p_;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (time(mid, i, e, replicas) <= bound_)
      hi = mid;
    else
      lo = mid + 1;
  }
  std::uint64_t chosen = 0;
  int slowest          = -1;
  int count            = 0;
  for (int r = lo; r < p_ && count < replicas; ++r)
    if (not(used >> r & 1)) {
      chosen |= std::uint64_t{1} << r;
      slowest = slowest < 0 ? r : slowest;
      ++count;
    }
  return count < replicas ? std::pair<std::uint64_t, int>{0, -1} : std::pair{chosen, slowest};
}

Walk UniformSearch::place(int i, int e, std::uint64_t used, std::uint64_t chosen, int slowest, int replicas,
                          double fixed)
{
  std::vector<int> list;
  for (int r = 0; r < p_; ++r)
    if (chosen >> r & 1) list.push_back(processor_[static_cast<std::size_t>(r)]);
  double reached = std::max(fixed, time(slowest, i, e, replicas));
  path_.push(i + 1, e, list.data(), static_cast<int>(list.size()));
  Walk walk = Walk::exhausted;
  if (e == n_) {
    best_.mapping = path_.mapping();
    best_.value   = reached;
    ++best_.improvements;
    assert(hedpm_production_time(problem_.pipeline, problem_.platform, best_.mapping) == reached);
    bound_ = below(reached);
  } else {
    walk = dfs(e, used | chosen, reached);
  }
  path_.pop();
  return walk;
}

} // namespace pipesim::hedpm_exact

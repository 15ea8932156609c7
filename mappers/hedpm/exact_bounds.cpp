// Completion bounds of HeDPM's exact search: tables of cheapest links, processors needed and work shares.
#include "mappers/hedpm/exact_bounds.hpp"

#include "mappers/exact/search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pipesim::hedpm_exact {

namespace {
double with_margin(double least) { return std::isinf(least) ? least : least * (1 - mean_margin); }
} // namespace

CompletionBounds::CompletionBounds(const Problem& problem, HedpmSpace space)
    : problem_(problem), space_(space), n_(problem.pipeline.n()), p_(problem.platform.p())
{
  const Platform& platform = problem.platform;
  work_                    = exact::interval_work_table(problem.pipeline);
  const double inf         = std::numeric_limits<double>::infinity();
  cheapest_.assign(static_cast<std::size_t>(p_ * (n_ + 1)), inf);
  least_in_.assign(cheapest_.size(), inf);
  least_out_.assign(cheapest_.size(), inf);
  for (int u = 0; u < p_; ++u)
    for (int i = 0; i <= n_; ++i) {
      double bytes = problem.pipeline.data(i);
      for (int v = 0; v < p_; ++v)
        if (v != u) {
          cheapest_[at(u, i)] = std::min(cheapest_[at(u, i)], platform.transfer_time(u, v, bytes));
          least_in_[at(u, i)] = std::min(least_in_[at(u, i)], platform.transfer_time(v, u, bytes));
        }
      cheapest_[at(u, i)] = with_margin(cheapest_[at(u, i)]);
      least_in_[at(u, i)] = i == 0 ? platform.transfer_time(platform.in(), u, bytes) : with_margin(least_in_[at(u, i)]);
      least_out_[at(u, i)] = i == n_ ? platform.transfer_time(u, platform.out(), bytes) : cheapest_[at(u, i)];
    }
}

double CompletionBounds::least_time(int u, int d, int e) const
{
  return least_in_[at(u, d - 1)] + work(d - 1, e) / problem_.platform.speed(u) + least_out_[at(u, e)];
}

void CompletionBounds::set_bound(double bound)
{
  limit_ = bound * (1 + bound_slack);
  build_need();
  build_caps();
}

void CompletionBounds::build_need()
{
  need_.assign(static_cast<std::size_t>(n_ + 1), 0);
  std::vector<double> times(static_cast<std::size_t>(p_));
  for (int i = n_ - 1; i >= 0; --i) {
    int best = p_ + 1;
    for (int e = i + 1; e <= n_; ++e) {
      for (int u = 0; u < p_; ++u)
        times[static_cast<std::size_t>(u)] = least_time(u, i + 1, e);
      std::sort(times.begin(), times.end());
      int most = space_ == HedpmSpace::single_stage_replicas && e > i + 1 ? 1 : p_;
      for (int r = 1; r <= most; ++r)
        if (times[static_cast<std::size_t>(r - 1)] <= r * limit_) { // the least R that fits
          best = std::min(best, r + need_[static_cast<std::size_t>(e)]);
          break;
        }
    }
    need_[static_cast<std::size_t>(i)] = best;
  }
}

void CompletionBounds::build_caps()
{
  cap_.assign(static_cast<std::size_t>(p_ * (n_ + 1)), 0.0);
  for (int u = 0; u < p_; ++u) {
    double best = 0; // suffix maximum over the intervals starting at d > i
    for (int d = n_; d >= 1; --d) {
      for (int e = d; e <= n_; ++e) {
        double t = least_time(u, d, e);
        if (t <= limit_) {
          best = std::max(best, work(d - 1, e));
          continue;
        }
        // in + W / s only grows with e (out does not: delta_e changes), so once it alone exceeds T, nothing longer
        // fits on one replica
        bool alone_too_long = least_in_[at(u, d - 1)] + work(d - 1, e) / problem_.platform.speed(u) > limit_;
        if (space_ == HedpmSpace::single_stage_replicas && e > d) {
          if (alone_too_long) break;
          continue;
        }
        double replicas = std::ceil(t / limit_);
        if (replicas <= p_) best = std::max(best, work(d - 1, e) / replicas);
      }
      cap_[at(u, d - 1)] = best;
    }
  }
}

double CompletionBounds::free_capacity(std::uint64_t used, int i) const
{
  double sum = 0;
  for (int u = 0; u < p_; ++u)
    if (not(used >> u & 1)) sum += cap_[at(u, i)];
  return sum * (1 + bound_slack);
}

} // namespace pipesim::hedpm_exact

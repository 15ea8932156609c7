// The tables of exact::HeteroSearch that do not depend on its processor sets (see hetero_tables.hpp).
#include "mappers/exact/hetero_tables.hpp"

#include <algorithm>
#include <cmath>

namespace pipesim::exact {

namespace {
constexpr std::size_t table_byte_limit = std::size_t{1} << 25; // per table of transfers or of W/s
} // namespace

HeteroTables::HeteroTables(const Problem& problem, bool reversed) : problem_(problem), reversed_(reversed)
{
  const Platform& platform = problem.platform;
  n_                       = problem.pipeline.n();
  p_                       = platform.p();
  source_                  = reversed ? platform.out() : platform.in();
  sink_                    = reversed ? platform.in() : platform.out();
  size_                    = static_cast<std::size_t>(platform.nodes());
  work_                    = interval_work_table(problem.pipeline);
  for (int u = 0; u < p_; ++u)
    speed_.push_back(platform.speed(u));
  for (std::size_t a = 0; a < size_; ++a)
    for (std::size_t b = 0; b < size_; ++b) {
      latency_.push_back(platform.latency(static_cast<int>(a), static_cast<int>(b)));
      bandwidth_.push_back(platform.bandwidth(static_cast<int>(a), static_cast<int>(b)));
    }
  build_tables();
}

void HeteroTables::build_tables()
{
  auto n = static_cast<std::size_t>(n_);
  auto p = static_cast<std::size_t>(p_);
  if ((n + 1) * size_ * size_ * sizeof(double) <= table_byte_limit) {
    std::vector<double> transfers((n + 1) * size_ * size_);
    for (int k = 0; k <= n_; ++k)
      for (std::size_t a = 0; a < size_; ++a)
        for (std::size_t b = 0; b < size_; ++b)
          transfers[(static_cast<std::size_t>(k) * size_ + a) * size_ + b] =
              compute_transfer(static_cast<int>(a), static_cast<int>(b), k);
    transfers_ = std::move(transfers);
  }
  if (p * n * n * sizeof(double) <= table_byte_limit) {
    std::vector<double> times(p * n * n, infinity);
    for (int v = 0; v < p_; ++v)
      for (int i = 0; i < n_; ++i)
        for (int e = i; e < n_; ++e)
          times[(static_cast<std::size_t>(v) * n + static_cast<std::size_t>(i)) * n + static_cast<std::size_t>(e)] =
              work(i, e) / speed_[static_cast<std::size_t>(v)];
    times_ = std::move(times);
  }
  min_in_.assign(p * n, infinity);
  min_out_.assign(p * n, infinity);
  for (int v = 0; v < p_; ++v)
    for (int i = 0; i < n_; ++i) {
      double& in_cost  = min_in_[static_cast<std::size_t>(v * n_ + i)];
      double& out_cost = min_out_[static_cast<std::size_t>(v * n_ + i)];
      if (i == 0) in_cost = transfer(source_, v, 0);
      if (i == n_ - 1) out_cost = transfer(v, sink_, n_);
      for (int t = 0; t < p_; ++t) {
        if (t == v) continue;
        if (i > 0) in_cost = std::min(in_cost, transfer(t, v, i));
        if (i < n_ - 1) out_cost = std::min(out_cost, transfer(v, t, i + 1));
      }
    }
}

void HeteroTables::set_period(double period)
{
  period_    = period;
  tolerance_ = std::isfinite(period) ? 1e-12 * std::abs(period) : 0;
  auto rows  = static_cast<std::size_t>(n_ + 1);
  capacity_.assign(static_cast<std::size_t>(p_) * rows, 0.0);
  std::vector<std::uint8_t> fits(static_cast<std::size_t>(n_ * n_), 0); // on some processor, cheapest neighbours
  for (int v = 0; v < p_; ++v) {
    double* cap = &capacity_[static_cast<std::size_t>(v) * rows];
    for (int d = n_ - 1; d >= 0; --d) {
      cap[d] = cap[d + 1];
      for (int e = d; e < n_; ++e) {
        double w = time(v, d, e);
        if (w > period) break;
        if (cycle(min_in_[static_cast<std::size_t>(v * n_ + d)], w, min_out_[static_cast<std::size_t>(v * n_ + e)]) >
            period)
          continue;
        cap[d]                                     = std::max(cap[d], work(d, e));
        fits[static_cast<std::size_t>(d * n_ + e)] = 1;
      }
    }
  }
  min_count_.assign(rows, n_ + 1);
  min_count_[static_cast<std::size_t>(n_)] = 0;
  for (int d = n_ - 1; d >= 0; --d)
    for (int e = d; e < n_; ++e)
      if (fits[static_cast<std::size_t>(d * n_ + e)])
        min_count_[static_cast<std::size_t>(d)] =
            std::min(min_count_[static_cast<std::size_t>(d)], min_count_[static_cast<std::size_t>(e + 1)] + 1);
}

bool HeteroTables::affords_exactly(int k, int w, const double* need, double t) const
{
  // t <= A_F[k][w] in eq. (2)'s rounded operations: some interval [k, e] on w fits with input t and output
  // Need_F[e + 1][w].
  auto width = static_cast<std::size_t>(p_);
  for (int e = k; e < n_; ++e) {
    double w_time = time(w, k, e);
    if (w_time > period_) break;
    if (t <= max_input(w_time, need[static_cast<std::size_t>(e + 1) * width + static_cast<std::size_t>(w)]))
      return true;
  }
  return false;
}

} // namespace pipesim::exact

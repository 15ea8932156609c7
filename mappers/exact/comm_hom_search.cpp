// Branch and bound over best-fit subsets of processors sorted by speed (platforms whose links are all equal).
#include "mappers/exact/comm_hom_search.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

namespace pipesim::exact {

namespace {
constexpr std::uint8_t unreachable = 254; // H[t][i][k] when no partition exists (or 255)
}

CommHomSearch::CommHomSearch(const Problem& problem)
{
  const Pipeline& pipeline = problem.pipeline;
  const Platform& platform = problem.platform;
  n_                       = pipeline.n();
  std::vector<int> order(static_cast<std::size_t>(platform.p()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return platform.speed(a) > platform.speed(b); });
  q_ = std::min({n_, platform.p(), 64});
  order.resize(static_cast<std::size_t>(q_));
  std::reverse(order.begin(), order.end());
  processor_ = order;
  for (int u : processor_)
    speed_.push_back(platform.speed(u));

  // Every link has the same b and c, so any pair of distinct nodes gives the transfer time; P_in and P_out are the
  // real neighbours at the ends (the values are equal anyway).
  int u     = processor_[0];
  int other = platform.p() > 1 ? (u == 0 ? 1 : 0) : -1;
  for (int i = 0; i < n_; ++i) {
    in_time_.push_back(platform.transfer_time(i == 0 || other < 0 ? platform.in() : other, u, pipeline.data(i)));
    out_time_.push_back(
        platform.transfer_time(u, i == n_ - 1 || other < 0 ? platform.out() : other, pipeline.data(i + 1)));
  }
  work_ = interval_work_table(pipeline);
  all_  = q_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << q_) - 1;
}

double CommHomSearch::cycle(int r, int i, int e) const
{
  // seed 000 eq. (2), evaluated as br07_interval_cycle_time does (same operations, same order)
  return in_time_[static_cast<std::size_t>(i)] +
         work_[static_cast<std::size_t>(i * n_ + e)] / speed_[static_cast<std::size_t>(r)] +
         out_time_[static_cast<std::size_t>(e)];
}

int CommHomSearch::best_fit(int i, int e, std::uint64_t used) const
{
  int level = level_[static_cast<std::size_t>(i * n_ + e)];
  if (level >= q_) return -1;
  std::uint64_t candidates = all_ & ~used & (~std::uint64_t{0} << level);
  return candidates == 0 ? -1 : std::countr_zero(candidates);
}

void CommHomSearch::set_period(double period)
{
  period_ = period;
  build_levels(); // exact levels: the best fit depends on them
  // The bound tables, built for a larger T, remain valid (weaker) bounds for a smaller one: rebuild them only when
  // T dropped noticeably or enough nodes were expanded since, so that many small improvements stay cheap.
  if (period < bounds_period_ * (1 - 1e-3) || nodes_ >= bounds_nodes_ + 4096 || bounds_period_ == 0) {
    bounds_period_ = period;
    bounds_nodes_  = nodes_;
    build_hall_bounds();
    build_capacities();
  }
}

void CommHomSearch::build_levels()
{
  double period = period_;
  last_.assign(static_cast<std::size_t>(n_), 0);
  level_.assign(static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_), static_cast<std::uint8_t>(q_));
  double fastest = speed_.back();
  for (int i = 0; i < n_; ++i) {
    int e = i;
    // in + W/s grows with e and the output transfer is >= 0: past the first e where it exceeds T, nothing fits.
    for (; e < n_ &&
           in_time_[static_cast<std::size_t>(i)] + work_[static_cast<std::size_t>(i * n_ + e)] / fastest <= period;
         ++e) {
      int lo = 0;
      int hi = q_; // cycle(r) is non-increasing in r: find the first rank where it fits
      while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cycle(mid, i, e) <= period)
          hi = mid;
        else
          lo = mid + 1;
      }
      level_[static_cast<std::size_t>(i * n_ + e)] = static_cast<std::uint8_t>(lo);
    }
    last_[static_cast<std::size_t>(i)] = e - 1;
  }
}

void CommHomSearch::build_hall_bounds()
{
  // One table per threshold costs O(q * sum of the interval counts); keep the total within a fixed budget.
  constexpr double budget = 1 << 25;
  double pairs            = 0;
  for (int i = 0; i < n_; ++i)
    pairs += last_[static_cast<std::size_t>(i)] - i + 1;
  auto count = static_cast<int>(std::min<double>(q_, budget / std::max(1.0, pairs * q_)));
  thresholds_.clear();
  for (int j = 0; j < count; ++j)
    thresholds_.push_back(j * q_ / count); // includes t = 0: a partition into at most k intervals exists
  auto width = static_cast<std::size_t>(q_ + 1);
  auto rows  = static_cast<std::size_t>(n_ + 1);
  hall_.assign(thresholds_.size() * rows * width, unreachable);
  for (std::size_t j = 0; j < thresholds_.size(); ++j) {
    int t               = thresholds_[j];
    std::uint8_t* table = &hall_[j * rows * width];
    std::fill(table + static_cast<std::size_t>(n_) * width, table + rows * width, std::uint8_t{0});
    for (int i = n_ - 1; i >= 0; --i) {
      std::uint8_t* row = table + static_cast<std::size_t>(i) * width;
      for (int e = i; e <= last_[static_cast<std::size_t>(i)]; ++e) {
        int level = level_[static_cast<std::size_t>(i * n_ + e)];
        if (level >= q_) continue;
        auto high                = static_cast<std::uint8_t>(level >= t ? 1 : 0);
        const std::uint8_t* next = table + static_cast<std::size_t>(e + 1) * width;
        // next[k - 1] <= unreachable, so the sum fits in a byte and stays >= unreachable when unreachable
        for (std::size_t k = 1; k < width; ++k)
          row[k] = std::min(row[k], static_cast<std::uint8_t>(next[k - 1] + high));
      }
    }
  }
}

void CommHomSearch::build_capacities()
{
  auto rows = static_cast<std::size_t>(n_ + 1);
  capacity_.assign(static_cast<std::size_t>(q_) * rows, 0.0);
  for (int i = 0; i < n_; ++i)
    for (int e = i; e <= last_[static_cast<std::size_t>(i)]; ++e) {
      int level = level_[static_cast<std::size_t>(i * n_ + e)];
      if (level >= q_) continue;
      double& c = capacity_[static_cast<std::size_t>(level) * rows + static_cast<std::size_t>(i)];
      c         = std::max(c, work_[static_cast<std::size_t>(i * n_ + e)]);
    }
  // What fits rank r fits every faster rank; an interval of S_{i+1}..S_n starts at some d >= i.
  for (int r = 0; r < q_; ++r)
    for (int i = n_ - 1; i >= 0; --i) {
      double& c = capacity_[static_cast<std::size_t>(r) * rows + static_cast<std::size_t>(i)];
      if (r > 0) c = std::max(c, capacity_[static_cast<std::size_t>(r - 1) * rows + static_cast<std::size_t>(i)]);
      c = std::max(c, capacity_[static_cast<std::size_t>(r) * rows + static_cast<std::size_t>(i + 1)]);
    }
}

bool CommHomSearch::capacity_ok(int i, std::uint64_t used) const
{
  auto rows    = static_cast<std::size_t>(n_ + 1);
  double total = 0;
  for (std::uint64_t free = all_ & ~used; free != 0; free &= free - 1)
    total += capacity_[static_cast<std::size_t>(std::countr_zero(free)) * rows + static_cast<std::size_t>(i)];
  // Each free processor takes at most one interval; the tolerance covers the rounding of the sums.
  return total >= work_[static_cast<std::size_t>(i * n_ + n_ - 1)] * (1 - 1e-12);
}

bool CommHomSearch::hall_ok(int i, std::uint64_t used) const
{
  std::uint64_t free = all_ & ~used;
  auto k             = static_cast<std::size_t>(std::popcount(free));
  auto width         = static_cast<std::size_t>(q_ + 1);
  auto rows          = static_cast<std::size_t>(n_ + 1);
  for (std::size_t j = 0; j < thresholds_.size(); ++j) {
    std::uint8_t h = hall_[(j * rows + static_cast<std::size_t>(i)) * width + k];
    if (h >= unreachable || h > std::popcount(free >> thresholds_[j])) return false;
  }
  return true;
}

void CommHomSearch::record(double period)
{
  best_.intervals.clear();
  best_.alloc.clear();
  int first = 1;
  for (auto [e, rank] : path_) {
    best_.intervals.emplace_back(first, e + 1);
    best_.alloc.push_back(processor_[static_cast<std::size_t>(rank)]);
    first = e + 2;
  }
  best_.period = period;
  ++best_.improvements;
  set_period(std::nextafter(period, -std::numeric_limits<double>::infinity())); // only strictly better from now on
}

Walk CommHomSearch::dfs(int i, std::uint64_t used, double prefix)
{
  if (stop_requested()) return Walk::stopped;
  if (prefix > period_) return Walk::abandoned;
  auto position = static_cast<std::uint64_t>(i);
  if (failed_.find(used, position) != nullptr) return Walk::exhausted;
  if (nodes_ >= bounds_nodes_ + 4096 && bounds_period_ > period_) set_period(period_);
  if (capacity_ok(i, used) && hall_ok(i, used)) {
    struct Child {
      double cycle;
      int e;
    };
    std::vector<Child> children;
    for (int e = i; e <= last_[static_cast<std::size_t>(i)]; ++e)
      if (int rank = best_fit(i, e, used); rank >= 0) children.push_back({cycle(rank, i, e), e});
    // Tightest fits first (the choice of seed 000 Algorithm 1): a good order to find a mapping early.
    std::sort(children.begin(), children.end(), [](const Child& a, const Child& b) { return a.cycle > b.cycle; });
    for (const Child& child : children) {
      // If T drops while S_{i+1}..S_{e+1} is explored on its best fit, the best fit may become a faster processor:
      // explore again until it stays the same, so that the exchange argument holds for the final T.
      for (int tried = -1;;) {
        int rank = best_fit(i, child.e, used);
        if (rank < 0 || rank == tried) break;
        tried    = rank;
        double c = std::max(prefix, cycle(rank, i, child.e));
        path_.emplace_back(child.e, rank);
        Walk walk = child.e == n_ - 1 ? Walk::exhausted : dfs(child.e + 1, used | std::uint64_t{1} << rank, c);
        if (child.e == n_ - 1) record(c);
        path_.pop_back();
        if (walk == Walk::stopped || (limits_.first_only && best_.improvements > 0)) return Walk::stopped;
        if (prefix > period_) return Walk::abandoned; // else only this interval was too long: go on
      }
    }
  }
  // Exhausted: every pruning above was valid for a T at least the current one, so this holds for the current T.
  failed_.raise(used, position, 0);
  return Walk::exhausted;
}

SearchOutcome CommHomSearch::minimize(double upper, const SearchLimits& limits)
{
  limits_     = limits;
  node_limit_ = limits.node_budget == std::numeric_limits<std::uint64_t>::max() ? limits.node_budget
                                                                                : nodes_ + limits.node_budget;
  best_       = SearchOutcome{};
  failed_.clear();
  path_.clear();
  bounds_period_ = 0;
  set_period(upper);
  Walk walk      = dfs(0, 0, -std::numeric_limits<double>::infinity());
  best_.complete = walk != Walk::stopped && not(limits_.first_only && best_.improvements > 0);
  return best_;
}

bool CommHomSearch::stop_requested()
{
  if (++nodes_ >= node_limit_ || (limits_.first_only && best_.improvements > 0)) return true;
  return poll_.expired(*limits_.deadline);
}

} // namespace pipesim::exact

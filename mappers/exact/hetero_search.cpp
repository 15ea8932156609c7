// Branch and bound over subsets of processors with the last processor in the state (any platform class).
#include "mappers/exact/hetero_search.hpp"

#include "model/analytic.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>

namespace pipesim::exact {

namespace {
constexpr double infinity = std::numeric_limits<double>::infinity();
}

HeteroSearch::HeteroSearch(const Problem& problem, bool reversed) : problem_(problem), reversed_(reversed)
{
  const Platform& platform = problem.platform;
  n_                       = problem.pipeline.n();
  p_                       = platform.p();
  source_                  = reversed ? platform.out() : platform.in();
  sink_                    = reversed ? platform.in() : platform.out();
  size_                    = platform.nodes();
  all_                     = p_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << p_) - 1;
  work_                    = interval_work_table(problem.pipeline);
  for (int u = 0; u < p_; ++u)
    speed_.push_back(platform.speed(u));
  for (int a = 0; a < size_; ++a)
    for (int b = 0; b < size_; ++b) {
      latency_.push_back(platform.latency(a, b));
      bandwidth_.push_back(platform.bandwidth(a, b));
    }
  min_in_.assign(static_cast<std::size_t>(p_ * n_), infinity);
  min_out_.assign(static_cast<std::size_t>(p_ * n_), infinity);
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
  scratch_.assign(static_cast<std::size_t>((p_ + 1) * (n_ + 1) * p_), 0.0);
  start_.assign(static_cast<std::size_t>(p_), 0.0);
}

double HeteroSearch::transfer(int a, int b, int k) const
{
  if (reversed_) { // the data flows from b to a, across the boundary n - k of the pipeline
    std::swap(a, b);
    k = n_ - k;
  }
  auto at = static_cast<std::size_t>(a * size_ + b);
  return latency_[at] + problem_.pipeline.delta[static_cast<std::size_t>(k)] / bandwidth_[at];
}

double HeteroSearch::work(int i, int e) const
{
  if (reversed_) {
    int first = n_ - 1 - e;
    e         = n_ - 1 - i;
    i         = first;
  }
  return work_[static_cast<std::size_t>(i * n_ + e)];
}

double HeteroSearch::cycle(double x_in, double w, double x_out) const
{
  // seed 000 eq. (2): (input + W/s) + output, in the pipeline's order whatever the search order
  return reversed_ ? x_out + w + x_in : x_in + w + x_out;
}

double HeteroSearch::threshold(double x_in, double w) const
{
  return reversed_ ? max_addend(w, max_addend(x_in, period_)) : max_addend(x_in + w, period_);
}

void HeteroSearch::set_period(double period)
{
  period_    = period;
  tolerance_ = 1e-10 * std::max(1.0, std::isfinite(period) ? period : 1.0);
  auto rows  = static_cast<std::size_t>(n_ + 1);
  capacity_.assign(static_cast<std::size_t>(p_) * rows, 0.0);
  std::vector<std::uint8_t> fits(static_cast<std::size_t>(n_ * n_), 0); // on some processor, cheapest neighbours
  for (int v = 0; v < p_; ++v) {
    double* cap = &capacity_[static_cast<std::size_t>(v) * rows];
    for (int d = n_ - 1; d >= 0; --d) {
      cap[d] = cap[d + 1];
      for (int e = d; e < n_; ++e) {
        double w = work(d, e) / speed_[static_cast<std::size_t>(v)];
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

bool HeteroSearch::bounds_ok(int i, std::uint64_t used) const
{
  std::uint64_t free = all_ & ~used;
  if (min_count_[static_cast<std::size_t>(i)] > std::popcount(free)) return false;
  auto rows    = static_cast<std::size_t>(n_ + 1);
  double total = 0;
  for (; free != 0; free &= free - 1)
    total += capacity_[static_cast<std::size_t>(std::countr_zero(free)) * rows + static_cast<std::size_t>(i)];
  // Each free processor takes at most one interval; the tolerance covers the rounding of the sums.
  return total >= work(i, n_ - 1) * (1 - 1e-12);
}

const double* HeteroSearch::need(int i, std::uint64_t free, int u, double x, bool& ok)
{
  // Need_F[n][w] = t(w, sink). For k < n: A_F[k][w] = max_e T - W(k..e)/s_w - Need_F[e+1][w] (the largest input
  // an interval starting at k on w affords), then Need_F[k][y] = min over w in F, w != y, with t(y, w, k) <=
  // A_F[k][w], of t(y, w, k). Comparisons allow a tiny tolerance so that the rounding of these subtractions never
  // cuts a feasible state.
  auto width   = static_cast<std::size_t>(p_);
  double* need = &scratch_[static_cast<std::size_t>(std::popcount(free)) * static_cast<std::size_t>(n_ + 1) * width];
  for (std::uint64_t f = free; f != 0; f &= f - 1) {
    int w                                                                    = std::countr_zero(f);
    need[static_cast<std::size_t>(n_) * width + static_cast<std::size_t>(w)] = transfer(w, sink_, n_);
  }
  for (int k = n_ - 1; k >= i; --k) {
    for (std::uint64_t f = free; f != 0; f &= f - 1) {
      int w       = std::countr_zero(f);
      double best = -infinity;
      for (int e = k; e < n_; ++e) {
        double time = work(k, e) / speed_[static_cast<std::size_t>(w)];
        if (time > period_) break;
        best = std::max(best,
                        period_ - time - need[static_cast<std::size_t>(e + 1) * width + static_cast<std::size_t>(w)]);
      }
      start_[static_cast<std::size_t>(w)] = best;
    }
    if (k == i) break;
    for (std::uint64_t f = free; f != 0; f &= f - 1) {
      int y    = std::countr_zero(f);
      double b = infinity;
      for (std::uint64_t h = free & ~(std::uint64_t{1} << y); h != 0; h &= h - 1) {
        int w    = std::countr_zero(h);
        double t = transfer(y, w, k);
        if (t <= start_[static_cast<std::size_t>(w)] + tolerance_) b = std::min(b, t);
      }
      need[static_cast<std::size_t>(k) * width + static_cast<std::size_t>(y)] = b;
    }
  }
  ok = false;
  for (std::uint64_t f = free; f != 0 && not ok; f &= f - 1) {
    int w    = std::countr_zero(f);
    double t = transfer(i == 0 ? source_ : u, w, i);
    ok       = t <= start_[static_cast<std::size_t>(w)] + tolerance_ && t <= x;
  }
  return need;
}

void HeteroSearch::record(int e, int v)
{
  // Back to the pipeline's order: stages a..b of the search order are n-1-b..n-1-a when reversed.
  std::vector<std::pair<int, int>> intervals;
  std::vector<int> alloc;
  int first = 0;
  path_.emplace_back(e, v);
  for (auto [last, processor] : path_) {
    intervals.emplace_back(reversed_ ? n_ - last : first + 1, reversed_ ? n_ - first : last + 1);
    alloc.push_back(processor);
    first = last + 1;
  }
  path_.pop_back();
  if (reversed_) {
    std::reverse(intervals.begin(), intervals.end());
    std::reverse(alloc.begin(), alloc.end());
  }
  best_.intervals = std::move(intervals);
  best_.alloc     = std::move(alloc);
  best_.period =
      br07_eq2_period(problem_.pipeline, problem_.platform, make_interval_mapping(best_.intervals, best_.alloc));
  assert(best_.period <= period_);
  ++best_.improvements;
  set_period(std::nextafter(best_.period, -infinity)); // from now on, only strictly better mappings
}

bool HeteroSearch::expand(const Node& node, const double* need_f, std::vector<Child>& out)
{
  double x = node.affordable(*this);
  for (std::uint64_t free = all_ & ~node.used; free != 0; free &= free - 1) {
    int v        = std::countr_zero(free);
    double x_in  = transfer(node.i == 0 ? source_ : node.u, v, node.i);
    double speed = speed_[static_cast<std::size_t>(v)];
    for (int e = node.i; e < n_ && x_in <= x; ++e) { // x_in > x: u cannot afford it
      double w         = work(node.i, e) / speed;
      double threshold = this->threshold(x_in, w);
      if (threshold < 0) break; // shrinks as e grows
      if (e == n_ - 1) {
        if (transfer(v, sink_, n_) > threshold) continue;
        record(e, v); // T drops below the new mapping's period
        if (node.prefix > period_ || limits_.first_only) return false;
        x = node.affordable(*this);
        continue;
      }
      double next = min_out_[static_cast<std::size_t>(v * n_ + e)];
      if (next <= threshold && threshold >= need_f[static_cast<std::size_t>((e + 1) * p_ + v)] - tolerance_)
        out.push_back({cycle(x_in, w, next), e, v, x_in, w});
    }
  }
  return true;
}

Walk HeteroSearch::dfs(const Node& node)
{
  if (stop_requested()) return Walk::stopped;
  if (node.prefix > period_) return Walk::abandoned;
  std::uint64_t position = static_cast<std::uint64_t>(node.i) << 32 | static_cast<std::uint64_t>(node.u);
  if (const double* failed = failed_.find(node.used, position); failed && node.affordable(*this) <= *failed)
    return Walk::exhausted;
  bool ok              = bounds_ok(node.i, node.used);
  const double* need_f = ok ? need(node.i, all_ & ~node.used, node.u, node.affordable(*this), ok) : nullptr;
  std::vector<Child> children;
  if (ok && not expand(node, need_f, children)) return Walk::abandoned;
  std::sort(children.begin(), children.end(), [](const Child& a, const Child& b) { return a.tightness > b.tightness; });
  for (const Child& child : children) {
    // T may have dropped since the children were listed: check again what depends on it.
    double u_cycle = node.i == 0 ? -infinity : cycle(node.x_in, node.w, child.x_in);
    if (u_cycle > period_ || child.tightness > period_) continue;
    path_.emplace_back(child.e, child.v);
    Walk walk = dfs(Node{child.e + 1, node.used | std::uint64_t{1} << child.v, child.v, child.x_in, child.w,
                         std::max(node.prefix, u_cycle)});
    path_.pop_back();
    if (walk == Walk::stopped) return walk;
    if (node.prefix > period_) return Walk::abandoned; // else the child was only dropped for u's cycle: go on
  }
  // Exhausted: every cut above was valid for a T at least the current one, so it holds for the current T, with
  // what u affords under the current T.
  failed_.raise(node.used, position, node.affordable(*this));
  return Walk::exhausted;
}

bool HeteroSearch::stop_requested()
{
  if (++nodes_ >= node_limit_ || (limits_.first_only && best_.improvements > 0)) return true;
  return poll_.expired(*limits_.deadline);
}

SearchOutcome HeteroSearch::minimize(double upper, const SearchLimits& limits)
{
  limits_     = limits;
  node_limit_ = limits.node_budget == std::numeric_limits<std::uint64_t>::max() ? limits.node_budget
                                                                                : nodes_ + limits.node_budget;
  best_       = SearchOutcome{};
  if (upper > memo_period_) failed_.clear(); // memorised failures hold for smaller bounds only
  path_.clear();
  set_period(upper);
  Walk walk      = dfs(Node{0, 0, source_, 0, 0, -infinity});
  memo_period_   = period_;
  best_.complete = walk != Walk::stopped && not(limits_.first_only && best_.improvements > 0);
  return best_;
}

double max_addend(double a, double bound)
{
  if (std::isinf(bound)) return bound;
  if (not(a < infinity)) return -infinity; // an infinite (or NaN) part: nothing fits
  // Doubles ordered as integers; fl(a + y) is non-decreasing in y, so gallop then bisect from y = bound - a.
  auto order = [](double d) {
    auto bits = std::bit_cast<std::int64_t>(d);
    return bits < 0 ? std::numeric_limits<std::int64_t>::min() - bits : bits;
  };
  auto value = [](std::int64_t o) {
    return std::bit_cast<double>(o < 0 ? std::numeric_limits<std::int64_t>::min() - o : o);
  };
  auto fits         = [&](std::int64_t o) { return a + value(o) <= bound; };
  std::int64_t lo   = order(bound - a); // fits(lo) after the gallop; fits(hi) never
  std::int64_t hi   = lo;
  std::int64_t step = 1;
  if (fits(lo)) {
    while (fits(hi = lo + step)) {
      lo = hi;
      step *= 2;
    }
  } else {
    while (not fits(lo = hi - step)) {
      hi = lo;
      step *= 2;
    }
  }
  while (hi - lo > 1) {
    std::int64_t mid      = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return value(lo);
}

} // namespace pipesim::exact

// Branch and bound over subsets of processors with the last processor in the state (any platform class).
#include "mappers/exact/hetero_search.hpp"

#include "mappers/exact/failed_states.hpp"
#include "mappers/exact/max_addend.hpp"
#include "mappers/exact/processor_set.hpp"
#include "mappers/exact/twins.hpp"
#include "model/analytic.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace pipesim::exact {

namespace {
constexpr std::size_t table_byte_limit = std::size_t{1} << 25; // per table of transfers or of W/s

/// The search for processor sets of type Set (see hetero_search.hpp for the method).
template <class Set>
class HeteroSearch final : public PeriodSearch {
public:
  HeteroSearch(const Problem& problem, bool reversed);
  SearchOutcome minimize(double upper, const SearchLimits& limits) override;
  int stages() const override { return n_; }

private:
  /// A state: stages 0..i-1 of the search order placed, the last interval on u with input x_in and W/s_u = w.
  struct Node {
    int i;
    Set used;
    int u;
    double x_in;
    double w;
    double prefix; // longest cycle-time of the intervals before u (all fixed)
  };
  struct Child {
    double tightness; // cycle with the cheapest next transfer: children closest to T are tried first
    int e;
    int v;
    double x_in; // transfer from u to v
    double w;    // W/s_v
  };
  /// Transfer across boundary k of the search order (k = 0: from the source P_in, or P_out when reversed; k = n:
  /// to the sink) from a to b in that order: t(a, b, delta_k), or t(b, a, delta_{n-k}) when reversed.
  double transfer(int a, int b, int k) const
  {
    if (not transfers_.empty())
      return transfers_[(static_cast<std::size_t>(k) * size_ + static_cast<std::size_t>(a)) * size_ +
                        static_cast<std::size_t>(b)];
    return compute_transfer(a, b, k);
  }
  double compute_transfer(int a, int b, int k) const;
  double work(int i, int e) const; // W of the placed stages i..e (0-based, search order)
  double time(int v, int i, int e) const
  {
    if (not times_.empty())
      return times_[(static_cast<std::size_t>(v) * n_ + static_cast<std::size_t>(i)) * n_ +
                    static_cast<std::size_t>(e)];
    return work(i, e) / speed_[static_cast<std::size_t>(v)];
  }
  double cycle(double x_in, double w, double x_out) const; // eq. (2), operations in eq. (2)'s order
  double threshold(double x_in, double w) const;           // largest x_out with cycle <= T
  double max_input(double w, double x_out) const;          // largest x_in with cycle <= T
  double affordable(const Node& node) const { return node.i == 0 ? infinity : threshold(node.x_in, node.w); }
  void build_tables();
  bool stop_requested();
  void set_period(double period);
  bool bounds_ok(int i, const Set& used) const;
  bool affords_exactly(int k, int w, const double* need, double t) const;
  const double* need(int i, const Set& free, int u, double x, bool& ok);
  bool known_failure(const Node& node, double x) const;
  bool expand(const Node& node, const double* need_f, std::vector<Child>& out);
  void record(int e, int v);
  Walk dfs(const Node& node);
  std::uint32_t position(int i, int u) const { return static_cast<std::uint32_t>(i * size_ + u); }

  const Problem& problem_;
  bool reversed_    = false;
  int n_            = 0;
  int p_            = 0;
  int source_       = 0; // node index: P_in (P_out when reversed)
  int sink_         = 0;
  std::size_t size_ = 0; // number of nodes
  Set all_;
  std::vector<double> speed_;
  std::vector<double> latency_; // a * size + b
  std::vector<double> bandwidth_;
  std::vector<double> work_;      // forward order, see interval_work_table
  std::vector<double> transfers_; // (k * size + a) * size + b -> transfer(a, b, k), if not too large
  std::vector<double> times_;     // (v * n + i) * n + e -> W(i..e)/s_v, if not too large
  std::vector<int> twin_before_;  // v -> the previous processor interchangeable with v, or -1
  std::vector<double> min_in_;    // v * n + i -> cheapest transfer into v across boundary i
  std::vector<double> min_out_;   // v * n + e -> cheapest transfer out of v across boundary e + 1

  // Depend on the bound T.
  double period_      = 0;
  double memo_period_ = -1;      // failed_ holds for every T <= memo_period_
  double tolerance_   = 0;       // where the fast test of Need_F defers to the exact one
  std::vector<double> capacity_; // v * (n + 1) + i
  std::vector<int> min_count_;   // i -> least number of intervals for the stages i..n-1
  std::vector<double> scratch_;  // Need_F of the state being expanded, (k * p + w)
  std::vector<double> start_;    // A_F[k][w] of the state being expanded, within tolerance_
  std::vector<int> live_;        // the w with A_F[k][w] >= 0

  FailedSets<Set> failed_;                // key (U, position(i, u)) -> the largest x that failed
  std::vector<std::pair<int, int>> path_; // (e, processor) of the intervals placed
  SearchOutcome best_;
  SearchLimits limits_;
  std::uint64_t node_limit_ = 0;
  DeadlinePoll poll_;
};

template <class Set>
HeteroSearch<Set>::HeteroSearch(const Problem& problem, bool reversed) : problem_(problem), reversed_(reversed)
{
  const Platform& platform = problem.platform;
  n_                       = problem.pipeline.n();
  p_                       = platform.p();
  source_                  = reversed ? platform.out() : platform.in();
  sink_                    = reversed ? platform.in() : platform.out();
  size_                    = static_cast<std::size_t>(platform.nodes());
  all_                     = Set::first_n(p_);
  work_                    = interval_work_table(problem.pipeline);
  for (int u = 0; u < p_; ++u)
    speed_.push_back(platform.speed(u));
  for (std::size_t a = 0; a < size_; ++a)
    for (std::size_t b = 0; b < size_; ++b) {
      latency_.push_back(platform.latency(static_cast<int>(a), static_cast<int>(b)));
      bandwidth_.push_back(platform.bandwidth(static_cast<int>(a), static_cast<int>(b)));
    }
  build_tables();
  twin_before_ = previous_twins(platform);
  scratch_.assign(static_cast<std::size_t>((n_ + 1) * p_), 0.0);
  start_.assign(static_cast<std::size_t>(p_), 0.0);
}

template <class Set>
void HeteroSearch<Set>::build_tables()
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

template <class Set>
double HeteroSearch<Set>::compute_transfer(int a, int b, int k) const
{
  if (reversed_) { // the data flows from b to a, across the boundary n - k of the pipeline
    std::swap(a, b);
    k = n_ - k;
  }
  auto at = static_cast<std::size_t>(a) * size_ + static_cast<std::size_t>(b);
  return latency_[at] + problem_.pipeline.delta[static_cast<std::size_t>(k)] / bandwidth_[at];
}

template <class Set>
double HeteroSearch<Set>::work(int i, int e) const
{
  if (reversed_) {
    int first = n_ - 1 - e;
    e         = n_ - 1 - i;
    i         = first;
  }
  return work_[static_cast<std::size_t>(i * n_ + e)];
}

template <class Set>
double HeteroSearch<Set>::cycle(double x_in, double w, double x_out) const
{
  // seed 000 eq. (2): (input + W/s) + output, in the pipeline's order whatever the search order
  return reversed_ ? x_out + w + x_in : x_in + w + x_out;
}

template <class Set>
double HeteroSearch<Set>::threshold(double x_in, double w) const
{
  return reversed_ ? max_addend(w, max_addend(x_in, period_)) : max_addend(x_in + w, period_);
}

template <class Set>
double HeteroSearch<Set>::max_input(double w, double x_out) const
{
  return reversed_ ? max_addend(x_out + w, period_) : max_addend(w, max_addend(x_out, period_));
}

template <class Set>
void HeteroSearch<Set>::set_period(double period)
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

template <class Set>
bool HeteroSearch<Set>::bounds_ok(int i, const Set& used) const
{
  Set free = all_.minus(used);
  if (min_count_[static_cast<std::size_t>(i)] > free.size()) return false;
  auto rows    = static_cast<std::size_t>(n_ + 1);
  double total = 0;
  free.for_each([&](int v) { total += capacity_[static_cast<std::size_t>(v) * rows + static_cast<std::size_t>(i)]; });
  // Each free processor takes at most one interval; the tolerance covers the rounding of the sums.
  return total >= work(i, n_ - 1) * (1 - 1e-12);
}

template <class Set>
bool HeteroSearch<Set>::affords_exactly(int k, int w, const double* need, double t) const
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

template <class Set>
const double* HeteroSearch<Set>::need(int i, const Set& free, int u, double x, bool& ok)
{
  // Need_F[n][w] = t(w, sink). For k < n: A_F[k][w] = max_e T - W(k..e)/s_w - Need_F[e+1][w] (the largest input
  // an interval starting at k on w affords), then Need_F[k][y] = min over w in F, w != y, with t(y, w, k) <=
  // A_F[k][w], of t(y, w, k). start_ holds A_F within tolerance_; a transfer that close to it is decided in eq.
  // (2)'s rounded operations (affords_exactly), so the bound is exact.
  auto width   = static_cast<std::size_t>(p_);
  double* need = scratch_.data();
  free.for_each([&](int w) {
    need[static_cast<std::size_t>(n_) * width + static_cast<std::size_t>(w)] = transfer(w, sink_, n_);
  });
  auto affords = [&](int k, int w, double t) {
    double approx = start_[static_cast<std::size_t>(w)];
    if (t <= approx - tolerance_) return true;
    return t <= approx + tolerance_ && affords_exactly(k, w, need, t);
  };
  for (int k = n_ - 1; k >= i; --k) {
    live_.clear();
    free.for_each([&](int w) {
      double best = -infinity;
      for (int e = k; e < n_; ++e) {
        double w_time = time(w, k, e);
        if (w_time > period_) break;
        best = std::max(best,
                        period_ - w_time - need[static_cast<std::size_t>(e + 1) * width + static_cast<std::size_t>(w)]);
      }
      start_[static_cast<std::size_t>(w)] = best;
      if (best + tolerance_ >= 0) live_.push_back(w); // transfers are >= 0
    });
    if (k == i) break;
    free.for_each([&](int y) {
      double b = infinity;
      for (int w : live_) {
        if (w == y) continue;
        double t = transfer(y, w, k);
        if (t < b && affords(k, w, t)) b = t;
      }
      need[static_cast<std::size_t>(k) * width + static_cast<std::size_t>(y)] = b;
    });
  }
  ok = false;
  for (int w : live_) {
    double t = transfer(i == 0 ? source_ : u, w, i);
    if (t <= x && affords(i, w, t)) {
      ok = true;
      break;
    }
  }
  return need;
}

template <class Set>
void HeteroSearch<Set>::record(int e, int v)
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

template <class Set>
bool HeteroSearch<Set>::expand(const Node& node, const double* need_f, std::vector<Child>& out)
{
  double x  = affordable(node);
  Set free  = all_.minus(node.used);
  bool done = free.any_of([&](int v) {
    int twin = twin_before_[static_cast<std::size_t>(v)];
    if (twin >= 0 && not node.used.contains(twin)) return false; // its twin of lower index is free: try that one
    double x_in = transfer(node.i == 0 ? source_ : node.u, v, node.i);
    for (int e = node.i; e < n_ && x_in <= x; ++e) { // x_in > x: u cannot afford it
      double w         = time(v, node.i, e);
      double threshold = this->threshold(x_in, w);
      if (threshold < 0) break; // shrinks as e grows
      if (e == n_ - 1) {
        if (transfer(v, sink_, n_) > threshold) continue;
        record(e, v); // T drops below the new mapping's period
        if (node.prefix > period_ || limits_.first_only) return true;
        x = affordable(node);
        continue;
      }
      double next = min_out_[static_cast<std::size_t>(v * n_ + e)];
      if (next <= threshold && threshold >= need_f[static_cast<std::size_t>((e + 1) * p_ + v)])
        out.push_back({cycle(x_in, w, next), e, v, x_in, w});
    }
    return false;
  });
  return not done;
}

template <class Set>
bool HeteroSearch<Set>::known_failure(const Node& node, double x) const
{
  // A failure of (i, U, u) with x' >= x, or of (i, U minus one processor other than u, u): fewer free
  // processors and less room than a failed state cannot succeed.
  std::uint32_t at = position(node.i, node.u);
  if (const double* failed = failed_.find(node.used, at); failed && x <= *failed) return true;
  if (node.i == 0) return false;
  return node.used.without(node.u).any_of([&](int v) {
    const double* failed = failed_.find(node.used.without(v), at);
    return failed && x <= *failed;
  });
}

template <class Set>
Walk HeteroSearch<Set>::dfs(const Node& node)
{
  if (stop_requested()) return Walk::stopped;
  if (node.prefix > period_) return Walk::abandoned;
  if (known_failure(node, affordable(node))) return Walk::exhausted;
  bool ok              = bounds_ok(node.i, node.used);
  const double* need_f = ok ? need(node.i, all_.minus(node.used), node.u, affordable(node), ok) : nullptr;
  std::vector<Child> children;
  if (ok && not expand(node, need_f, children)) return Walk::abandoned;
  std::sort(children.begin(), children.end(), [](const Child& a, const Child& b) { return a.tightness > b.tightness; });
  for (const Child& child : children) {
    // T may have dropped since the children were listed: check again what depends on it.
    double u_cycle = node.i == 0 ? -infinity : cycle(node.x_in, node.w, child.x_in);
    if (u_cycle > period_ || child.tightness > period_) continue;
    path_.emplace_back(child.e, child.v);
    Walk walk =
        dfs(Node{child.e + 1, node.used.with(child.v), child.v, child.x_in, child.w, std::max(node.prefix, u_cycle)});
    path_.pop_back();
    if (walk == Walk::stopped) return walk;
    if (node.prefix > period_) return Walk::abandoned; // else the child was only dropped for u's cycle: go on
  }
  // Exhausted: every cut above was valid for a T at least the current one, so it holds for the current T, with
  // what u affords under the current T.
  failed_.raise(node.used, position(node.i, node.u), affordable(node));
  return Walk::exhausted;
}

template <class Set>
bool HeteroSearch<Set>::stop_requested()
{
  if (++nodes_ >= node_limit_ || (limits_.first_only && best_.improvements > 0)) return true;
  return poll_.expired(*limits_.deadline);
}

template <class Set>
SearchOutcome HeteroSearch<Set>::minimize(double upper, const SearchLimits& limits)
{
  limits_     = limits;
  node_limit_ = node_limit_for(limits.node_budget);
  best_       = SearchOutcome{};
  if (upper > memo_period_) failed_.clear(); // memorised failures hold for smaller bounds only
  path_.clear();
  set_period(upper);
  Walk walk      = dfs(Node{0, Set{}, source_, 0, 0, -infinity});
  memo_period_   = period_;
  best_.complete = walk != Walk::stopped && not(limits_.first_only && best_.improvements > 0);
  return best_;
}

template <std::size_t W>
std::unique_ptr<PeriodSearch> make_hetero_search(const Problem& problem, bool reversed, std::size_t words)
{
  if constexpr (W < max_set_words) {
    if (words > W) return make_hetero_search<2 * W>(problem, reversed, words);
  }
  return std::make_unique<HeteroSearch<ProcessorSet<W>>>(problem, reversed);
}
} // namespace

std::unique_ptr<PeriodSearch> make_hetero_search(const Problem& problem, bool reversed, std::size_t words)
{
  words = std::max(words, set_words_for(problem.platform.p()));
  assert(words <= max_set_words);
  return make_hetero_search<1>(problem, reversed, words);
}

} // namespace pipesim::exact

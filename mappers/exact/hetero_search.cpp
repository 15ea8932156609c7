// Branch and bound over subsets of processors with the last processor in the state (any platform class).
#include "mappers/exact/hetero_search.hpp"

#include "mappers/exact/failed_states.hpp"
#include "mappers/exact/hetero_tables.hpp"
#include "mappers/exact/processor_set.hpp"
#include "mappers/exact/twins.hpp"
#include "model/analytic.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace pipesim::exact {

namespace {

/// The search for processor sets of type Set (see hetero_search.hpp for the method).
template <class Set>
class HeteroSearch final : public PeriodSearch, private HeteroTables {
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
  double affordable(const Node& node) const { return node.i == 0 ? infinity : threshold(node.x_in, node.w); }
  bool stop_requested();
  bool bounds_ok(int i, const Set& used) const;
  const double* need(int i, const Set& free, int u, double x, bool& ok);
  bool known_failure(const Node& node, double x) const;
  bool expand(const Node& node, const double* need_f, std::vector<Child>& out);
  void record(int e, int v);
  Walk dfs(const Node& node);
  std::uint32_t position(int i, int u) const { return static_cast<std::uint32_t>(i * size_ + u); }

  Set all_;
  std::vector<int> twin_before_; // v -> the previous processor interchangeable with v, or -1

  // Depend on the bound T.
  double memo_period_ = -1;     // failed_ holds for every T <= memo_period_
  std::vector<double> scratch_; // Need_F of the state being expanded, (k * p + w)
  std::vector<double> start_;   // A_F[k][w] of the state being expanded, within tolerance_
  std::vector<int> live_;       // the w with A_F[k][w] >= 0

  FailedSets<Set> failed_;                // key (U, position(i, u)) -> the largest x that failed
  std::vector<std::pair<int, int>> path_; // (e, processor) of the intervals placed
  SearchOutcome best_;
  SearchLimits limits_;
  std::uint64_t node_limit_ = 0;
  DeadlinePoll poll_;
};

template <class Set>
HeteroSearch<Set>::HeteroSearch(const Problem& problem, bool reversed) : HeteroTables(problem, reversed)
{
  all_         = Set::first_n(p_);
  twin_before_ = previous_twins(problem.platform);
  scratch_.assign(static_cast<std::size_t>((n_ + 1) * p_), 0.0);
  start_.assign(static_cast<std::size_t>(p_), 0.0);
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
std::unique_ptr<PeriodSearch> make_search_of_width(const Problem& problem, bool reversed, std::size_t words)
{
  if constexpr (W < max_set_words) {
    if (words > W) return make_search_of_width<2 * W>(problem, reversed, words);
  }
  return std::make_unique<HeteroSearch<ProcessorSet<W>>>(problem, reversed);
}
} // namespace

std::unique_ptr<PeriodSearch> make_hetero_search(const Problem& problem, bool reversed, std::size_t words)
{
  words = std::max(words, set_words_for(problem.platform.p()));
  assert(words <= max_set_words);
  return make_search_of_width<1>(problem, reversed, words);
}

} // namespace pipesim::exact

// HeDPM's exact optimum on any links: depth first over (end, replica count, ordered replica list) with memorised
// failures of (stages placed, used set, last list, partial times).
#include "mappers/hedpm/exact_general.hpp"

#include "model/hedpm/production_time.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>

namespace pipesim::hedpm_exact {

using exact::Walk;

namespace {
/// Lists longer than this are not memorised (their key would not fit in 64 bits).
constexpr std::size_t max_memo_list = 7;
/// Failed vectors kept per memorised (i, U, B), and memorised (i, U, B) with several replicas at most.
constexpr std::size_t max_failed_vectors = 8;
constexpr std::size_t max_failed_lists   = std::size_t{1} << 20;

std::uint64_t memo_key(int i, const std::vector<int>& list, bool free_order)
{
  std::uint64_t key = static_cast<std::uint64_t>(i) | static_cast<std::uint64_t>(list.size()) << 11 |
                      static_cast<std::uint64_t>(free_order) << 14;
  for (std::size_t k = 0; k < list.size(); ++k)
    key |= static_cast<std::uint64_t>(list[k]) << (15 + 6 * k);
  return key;
}

bool dominated(const double* failed, const std::vector<double>& partial) // failed <= partial, componentwise
{
  for (std::size_t r = 0; r < partial.size(); ++r)
    if (failed[r] > partial[r]) return false;
  return true;
}
} // namespace

GeneralSearch::GeneralSearch(const Problem& problem, HedpmSpace space)
    : problem_(problem), space_(space), n_(problem.pipeline.n()), p_(problem.platform.p()), bounds_(problem, space)
{
  const Platform& platform = problem.platform;
  order_.resize(static_cast<std::size_t>(p_));
  std::iota(order_.begin(), order_.end(), 0);
  std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) { return platform.speed(a) > platform.speed(b); });
  rank_.resize(static_cast<std::size_t>(p_));
  for (int a = 0; a < p_; ++a)
    rank_[static_cast<std::size_t>(order_[static_cast<std::size_t>(a)])] = a;
}

Outcome GeneralSearch::minimize(double upper, const Deadline& deadline)
{
  best_     = Outcome{};
  bound_    = below(upper);
  deadline_ = &deadline;
  State root;
  root.list  = {problem_.platform.in()};
  root.fixed = 0;
  bounds_.set_bound(bound_);
  Walk walk      = dfs(root);
  best_.complete = walk != Walk::stopped;
  return best_;
}

bool GeneralSearch::memo_fails(const State& state) const
{
  if (state.i == 0 || state.list.size() > max_memo_list) return false;
  std::uint64_t key = memo_key(state.i, state.list, state.free_order);
  if (state.list.size() == 1) {
    const double* least = failed_.find(state.used, key);
    return least != nullptr && -*least <= state.partial[0];
  }
  auto it = failed_lists_.find(ListKey{state.used, key});
  if (it == failed_lists_.end()) return false;
  const std::vector<double>& failed = it->second; // vectors of size R one after the other
  for (std::size_t at = 0; at < failed.size(); at += state.partial.size())
    if (dominated(&failed[at], state.partial)) return true;
  return false;
}

void GeneralSearch::memo_store(const State& state)
{
  if (state.i == 0 || state.list.size() > max_memo_list) return;
  std::uint64_t key = memo_key(state.i, state.list, state.free_order);
  if (state.list.size() == 1) {
    failed_.raise(state.used, key, -state.partial[0]);
    return;
  }
  if (failed_lists_.size() >= max_failed_lists) failed_lists_.clear(); // a cache: forgetting only costs time
  std::vector<double>& failed = failed_lists_[ListKey{state.used, key}];
  std::size_t size            = state.partial.size();
  if (failed.size() < max_failed_vectors * size)
    failed.insert(failed.end(), state.partial.begin(), state.partial.end());
}

std::vector<GeneralSearch::Single> GeneralSearch::singles(const State& state, double capacity, int free) const
{
  const Platform& platform = problem_.platform;
  std::vector<Single> found;
  double bytes = problem_.pipeline.data(state.i);
  for (int e = state.i + 1; e <= n_; ++e) {
    if (bounds_.work(state.i, e) > capacity) break; // W grows with e
    bool any = false;
    for (int v : order_) {
      if (state.used >> v & 1) continue;
      double in      = hedpm_in_time(platform, state.list, std::span<const int>(&v, 1), 0, bytes);
      double partial = in + bounds_.work(state.i, e) / platform.speed(v);
      if (partial > bound_) continue;
      any = true;
      if (bounds_.need(e) > free - 1) continue; // the stages after e would lack processors
      double out =
          e == n_ ? platform.transfer_time(v, platform.out(), problem_.pipeline.data(n_)) : bounds_.cheapest(v, e);
      if (partial + out <= bound_) found.push_back(Single{e, v, partial, partial + out});
    }
    if (not any) break; // in + W / s only grows with e: no processor takes a longer interval alone either
  }
  // Tightest fit first (br07 Algorithm 1's choice, as exact.interval): the largest time that fits.
  std::stable_sort(found.begin(), found.end(), [](const Single& a, const Single& b) { return a.lower > b.lower; });
  return found;
}

Walk GeneralSearch::dfs(const State& state)
{
  ++best_.nodes;
  if (poll_.expired(*deadline_)) return Walk::stopped;
  if (memo_fails(state)) return Walk::exhausted;
  double free_speed = 0;
  for (int u = 0; u < p_; ++u)
    free_speed += state.used >> u & 1 ? 0.0 : problem_.platform.speed(u);
  double capacity = bound_ * free_speed * (1 + bound_slack);
  int free        = p_ - std::popcount(state.used);
  if (bounds_.work(state.i, n_) > capacity || bounds_.need(state.i) > free ||
      bounds_.work(state.i, n_) > bounds_.free_capacity(state.used, state.i)) {
    memo_store(state);
    return Walk::exhausted;
  }
  for (const Single& single : singles(state, capacity, free)) { // one replica
    if (single.lower > bound_) continue;
    Child child;
    child.e          = single.e;
    child.k          = 1;
    child.work       = bounds_.work(state.i, single.e);
    child.free_order = true;
    child.list       = {single.v};
    child.partial    = {single.partial};
    child.chosen     = std::uint64_t{1} << single.v;
    Walk walk        = close(state, child);
    if (walk == Walk::stopped) return walk;
    if (bound_ < state.fixed) return Walk::abandoned;
  }
  int last = space_ == HedpmSpace::single_stage_replicas ? state.i + 1 : n_;
  std::vector<std::vector<double>> in_cache(state.list.size() + 1); // per gcd(k, R_B): see fill_in_times
  for (int e = state.i + 1; e <= last; ++e) {                       // several replicas
    if (bounds_.work(state.i, e) > capacity) break;
    for (int k = 2; k <= free && bounds_.need(e) <= free - k; ++k) {
      Walk walk = replicate(state, e, k, in_cache);
      if (walk == Walk::stopped) return walk;
      if (bound_ < state.fixed) return Walk::abandoned;
    }
  }
  memo_store(state);
  return Walk::exhausted;
}

Walk GeneralSearch::replicate(const State& state, int e, int k, std::vector<std::vector<double>>& in_cache)
{
  auto replicas = static_cast<int>(state.list.size());
  int g         = std::gcd(k, replicas);
  Child child;
  child.e          = e;
  child.k          = k;
  child.work       = bounds_.work(state.i, e);
  child.free_order = g == 1; // its in-terms and B's out-terms are then means over all partners
  child.room       = e < n_ ? bounds_.free_capacity(state.used, e) - bounds_.work(e, n_) : unbounded;
  if (child.room < 0) return Walk::exhausted;
  child.list.assign(static_cast<std::size_t>(k), -1);
  child.partial.assign(static_cast<std::size_t>(k), 0.0);
  child.sent.assign(static_cast<std::size_t>(replicas), 0.0);
  if (g == 1 || not state.free_order) {
    std::vector<double>& cached = in_cache[static_cast<std::size_t>(g)];
    if (cached.empty()) {
      fill_in_times(state, child);
      cached = child.in_times;
    } else {
      child.in_times = cached;
    }
    return extend(state, child, 0);
  }
  // B was kept as a set (any order gives it the same times); with this child its order matters: try every one.
  std::vector<int> order(static_cast<std::size_t>(replicas));
  std::iota(order.begin(), order.end(), 0);
  State view = state;
  Walk walk  = Walk::exhausted;
  do {
    for (std::size_t r = 0; r < order.size(); ++r) {
      view.list[r]    = state.list[static_cast<std::size_t>(order[r])];
      view.partial[r] = state.partial[static_cast<std::size_t>(order[r])];
    }
    path_.reorder_top(view.list);
    fill_in_times(view, child);
    walk = extend(view, child, 0);
  } while (walk != Walk::stopped && bound_ >= state.fixed && std::next_permutation(order.begin(), order.end()));
  path_.reorder_top(state.list);
  return walk == Walk::stopped ? walk : bound_ < state.fixed ? Walk::abandoned : Walk::exhausted;
}

void GeneralSearch::fill_in_times(const State& state, Child& child) const
{
  // The in-term of position r depends on the processor and on r mod gcd(k, R_B) only.
  int g = std::gcd(child.k, static_cast<int>(state.list.size()));
  child.in_times.assign(static_cast<std::size_t>(g * p_), 0.0);
  std::vector<int> probe(static_cast<std::size_t>(child.k));
  for (int v = 0; v < p_; ++v) {
    if (state.used >> v & 1) continue;
    std::fill(probe.begin(), probe.end(), v);
    for (int c = 0; c < g; ++c)
      child.in_times[static_cast<std::size_t>(c * p_ + v)] =
          hedpm_in_time(problem_.platform, state.list, probe, c, problem_.pipeline.data(state.i));
  }
}

bool GeneralSearch::previous_fits(const State& state, Child& child, int position, int v) const
{
  if (state.i == 0) return true; // P_in has no time of its own
  const Platform& platform = problem_.platform;
  auto replicas            = static_cast<int>(state.list.size());
  int g                    = std::gcd(child.k, replicas);
  double bytes             = problem_.pipeline.data(state.i);
  int partners             = child.k / g;
  int filled               = position / g + 1; // positions of this class chosen, this one included
  bool fits                = true;
  for (int r = position % g; r < replicas; r += g) { // the replicas of B that deal with this position
    int u        = state.list[static_cast<std::size_t>(r)];
    double& sent = child.sent[static_cast<std::size_t>(r)];
    sent += platform.transfer_time(u, v, bytes);
    double rest  = (partners - filled) * bounds_.cheapest(u, state.i);
    double least = (sent * (1 - mean_margin) + rest) / partners;
    fits         = fits && (state.partial[static_cast<std::size_t>(r)] + least) / replicas <= bound_;
  }
  return fits;
}

Walk GeneralSearch::extend(const State& state, Child& child, int position)
{
  if (position == child.k) return close(state, child);
  if (poll_.expired(*deadline_)) return Walk::stopped; // long enumerations of lists may pass few states
  const Platform& platform = problem_.platform;
  auto r                   = static_cast<std::size_t>(position);
  int g                    = std::gcd(child.k, static_cast<int>(state.list.size()));
  // A set (free order) is enumerated once, its processors in increasing rank of order_.
  int from = child.free_order && position > 0 ? rank_[static_cast<std::size_t>(child.list[r - 1])] + 1 : 0;
  for (int a = from; a < p_; ++a) {
    int v = order_[static_cast<std::size_t>(a)];
    if ((state.used | child.chosen) >> v & 1) continue;
    double partial = child.in_times[static_cast<std::size_t>((position % g) * p_ + v)] + child.work / platform.speed(v);
    double out     = child.e == n_ ? platform.transfer_time(v, platform.out(), problem_.pipeline.data(n_))
                                   : bounds_.cheapest(v, child.e);
    if ((partial + out) / child.k > bound_) continue;
    // the others must still take the work after e (capacity bound): each replica takes its share out of the room
    double share = child.e < n_ ? bounds_.cap(v, child.e) * (1 + bound_slack) : 0;
    if (share > child.room) continue;
    // B's sums are restored from a copy: subtracting would not give the same bits back
    std::vector<double> sent = child.sent;
    bool fits                = previous_fits(state, child, position, v);
    Walk walk                = Walk::exhausted;
    if (fits) {
      child.list[r]    = v;
      child.partial[r] = partial;
      child.chosen |= std::uint64_t{1} << v;
      child.room -= share;
      walk = extend(state, child, position + 1);
      child.room += share;
      child.chosen &= ~(std::uint64_t{1} << v);
    }
    child.sent = std::move(sent);
    if (walk == Walk::stopped) return walk;
    if (bound_ < state.fixed) return Walk::abandoned;
  }
  child.list[r] = -1;
  return Walk::exhausted;
}

Walk GeneralSearch::close(const State& state, Child& child)
{
  const Platform& platform = problem_.platform;
  double reached           = state.fixed;
  if (state.i > 0) { // B's T is final now that its successors are known
    double worst = 0;
    for (int r = 0; r < static_cast<int>(state.list.size()); ++r) {
      double out = hedpm_out_time(platform, state.list, r, child.list, problem_.pipeline.data(state.i));
      worst      = std::max(worst, state.partial[static_cast<std::size_t>(r)] + out);
    }
    double t = worst / static_cast<double>(state.list.size());
    if (t > bound_) return Walk::exhausted;
    reached = std::max(reached, t);
  }
  if (child.e < n_ && bounds_.work(child.e, n_) > bounds_.free_capacity(state.used | child.chosen, child.e))
    return Walk::exhausted; // the processors left cannot take the work left
  path_.push(state.i + 1, child.e, child.list.data(), child.k);
  Walk walk = Walk::exhausted;
  if (child.e == n_) {
    double worst = 0;
    for (int r = 0; r < child.k; ++r) {
      int v = child.list[static_cast<std::size_t>(r)];
      worst = std::max(worst, child.partial[static_cast<std::size_t>(r)] +
                                  platform.transfer_time(v, platform.out(), problem_.pipeline.data(n_)));
    }
    reached = std::max(reached, worst / child.k);
    if (reached <= bound_) {
      best_.mapping = path_.mapping();
      best_.value   = reached;
      ++best_.improvements;
      assert(hedpm_production_time(problem_.pipeline, platform, best_.mapping) == reached);
      bound_ = below(reached);
      bounds_.set_bound(bound_);
    }
  } else {
    State next;
    next.i          = child.e;
    next.used       = state.used | child.chosen;
    next.list       = child.list;
    next.partial    = child.partial;
    next.fixed      = reached;
    next.free_order = child.free_order;
    walk            = dfs(next);
  }
  path_.pop();
  return walk;
}

} // namespace pipesim::hedpm_exact

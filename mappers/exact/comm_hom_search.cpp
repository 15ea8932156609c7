// Branch and bound over best-fit subsets of processors sorted by speed (platforms whose links are all equal).
#include "mappers/exact/comm_hom_search.hpp"

#include "mappers/exact/failed_states.hpp"
#include "mappers/exact/processor_set.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>

namespace pipesim::exact {

namespace {
/// row[k] = min(row[k], next[k] + add) for k < count; row and next are distinct rows of a table (restrict lets the
/// compiler vectorise the loop, the hot spot of the table builds).
template <class Count>
void min_plus(Count* __restrict row, const Count* __restrict next, std::size_t count, Count add)
{
  constexpr std::size_t block = 16; // whole blocks of a known length: vectorised at -O2 too
  std::size_t k               = 0;
  for (; k + block <= count; k += block)
    for (std::size_t j = k; j < k + block; ++j)
      row[j] = std::min(row[j], static_cast<Count>(next[j] + add));
  for (; k < count; ++k)
    row[k] = std::min(row[k], static_cast<Count>(next[k] + add));
}

/// The search for sets of ranks of type Set (see comm_hom_search.hpp for the method).
template <class Set>
class CommHomSearch final : public PeriodSearch {
public:
  explicit CommHomSearch(const Problem& problem);
  SearchOutcome minimize(double upper, const SearchLimits& limits) override;
  int stages() const override { return n_; }

private:
  /// Levels and Hall counts: a byte while the ranks fit in 128 (the tables stay small), else two.
  using Count                        = std::conditional_t<(Set::capacity <= 128), std::uint8_t, std::uint16_t>;
  static constexpr Count unreachable = std::numeric_limits<Count>::max() - 1; // H[t][i][k] when no partition exists

  double cycle(int r, int i, int e) const;           // eq. (2) cycle-time of S_{i+1}..S_{e+1} on rank r
  int best_fit(int i, int e, const Set& used) const; // slowest free rank fast enough, or -1
  bool stop_requested();
  void set_period(double period);
  void build_levels();
  void build_hall_bounds();
  void build_least_high();
  void build_capacities();
  bool hall_ok(int i, const Set& used) const;
  bool capacity_ok(int i, const Set& used) const;
  Set memo_key(int i, const Set& used) const;
  void record(double period);
  Walk dfs(int i, const Set& used, double prefix);

  int n_ = 0;
  int q_ = 0;                    // processors retained
  std::vector<int> processor_;   // rank -> processor index (ascending speed)
  std::vector<double> speed_;    // rank -> s_u
  std::vector<double> in_time_;  // i -> transfer of delta_i into the interval starting at S_{i+1}
  std::vector<double> out_time_; // e -> transfer of delta_{e+1} out of the interval ending at S_{e+1}
  std::vector<double> work_;     // i * n + e -> W(i+1, e+1), see interval_work_table
  Set all_;                      // every rank

  // Depend on the bound T.
  double period_              = 0;
  double bounds_period_       = 0;        // T of the Hall and capacity tables (>= period_)
  std::uint64_t bounds_nodes_ = 0;        // nodes_ when they were built
  std::vector<int> last_;                 // i -> last e with in_time + W / s_fastest <= T (i - 1 if none)
  std::vector<Count> level_;              // i * n + e -> level, q when the interval fits on no processor
  std::vector<int> thresholds_;           // the ranks t of the Hall bounds (all of them unless too costly)
  std::vector<Count> hall_;               // (j * (n + 1) + i) * (q + 1) + k -> H[thresholds_[j]][i][k]
  std::vector<Count> least_high_;         // i * q + t -> G[t][i], least intervals of level >= t in S_{i+1}..S_n
  std::vector<double> capacity_;          // r * (n + 1) + i -> most work of one interval in S_{i+1}..S_n on rank r
  FailedSets<Set> failed_;                // key (memo_key(i, U), i); valid for every smaller T
  std::vector<std::pair<int, int>> path_; // (e, rank) of the intervals chosen so far
  SearchOutcome best_;
  SearchLimits limits_;
  std::uint64_t node_limit_ = 0; // nodes_ at which the budget runs out
  DeadlinePoll poll_;
};

template <class Set>
CommHomSearch<Set>::CommHomSearch(const Problem& problem)
{
  const Pipeline& pipeline = problem.pipeline;
  const Platform& platform = problem.platform;
  n_                       = pipeline.n();
  std::vector<int> order(static_cast<std::size_t>(platform.p()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return platform.speed(a) > platform.speed(b); });
  q_ = std::min(n_, platform.p());
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
  all_  = Set::first_n(q_);
}

template <class Set>
double CommHomSearch<Set>::cycle(int r, int i, int e) const
{
  // br07 eq. (2), evaluated as br07_interval_cycle_time does (same operations, same order)
  return in_time_[static_cast<std::size_t>(i)] +
         work_[static_cast<std::size_t>(i * n_ + e)] / speed_[static_cast<std::size_t>(r)] +
         out_time_[static_cast<std::size_t>(e)];
}

template <class Set>
int CommHomSearch<Set>::best_fit(int i, int e, const Set& used) const
{
  int level = level_[static_cast<std::size_t>(i * n_ + e)];
  if (level >= q_) return -1;
  return all_.minus(used).first_from(level);
}

template <class Set>
void CommHomSearch<Set>::set_period(double period)
{
  period_ = period;
  build_levels(); // exact levels: the best fit depends on them
  // The bound tables, built for a larger T, remain valid (weaker) bounds for a smaller one: rebuild them only when
  // T dropped noticeably or enough nodes were expanded since, so that many small improvements stay cheap.
  if (period < bounds_period_ * (1 - 1e-3) || nodes_ >= bounds_nodes_ + 4096 || bounds_period_ == 0) {
    bounds_period_ = period;
    bounds_nodes_  = nodes_;
    build_hall_bounds();
    build_least_high();
    build_capacities();
  }
}

template <class Set>
void CommHomSearch<Set>::build_levels()
{
  double period = period_;
  last_.assign(static_cast<std::size_t>(n_), 0);
  level_.assign(static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_), static_cast<Count>(q_));
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
      level_[static_cast<std::size_t>(i * n_ + e)] = static_cast<Count>(lo);
    }
    last_[static_cast<std::size_t>(i)] = e - 1;
  }
}

template <class Set>
void CommHomSearch<Set>::build_hall_bounds()
{
  // One table per threshold costs O(q * sum of the interval counts); keep the total within a fixed budget.
  constexpr double budget = 1 << 25;
  double pairs            = 0;
  for (int i = 0; i < n_; ++i)
    pairs += last_[static_cast<std::size_t>(i)] - i + 1;
  auto count = std::max(1, static_cast<int>(std::min<double>(q_, budget / std::max(1.0, pairs * q_))));
  thresholds_.clear();
  for (int j = 0; j < count; ++j)
    thresholds_.push_back(j * q_ / count); // includes t = 0: a partition into at most k intervals exists
  auto width = static_cast<std::size_t>(q_ + 1);
  auto rows  = static_cast<std::size_t>(n_ + 1);
  hall_.assign(thresholds_.size() * rows * width, unreachable);
  for (std::size_t j = 0; j < thresholds_.size(); ++j) {
    int t        = thresholds_[j];
    Count* table = &hall_[j * rows * width];
    std::fill(table + static_cast<std::size_t>(n_) * width, table + rows * width, Count{0});
    for (int i = n_ - 1; i >= 0; --i) {
      Count* row = table + static_cast<std::size_t>(i) * width;
      for (int e = i; e <= last_[static_cast<std::size_t>(i)]; ++e) {
        int level = level_[static_cast<std::size_t>(i * n_ + e)];
        if (level >= q_) continue;
        auto high         = static_cast<Count>(level >= t ? 1 : 0);
        const Count* next = table + static_cast<std::size_t>(e + 1) * width;
        // next[k - 1] <= unreachable, so the sum fits in a Count and stays >= unreachable when unreachable
        min_plus(row + 1, next, width - 1, high);
      }
    }
  }
}

template <class Set>
void CommHomSearch<Set>::build_capacities()
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

template <class Set>
bool CommHomSearch<Set>::capacity_ok(int i, const Set& used) const
{
  auto rows    = static_cast<std::size_t>(n_ + 1);
  double total = 0;
  all_.minus(used).for_each(
      [&](int r) { total += capacity_[static_cast<std::size_t>(r) * rows + static_cast<std::size_t>(i)]; });
  // Each free processor takes at most one interval; the tolerance covers the rounding of the sums.
  return total >= work_[static_cast<std::size_t>(i * n_ + n_ - 1)] * (1 - 1e-12);
}

template <class Set>
void CommHomSearch<Set>::build_least_high()
{
  // G[t][i] = min over e of G[t][e + 1] + (level(i, e) >= t), G[t][n] = 0: one pass per threshold t.
  auto q = static_cast<std::size_t>(q_);
  least_high_.assign((static_cast<std::size_t>(n_) + 1) * q, unreachable);
  std::fill(least_high_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(n_) * q), least_high_.end(),
            Count{0});
  for (int i = n_ - 1; i >= 0; --i) {
    Count* row = &least_high_[static_cast<std::size_t>(i) * q];
    for (int e = i; e <= last_[static_cast<std::size_t>(i)]; ++e) {
      int level = level_[static_cast<std::size_t>(i * n_ + e)];
      if (level >= q_) continue;
      const Count* next = &least_high_[static_cast<std::size_t>(e + 1) * q];
      auto high         = static_cast<std::size_t>(level) + 1; // thresholds t <= level count this interval
      min_plus(row, next, high, Count{1});
      min_plus(row + high, next + high, q - high, Count{0});
    }
  }
}

template <class Set>
bool CommHomSearch<Set>::hall_ok(int i, const Set& used) const
{
  Set free = all_.minus(used);
  // Every threshold t, any number of intervals: G[t][i] <= free ranks >= t.
  const Count* least = &least_high_[static_cast<std::size_t>(i) * static_cast<std::size_t>(q_)];
  int above          = 0;
  for (int t = q_ - 1; t >= 0; --t) {
    if (free.contains(t)) ++above;
    if (least[t] > above) return false;
  }
  // Some thresholds, at most as many intervals as free ranks: H[t][i][k] <= free ranks >= t.
  auto k     = static_cast<std::size_t>(free.size());
  auto width = static_cast<std::size_t>(q_ + 1);
  auto rows  = static_cast<std::size_t>(n_ + 1);
  for (std::size_t j = 0; j < thresholds_.size(); ++j) {
    Count h = hall_[(j * rows + static_cast<std::size_t>(i)) * width + k];
    if (h >= unreachable || h > free.count_from(thresholds_[j])) return false;
  }
  return true;
}

template <class Set>
Set CommHomSearch<Set>::memo_key(int i, const Set& used) const
{
  // The stages left take at most n - i intervals, and moving one to a faster free rank never hurts: only the n - i
  // fastest free ranks matter, so states that agree on them are the same state.
  return all_.minus(used).highest(n_ - i);
}

template <class Set>
void CommHomSearch<Set>::record(double period)
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

template <class Set>
Walk CommHomSearch<Set>::dfs(int i, const Set& used, double prefix)
{
  if (stop_requested()) return Walk::stopped;
  if (prefix > period_) return Walk::abandoned;
  auto position = static_cast<std::uint32_t>(i);
  if (failed_.find(memo_key(i, used), position) != nullptr) return Walk::exhausted;
  if (nodes_ >= bounds_nodes_ + 4096 && bounds_period_ > period_) set_period(period_);
  if (capacity_ok(i, used) && hall_ok(i, used)) {
    struct Child {
      double cycle;
      int e;
    };
    std::vector<Child> children;
    for (int e = i; e <= last_[static_cast<std::size_t>(i)]; ++e)
      if (int rank = best_fit(i, e, used); rank >= 0) children.push_back({cycle(rank, i, e), e});
    // Tightest fits first (the choice of br07 Algorithm 1): a good order to find a mapping early.
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
        Walk walk = child.e == n_ - 1 ? Walk::exhausted : dfs(child.e + 1, used.with(rank), c);
        if (child.e == n_ - 1) record(c);
        path_.pop_back();
        if (walk == Walk::stopped || (limits_.first_only && best_.improvements > 0)) return Walk::stopped;
        if (prefix > period_) return Walk::abandoned; // else only this interval was too long: go on
      }
    }
  }
  // Exhausted: every pruning above was valid for a T at least the current one, so this holds for the current T.
  failed_.raise(memo_key(i, used), position, 0);
  return Walk::exhausted;
}

template <class Set>
SearchOutcome CommHomSearch<Set>::minimize(double upper, const SearchLimits& limits)
{
  limits_     = limits;
  node_limit_ = node_limit_for(limits.node_budget);
  best_       = SearchOutcome{};
  failed_.clear();
  path_.clear();
  bounds_period_ = 0;
  set_period(upper);
  Walk walk      = dfs(0, Set{}, -std::numeric_limits<double>::infinity());
  best_.complete = walk != Walk::stopped && not(limits_.first_only && best_.improvements > 0);
  return best_;
}

template <class Set>
bool CommHomSearch<Set>::stop_requested()
{
  if (++nodes_ >= node_limit_ || (limits_.first_only && best_.improvements > 0)) return true;
  return poll_.expired(*limits_.deadline);
}

template <std::size_t W>
std::unique_ptr<PeriodSearch> make_search(const Problem& problem, std::size_t words)
{
  if constexpr (W < max_set_words) {
    if (words > W) return make_search<2 * W>(problem, words);
  }
  return std::make_unique<CommHomSearch<ProcessorSet<W>>>(problem);
}
} // namespace

std::unique_ptr<PeriodSearch> make_comm_hom_search(const Problem& problem, std::size_t words)
{
  int q = std::min(problem.pipeline.n(), problem.platform.p());
  words = std::max(words, set_words_for(q));
  assert(words <= max_set_words);
  return make_search<1>(problem, words);
}

} // namespace pipesim::exact

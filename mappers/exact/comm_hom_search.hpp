// Exact interval mapping on Communication Homogeneous platforms: branch and bound over best-fit subsets of
// processors sorted by speed.
#pragma once

#include "mappers/exact/search.hpp"

#include <cstdint>
#include <vector>

namespace pipesim::exact {

/// Minimises the seed 000 eq. (2) period when every link has the same bandwidth b and latency c
/// (Fully Homogeneous or Communication Homogeneous platforms of seed 000 §2.2), so that the seed 000 eq. (2)
/// cycle-time of an interval depends on its processor only: C(d, e, u) = c + delta_{d-1}/b + W(d, e)/s_u + c +
/// delta_e/b, non-increasing in s_u.
///
/// Structure used for a bound T (see PeriodSearch; each step is exact):
/// 1. Only the q = min(n, p) fastest processors matter: moving an interval to an unused faster processor never
///    raises its cycle-time, and a mapping has at most q intervals. Ranks 0..q-1 order them by speed.
/// 2. For a period T, interval I needs a processor of rank >= level(I) (the slowest one on which it fits). The
///    intervals of a partition can be given distinct processors iff Hall's condition holds, here: for every rank t,
///    #{I : level(I) >= t} <= #{ranks >= t}.
/// 3. Best fit is exact in any order: give each interval, left to right, the slowest free processor of rank >=
///    its level. Exchange argument: if some assignment A completes the prefix, and best fit gives I the processor
///    x while A gives it y (so rank x <= rank y), then swap x and y in A: the interval that A gave x (if any) moves
///    to y, which is at least as fast, so A stays valid and now agrees with best fit on I. Hence the search only
///    branches on where the next interval ends; the processor is forced, and processors of equal speed are used in
///    a fixed order, so a state (stages done i, used ranks U) stands for a count per speed class.
/// 4. Failed states (i, U) are memorised (hash set). A state is cut when a Hall bound fails: H[t][i][k], the least
///    number of intervals of level >= t in any partition of S_{i+1}..S_n into at most k intervals, must not exceed
///    the free ranks >= t, for every t (evenly spaced ranks only, when all would cost too much), with k the number
///    of free ranks; or when the capacity bound fails: the
///    free ranks r, each taking at most one interval of work at most cap(r, i) (the most work of an interval of
///    S_{i+1}..S_n that fits r), must cover the work left.
/// Complexity: O(q n^2 (q + log q)) per improvement for the tables, at most (n + 1) 2^q states of O(n + q) work
/// each (exponential: the problem is NP-hard, seed 000 Theorem 3); in practice few states survive the bounds.
class CommHomSearch final : public PeriodSearch {
public:
  explicit CommHomSearch(const Problem& problem);
  SearchOutcome minimize(double upper, const SearchLimits& limits) override;

private:
  double cycle(int r, int i, int e) const;              // eq. (2) cycle-time of S_{i+1}..S_{e+1} on rank r
  int best_fit(int i, int e, std::uint64_t used) const; // slowest free rank fast enough, or -1
  bool stop_requested();
  void set_period(double period);
  void build_levels();
  void build_hall_bounds();
  void build_capacities();
  bool hall_ok(int i, std::uint64_t used) const;
  bool capacity_ok(int i, std::uint64_t used) const;
  void record(double period);
  Walk dfs(int i, std::uint64_t used, double prefix);

  int n_ = 0;
  int q_ = 0;                    // processors retained
  std::vector<int> processor_;   // rank -> processor index (ascending speed)
  std::vector<double> speed_;    // rank -> s_u
  std::vector<double> in_time_;  // i -> transfer of delta_i into the interval starting at S_{i+1}
  std::vector<double> out_time_; // e -> transfer of delta_{e+1} out of the interval ending at S_{e+1}
  std::vector<double> work_;     // i * n + e -> W(i+1, e+1), see interval_work_table
  std::uint64_t all_ = 0;        // every rank

  // Depend on the bound T.
  double period_              = 0;
  double bounds_period_       = 0;        // T of the Hall and capacity tables (>= period_)
  std::uint64_t bounds_nodes_ = 0;        // nodes_ when they were built
  std::vector<int> last_;                 // i -> last e with in_time + W / s_fastest <= T (i - 1 if none)
  std::vector<std::uint8_t> level_;       // i * n + e -> level, q when the interval fits on no processor
  std::vector<int> thresholds_;           // the ranks t of the Hall bounds (all of them unless too costly)
  std::vector<std::uint8_t> hall_;        // (j * (n + 1) + i) * (q + 1) + k -> H[thresholds_[j]][i][k]
  std::vector<double> capacity_;          // r * (n + 1) + i -> most work of one interval in S_{i+1}..S_n on rank r
  FailedStates failed_;                   // key (U, i); valid for every smaller T
  std::vector<std::pair<int, int>> path_; // (e, rank) of the intervals chosen so far
  SearchOutcome best_;
  SearchLimits limits_;
  std::uint64_t node_limit_ = 0; // nodes_ at which the budget runs out
  DeadlinePoll poll_;
};

} // namespace pipesim::exact

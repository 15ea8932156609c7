// H7a-BSL and H7b-BSC (br07 §4.2): binary search over candidate periods, greedy left-to-right interval building.
#include "mappers/br07/h7_binary_search.hpp"

#include "model/analytic.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace pipesim {

namespace {

std::vector<int> all_processors(int p)
{
  std::vector<int> all;
  for (int u = 0; u < p; ++u)
    all.push_back(u);
  return all;
}

/// A possible assignment (s, s', u) of the greedy, with its period.
struct Choice {
  int last      = 0; // s'; 0 while nothing fits
  double period = 0;
  int u         = -1;
};

class H7Search {
public:
  H7Search(const Problem& problem, H7Rule rule)
      : problem_(problem), rule_(rule), n_(problem.pipeline.n()), p_(problem.platform.p()),
        costs_(problem, all_processors(problem.platform.p()))
  {
    // One table column per processor; with uniform links the period depends on u only through s_u, so processors
    // of equal speed share the column of the first of them (same values, fewer to compute and sort).
    const Platform& platform = problem.platform;
    std::vector<int> representative;
    for (int u = 0; u < p_; ++u) {
      auto same = std::find_if(representative.begin(), representative.end(),
                               [&](int r) { return costs_.uniform() && platform.speed(r) == platform.speed(u); });
      column_.push_back(static_cast<int>(same - representative.begin()));
      if (same == representative.end()) representative.push_back(u);
    }
    // period(s, s', u) with P_in / P_out at the ends and the unknown neighbour elsewhere; layout [s][column][s'].
    columns_ = static_cast<int>(representative.size());
    table_.assign(static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_ * columns_),
                  std::numeric_limits<double>::infinity());
    for (int s = 1; s <= n_; ++s)
      for (int u : representative)
        for (int t = s; t <= n_; ++t)
          table_[index(s, u, t)] = costs_.cycle_time(s, t, u, s == 1 ? platform.in() : NeighbourCosts::unknown,
                                                     t == n_ ? platform.out() : NeighbourCosts::unknown);
  }

  /// Sorted distinct finite periods of every (s, s', u).
  std::vector<double> candidates() const
  {
    std::vector<double> values;
    for (double t : table_)
      if (std::isfinite(t)) values.push_back(t);
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
  }

  /// The greedy of br07 §4.2 for period P; nullopt when it cannot place the next stage.
  std::optional<IntervalAssignment> greedy(double period) const
  {
    IntervalAssignment result;
    std::vector<bool> used(static_cast<std::size_t>(p_), false);
    int free = p_;
    for (int s = 1; s <= n_;) {
      int prev = result.alloc.empty() ? problem_.platform.in() : result.alloc.back();
      Choice best;
      for (int u = 0; u < p_; ++u) {
        if (used[static_cast<std::size_t>(u)] || not previous_fits(result, u, period)) continue;
        // With u the last unused processor, S_s..S_n all go to u: nothing would remain for S_{t+1}..S_n otherwise.
        for (int t = free < 2 ? n_ : s; t <= n_; ++t) {
          if (beyond(s, t, u, prev, period)) break;
          Choice choice{t, period_of(s, t, u, prev), u};
          if (choice.period <= period && better(choice, best)) best = choice;
        }
      }
      if (best.last == 0) return std::nullopt;
      result.intervals.emplace_back(s, best.last);
      result.alloc.push_back(best.u);
      used[static_cast<std::size_t>(best.u)] = true;
      --free;
      s = best.last + 1;
    }
    return result;
  }

private:
  std::size_t index(int s, int u, int t) const
  {
    auto column = static_cast<std::size_t>(column_[static_cast<std::size_t>(u)]);
    return (static_cast<std::size_t>(s - 1) * static_cast<std::size_t>(columns_) + column) *
               static_cast<std::size_t>(n_) +
           static_cast<std::size_t>(t - 1);
  }

  /// Period of (s, t, u) after `prev`: the table on link-uniform platforms (exact there), else with the real prev.
  double period_of(int s, int t, int u, int prev) const
  {
    if (costs_.uniform()) return table_[index(s, u, t)];
    return costs_.cycle_time(s, t, u, prev, t == n_ ? problem_.platform.out() : NeighbourCosts::unknown);
  }

  /// Without uniform links: true when even the input transfer and the computation of S_s..S_t on u exceed the
  /// period; both only grow with t, so no longer interval fits either (u as `next` stands for "no output transfer").
  bool beyond(int s, int t, int u, int prev, double period) const
  {
    return not costs_.uniform() && costs_.cycle_time(s, t, u, prev, u) > period;
  }

  /// Condition (a): the previous interval's real cycle-time with u as its next processor still fits.
  bool previous_fits(const IntervalAssignment& built, int u, double period) const
  {
    if (built.alloc.empty()) return true;
    std::size_t j = built.alloc.size() - 1;
    int prev      = j == 0 ? problem_.platform.in() : built.alloc[j - 1];
    return br07_interval_cycle_time(problem_.pipeline, problem_.platform, built.intervals[j].first,
                                    built.intervals[j].second, built.alloc[j], prev, u) <= period;
  }

  /// H7a: longest, then closest; H7b: closest, then longest. Processors come in increasing index: ties keep the first.
  bool better(const Choice& a, const Choice& b) const
  {
    if (b.last == 0) return true;
    if (rule_ == H7Rule::longest) return a.last > b.last || (a.last == b.last && a.period > b.period);
    return a.period > b.period || (a.period == b.period && a.last > b.last);
  }

  const Problem& problem_;
  H7Rule rule_;
  int n_;
  int p_;
  NeighbourCosts costs_;
  std::vector<int> column_; // [u]: u's column of the table
  int columns_ = 0;
  std::vector<double> table_;
};

/// The whole pipeline on the processor with the smallest real cycle-time (ties: smaller index).
IntervalAssignment single_processor(const Problem& problem)
{
  IntervalAssignment best;
  double best_t = std::numeric_limits<double>::infinity();
  for (int u = 0; u < problem.platform.p(); ++u) {
    IntervalAssignment one{{{1, problem.pipeline.n()}}, {u}, {}};
    double t = br07_cycle_times(problem, one.intervals, one.alloc)[0];
    if (t < best_t) {
      best   = std::move(one);
      best_t = t;
    }
  }
  return best;
}

} // namespace

IntervalAssignment br07_h7_binary_search(const Problem& problem, H7Rule rule)
{
  H7Search search(problem, rule);
  std::vector<double> candidates = search.candidates();
  std::optional<IntervalAssignment> best;
  double best_period = std::numeric_limits<double>::infinity();
  int tests          = 0;
  bool hi_feasible   = false; // whether candidates[hi] was tested feasible
  auto test          = [&](double period) {
    ++tests;
    auto built = search.greedy(period);
    if (not built) return false;
    std::vector<double> times = br07_cycle_times(problem, built->intervals, built->alloc);
    double real               = *std::max_element(times.begin(), times.end());
    if (real <= best_period) { // the one found later, at a smaller P, wins ties
      best        = std::move(built);
      best_period = real;
    }
    return true;
  };
  std::size_t lo = 0;
  std::size_t hi = candidates.size() - 1;
  while (lo < hi) {
    std::size_t mid = lo + (hi - lo) / 2;
    if (test(candidates[mid])) {
      hi          = mid;
      hi_feasible = true;
    } else {
      lo = mid + 1;
    }
  }
  bool found                             = hi_feasible || test(candidates[lo]);
  IntervalAssignment result              = found ? std::move(*best) : single_processor(problem);
  result.statistics["candidates"]        = static_cast<double>(candidates.size());
  result.statistics["feasibility_tests"] = tests;
  result.statistics["fallback"]          = found ? 0 : 1;
  if (found) result.statistics["period_bound"] = candidates[lo]; // the P of the search's last success
  return result;
}

} // namespace pipesim

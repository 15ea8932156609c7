// H6-SPL (br07 §4.2): split the interval of the processor with the largest period as long as it improves.
#include "mappers/br07/h6_spl.hpp"

#include <algorithm>
#include <limits>

namespace pipesim {

namespace {
const MapperRegistration br07_h6_spl_registration{[] { return std::make_unique<Br07H6Spl>(); }};

struct Split {
  std::vector<std::pair<int, int>> intervals;
  std::vector<int> alloc;
  double pair   = std::numeric_limits<double>::infinity(); // max(period(j), period(j'))
  double period = std::numeric_limits<double>::infinity(); // period of the whole mapping
};

/// The mapping with interval j split after stage k: the first part on `first_on`, the second on `second_on`.
Split split_at(const Problem& problem, const IntervalAssignment& current, std::size_t j, int k, int first_on,
               int second_on)
{
  Split split{current.intervals, current.alloc};
  auto [d, e]        = current.intervals[j];
  auto at            = static_cast<std::ptrdiff_t>(j);
  split.intervals[j] = {d, k};
  split.intervals.insert(split.intervals.begin() + at + 1, {k + 1, e});
  split.alloc[j] = first_on;
  split.alloc.insert(split.alloc.begin() + at + 1, second_on);
  std::vector<double> times = br07_cycle_times(problem, split.intervals, split.alloc);
  split.pair                = std::max(times[j], times[j + 1]);
  split.period              = *std::max_element(times.begin(), times.end());
  return split;
}

/// Best split of interval j between processors j_proc and next_proc (br07 §4.2), among those that do not raise
/// the whole period; pair = infinity when none.
Split best_split(const Problem& problem, const IntervalAssignment& current, std::size_t j, double period, int next_proc)
{
  Split best;
  int j_proc  = current.alloc[j];
  auto [d, e] = current.intervals[j];
  for (int k = d; k < e; ++k)
    for (bool j_first : {true, false}) {
      Split split = j_first ? split_at(problem, current, j, k, j_proc, next_proc)
                            : split_at(problem, current, j, k, next_proc, j_proc);
      if (split.period > period) continue; // a split never makes the whole mapping worse
      if (split.pair < best.pair || (split.pair == best.pair && split.period < best.period)) best = std::move(split);
    }
  return best;
}
} // namespace

IntervalAssignment br07_h6_spl(const Problem& problem)
{
  std::vector<int> order = br07_processors_by_speed(problem.platform);
  IntervalAssignment result;
  result.intervals = {{1, problem.pipeline.n()}};
  result.alloc     = {order[0]};
  int splits       = 0;
  for (std::size_t next = 1; next < order.size(); ++next) {
    std::vector<double> times = br07_cycle_times(problem, result.intervals, result.alloc);
    auto largest              = std::max_element(times.begin(), times.end()); // ties: the earliest interval
    auto j                    = static_cast<std::size_t>(largest - times.begin());
    Split split               = best_split(problem, result, j, *largest, order[next]);
    if (not(split.pair < *largest)) break; // no split of j improves: the period cannot improve any more
    result.intervals = std::move(split.intervals);
    result.alloc     = std::move(split.alloc);
    ++splits;
  }
  result.statistics["splits"] = splits;
  return result;
}

MapperInfo Br07H6Spl::info() const
{
  return br07_heuristic_info(
      "br07.h6-spl",
      "br07 §4.2 H6-SPL: all stages on the fastest processor, then split the interval with the largest period onto the "
      "next fastest processor while it improves",
      "O(n^2 min(n, p))");
}

IntervalAssignment Br07H6Spl::assign(const Problem& problem, const MapperOptions& /*options*/) const
{
  return br07_h6_spl(problem);
}

} // namespace pipesim

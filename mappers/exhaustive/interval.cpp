// Exhaustive interval and one-to-one mappings: depth-first enumeration evaluated with br07 eq. (2).
#include "mappers/exhaustive/interval.hpp"

#include "model/analytic.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numeric>

namespace pipesim {

namespace {
const MapperRegistration exhaustive_interval_registration{[] { return std::make_unique<ExhaustiveInterval>(); }};

/// Next combination of cut positions in lexicographic order: ends[i] ranges over [i + 1, n - size + i].
bool next_ends(std::vector<int>& ends, int n)
{
  int size = static_cast<int>(ends.size());
  for (int i = size - 1; i >= 0; --i) {
    auto at = static_cast<std::size_t>(i);
    if (ends[at] < n - size + i) {
      ++ends[at];
      for (auto k = at + 1; k < ends.size(); ++k)
        ends[k] = ends[k - 1] + 1;
      return true;
    }
  }
  return false;
}

/// Depth-first search over the processor tuples of one composition after another.
class Search {
public:
  Search(const Problem& problem, const Deadline& deadline) : problem_(problem), deadline_(deadline) {}

  /// Enumerates m in [min_m, max_m]; returns false when the time limit stopped it.
  bool run(int min_m, int max_m)
  {
    int n = problem_.pipeline.n();
    for (int m = min_m; m <= max_m; ++m) {
      // Ends e_1 < .. < e_{m-1} of the first m - 1 intervals, in lexicographic order (e_m = n).
      std::vector<int> ends(static_cast<std::size_t>(m - 1));
      std::iota(ends.begin(), ends.end(), 1);
      do {
        intervals_.clear();
        int first = 1;
        for (int e : ends) {
          intervals_.emplace_back(first, e);
          first = e + 1;
        }
        intervals_.emplace_back(first, n);
        alloc_.assign(static_cast<std::size_t>(m), -1);
        used_.assign(static_cast<std::size_t>(problem_.platform.p()), false);
        if (not assign(0, 0.0)) return false;
      } while (next_ends(ends, n));
    }
    return true;
  }

  bool found() const { return not best_alloc_.empty(); }
  Mapping best_mapping() const { return make_interval_mapping(best_intervals_, best_alloc_); }
  double best_period() const { return best_; }
  double evaluated() const { return evaluated_; }

private:
  /// Cycle-time of interval j (0-based) once its neighbours' processors are known (br07 eq. (2)).
  double cycle_time(std::size_t j) const
  {
    const Platform& platform = problem_.platform;
    int prev                 = j == 0 ? platform.in() : alloc_[j - 1];
    int next                 = j + 1 == alloc_.size() ? platform.out() : alloc_[j + 1];
    return br07_interval_cycle_time(problem_.pipeline, platform, intervals_[j].first, intervals_[j].second, alloc_[j],
                                    prev, next);
  }

  /// Assigns interval j; `period` is the largest cycle-time of the intervals before j - 1 (all fixed).
  bool assign(std::size_t j, double period)
  {
    if (++nodes_ % 4096 == 0 && deadline_.expired()) return false;
    if (j == alloc_.size()) {
      period = std::max(period, cycle_time(j - 1)); // the last interval sends to P_out
      ++evaluated_;
      if (period < best_) {
        best_           = period;
        best_alloc_     = alloc_;
        best_intervals_ = intervals_;
      }
      return true;
    }
    for (int u = 0; u < problem_.platform.p(); ++u) {
      if (used_[static_cast<std::size_t>(u)]) continue;
      alloc_[j]                          = u;
      used_[static_cast<std::size_t>(u)] = true;
      double known                       = j == 0 ? period : std::max(period, cycle_time(j - 1));
      bool go_on                         = known >= best_ || assign(j + 1, known); // cut: cannot beat best_
      used_[static_cast<std::size_t>(u)] = false;
      alloc_[j]                          = -1;
      if (not go_on) return false;
    }
    return true;
  }

  const Problem& problem_;
  Deadline deadline_;
  std::vector<std::pair<int, int>> intervals_;
  std::vector<int> alloc_;
  std::vector<bool> used_;
  double best_ = std::numeric_limits<double>::infinity();
  std::vector<int> best_alloc_;
  std::vector<std::pair<int, int>> best_intervals_;
  double evaluated_    = 0;
  unsigned long nodes_ = 0;
};

MapperResult search(const Problem& problem, int min_m, int max_m, const Deadline& deadline)
{
  MapperResult result;
  result.objective              = std::numeric_limits<double>::infinity();
  result.statistics["mappings"] = count_interval_mappings(problem.pipeline.n(), problem.platform.p(), min_m, max_m);
  if (min_m > max_m) {
    result.status = SolveStatus::infeasible;
    return result;
  }
  Search dfs(problem, deadline);
  bool complete                  = dfs.run(min_m, max_m);
  result.statistics["evaluated"] = dfs.evaluated();
  result.status                  = complete ? SolveStatus::optimal : SolveStatus::time_limit;
  if (dfs.found()) {
    result.mapping   = dfs.best_mapping();
    result.objective = br07_eq2_period(problem.pipeline, problem.platform, result.mapping);
    assert(std::abs(result.objective - dfs.best_period()) <= 1e-12 * dfs.best_period());
  }
  return result;
}
} // namespace

double count_interval_mappings(int n, int p, int min_m, int max_m)
{
  double total = 0;
  for (int m = std::max(min_m, 1); m <= std::min({max_m, n, p}); ++m) {
    double compositions = 1; // C(n-1, m-1)
    for (int i = 1; i <= m - 1; ++i)
      compositions = compositions * (n - m + i) / i;
    double assignments = 1; // p! / (p-m)!
    for (int i = 0; i < m; ++i)
      assignments *= p - i;
    total += compositions * assignments;
  }
  return total;
}

MapperInfo ExhaustiveInterval::info() const
{
  MapperInfo info;
  info.name = "exhaustive.interval";
  info.description =
      "best interval mapping of br07's problem (eq. (2)) by exhaustive enumeration: the reference on tiny instances";
  info.paper       = Paper::pipesim;
  info.family      = MapperFamily::exhaustive;
  info.objective   = MapperObjective::period;
  info.models      = {CommModel::one_port};
  info.mapping     = MappingRule::interval;
  info.exact       = true;
  info.complexity  = "O(count m) for count interval mappings (at most 5e7)";
  info.restriction = "it evaluates br07 eq. (2), the one-port period";
  return info;
}

std::optional<std::string> ExhaustiveInterval::instance_refusal(const Problem& problem) const
{
  int n        = problem.pipeline.n();
  double count = count_interval_mappings(n, problem.platform.p(), 1, n);
  if (count > exhaustive_interval_limit)
    return fmt::format("{:.0f} interval mappings to enumerate (n = {}, p = {}), more than the limit of {:.0f}", count,
                       n, problem.platform.p(), exhaustive_interval_limit);
  return std::nullopt;
}

MapperResult ExhaustiveInterval::map(const Problem& problem, const MapperOptions& options) const
{
  int n = problem.pipeline.n();
  return search(problem, 1, std::min(n, problem.platform.p()), options.deadline());
}

MapperResult exhaustive_one_to_one(const Problem& problem)
{
  int n = problem.pipeline.n();
  return search(problem, n, n <= problem.platform.p() ? n : n - 1, Deadline(std::numeric_limits<double>::infinity()));
}

} // namespace pipesim

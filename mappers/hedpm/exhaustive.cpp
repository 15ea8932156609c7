// HeDPM's brute force (hedpm §5.1): depth-first enumeration of gatherings and ordered deal replicas.
#include "mappers/hedpm/exhaustive.hpp"

#include "model/hedpm/production_time.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

namespace {
const MapperRegistration hedpm_exhaustive_registration{
    [] { return std::make_unique<HedpmExhaustive>(HedpmSpace::single_stage_replicas); }};
const MapperRegistration hedpm_exhaustive_replicated_registration{
    [] { return std::make_unique<HedpmExhaustive>(HedpmSpace::replicated_intervals); }};

/// Largest replica count of an interval of `length` stages with `free` processors left.
int max_replicas(HedpmSpace space, int length, int free)
{
  return space == HedpmSpace::single_stage_replicas && length > 1 ? std::min(1, free) : free;
}

class Enumeration {
public:
  Enumeration(const Problem& problem, HedpmSpace space, const Deadline& deadline)
      : problem_(problem), space_(space), deadline_(deadline), used_(static_cast<std::size_t>(problem.platform.p()))
  {
  }

  /// False when the time limit stopped it.
  bool run() { return extend(0, -std::numeric_limits<double>::infinity()); }

  bool found() const { return not best_.intervals.empty(); }
  const Mapping& best_mapping() const { return best_; }
  double best_value() const { return best_value_; }
  double evaluated() const { return evaluated_; }

private:
  /// T of interval j once its neighbours are known.
  double time_of(std::size_t j) const
  {
    const Platform& platform = problem_.platform;
    const std::vector<int> in{platform.in()};
    const std::vector<int> out{platform.out()};
    const std::vector<int>& prev = j == 0 ? in : lists_[j - 1];
    const std::vector<int>& next = j + 1 == lists_.size() ? out : lists_[j + 1];
    return hedpm_interval_time(problem_.pipeline, platform, bounds_[j].first, bounds_[j].second, prev, lists_[j], next);
  }

  /// Stages 1..i are placed; `known` is the largest final T (every interval but the last one).
  bool extend(int i, double known)
  {
    int n    = problem_.pipeline.n();
    int free = static_cast<int>(std::count(used_.begin(), used_.end(), false));
    for (int e = i + 1; e <= n; ++e)
      for (int k = 1; k <= max_replicas(space_, e - i, free); ++k) {
        bounds_.emplace_back(i + 1, e);
        lists_.emplace_back();
        bool go_on = choose(k, known);
        lists_.pop_back();
        bounds_.pop_back();
        if (not go_on) return false;
      }
    return true;
  }

  /// Completes the last interval's list with k more processors, in lexicographic order.
  bool choose(int k, double known)
  {
    if (k == 0) return place(known);
    for (int u = 0; u < problem_.platform.p(); ++u) {
      if (used_[static_cast<std::size_t>(u)]) continue;
      used_[static_cast<std::size_t>(u)] = true;
      lists_.back().push_back(u);
      bool go_on = choose(k - 1, known);
      lists_.back().pop_back();
      used_[static_cast<std::size_t>(u)] = false;
      if (not go_on) return false;
    }
    return true;
  }

  /// The last interval's list is complete: the one before it is final.
  bool place(double known)
  {
    if (++nodes_ % 4096 == 0 && deadline_.expired()) return false;
    if (lists_.size() >= 2) known = std::max(known, time_of(lists_.size() - 2));
    if (known >= best_value_) return true; // cannot be strictly better
    if (bounds_.back().second < problem_.pipeline.n()) return extend(bounds_.back().second, known);
    ++evaluated_;
    double value = std::max(known, time_of(lists_.size() - 1));
    if (value < best_value_) {
      best_value_ = value;
      best_       = mapping();
    }
    return true;
  }

  Mapping mapping() const { return hedpm_interval_mapping(bounds_, lists_); }

  const Problem& problem_;
  HedpmSpace space_;
  Deadline deadline_;
  std::vector<bool> used_;
  std::vector<std::pair<int, int>> bounds_;
  std::vector<std::vector<int>> lists_;
  Mapping best_;
  double best_value_   = std::numeric_limits<double>::infinity();
  double evaluated_    = 0;
  unsigned long nodes_ = 0;
};

} // namespace

double hedpm_count_mappings(int n, int p, HedpmSpace space)
{
  // ways[i][k]: mappings of S_1..S_i on k processors in all; an interval of `length` stages with r replicas out of
  // the p - k free processors multiplies by (p - k)! / (p - k - r)!.
  std::vector<std::vector<double>> ways(static_cast<std::size_t>(n + 1), std::vector<double>(p + 1, 0.0));
  ways[0][0] = 1;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k <= p; ++k) {
      double here = ways[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)];
      if (here == 0) continue;
      for (int e = i + 1; e <= n; ++e) {
        double lists = here;
        for (int r = 1; r <= max_replicas(space, e - i, p - k); ++r) {
          lists *= p - k - r + 1;
          ways[static_cast<std::size_t>(e)][static_cast<std::size_t>(k + r)] += lists;
        }
      }
    }
  double total = 0;
  for (double x : ways[static_cast<std::size_t>(n)])
    total += x;
  return total;
}

MapperInfo HedpmExhaustive::info() const
{
  if (space_ == HedpmSpace::single_stage_replicas)
    return hedpm_info("hedpm.exhaustive",
                      "hedpm §5.1's brute force: the best production time over every gathering and replication of "
                      "single stages, for tiny instances",
                      Paper::hedpm, MapperFamily::exhaustive, true, "O(count n p) for count mappings (at most 2e7)");
  return hedpm_info("hedpm.exhaustive.replicated-intervals",
                    "the best HeDPM production time over every gathering and replication of intervals (hedpm §5.1's "
                    "brute force widened), for tiny instances",
                    Paper::pipesim, MapperFamily::exhaustive, true, "O(count n p) for count mappings (at most 2e7)");
}

std::optional<std::string> HedpmExhaustive::instance_refusal(const Problem& problem) const
{
  if (auto reason = hedpm_refuses(problem)) return reason;
  int n        = problem.pipeline.n();
  double count = hedpm_count_mappings(n, problem.platform.p(), space_);
  if (count > hedpm_exhaustive_limit)
    return fmt::format("{:.0f} mappings to enumerate (n = {}, p = {}), more than the limit of {:.0f}", count, n,
                       problem.platform.p(), hedpm_exhaustive_limit);
  return std::nullopt;
}

MapperResult HedpmExhaustive::map(const Problem& problem, const MapperOptions& options) const
{
  Enumeration enumeration(problem, space_, options.deadline());
  bool complete = enumeration.run();
  MapperResult result;
  result.status                  = complete ? SolveStatus::optimal : SolveStatus::time_limit;
  result.objective               = std::numeric_limits<double>::infinity();
  result.statistics["mappings"]  = hedpm_count_mappings(problem.pipeline.n(), problem.platform.p(), space_);
  result.statistics["evaluated"] = enumeration.evaluated();
  if (enumeration.found()) {
    result.mapping   = enumeration.best_mapping();
    result.objective = hedpm_production_time(problem.pipeline, problem.platform, result.mapping);
    assert(result.objective == enumeration.best_value());
  }
  return result;
}

} // namespace pipesim

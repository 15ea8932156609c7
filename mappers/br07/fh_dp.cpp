// br07 Proposition 1: the interval dynamic program c(i, j, k) on Fully Homogeneous platforms.
#include "mappers/br07/fh_dp.hpp"

#include "mappers/exact/interval.hpp"
#include "model/analytic.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

namespace {
const MapperRegistration br07_fh_dp_registration{[] { return std::make_unique<Br07FullyHomogeneousDp>(); }};

constexpr double max_entries = 2e7; // of 16 bytes each

/// The table c(i, j, k) with, for k >= 2, the split (l, q) that reached it.
class Table {
public:
  Table(int n, int kmax) : n_(n), kmax_(kmax), cost_(size(), infinity), split_(size(), {0, 0}) {}
  double& cost(int i, int j, int k) { return cost_[at(i, j, k)]; }
  std::pair<int, int>& split(int i, int j, int k) { return split_[at(i, j, k)]; }

private:
  std::size_t size() const { return static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_ * kmax_); }
  std::size_t at(int i, int j, int k) const
  {
    return (static_cast<std::size_t>(i - 1) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(j - 1)) *
               static_cast<std::size_t>(kmax_) +
           static_cast<std::size_t>(k - 1);
  }
  int n_;
  int kmax_;
  std::vector<double> cost_;
  std::vector<std::pair<int, int>> split_;
};

/// br07 Prop. 1 recurrence for one (i, j, k), k >= 2.
void relax(Table& table, int i, int j, int k)
{
  double& best = table.cost(i, j, k);
  for (int l = i; l < j; ++l)
    for (int q = 1; q <= std::min(k - 1, l - i + 1); ++q) {
      int r = k - q;
      if (r > j - l) continue; // c(l + 1, j, r) = +inf
      double value = std::max(table.cost(i, l, q), table.cost(l + 1, j, r));
      if (value < best) {
        best                 = value;
        table.split(i, j, k) = {l, q};
      }
    }
}

/// Unfolds the splits of c(i, j, k) into intervals.
void unfold(Table& table, int i, int j, int k, std::vector<std::pair<int, int>>& intervals)
{
  if (k == 1) {
    intervals.emplace_back(i, j);
    return;
  }
  auto [l, q] = table.split(i, j, k);
  unfold(table, i, l, q, intervals);
  unfold(table, l + 1, j, k - q, intervals);
}
} // namespace

MapperInfo Br07FullyHomogeneousDp::info() const
{
  MapperInfo info;
  info.name = "br07.fh-dp";
  info.description =
      "br07 §3.2.1 Prop. 1: optimal interval mapping on Fully Homogeneous platforms by the dynamic program c(i, j, k)";
  info.paper            = Paper::br07;
  info.family           = MapperFamily::dynamic_program;
  info.objective        = MapperObjective::period;
  info.models           = {CommModel::one_port};
  info.platform_classes = {PlatformClass::fully_homogeneous};
  info.mapping          = MappingRule::interval;
  info.exact            = true;
  info.complexity       = "O(n^3 p^2) time, O(n^2 p) memory";
  info.restriction =
      "the recurrence is exact when every processor and link is the same, on the one-port period of br07 eq. (2)";
  return info;
}

std::optional<std::string> Br07FullyHomogeneousDp::instance_refusal(const Problem& problem) const
{
  if (not uniform_links(problem.platform))
    return "link latencies c_{u,v} differ between pairs; the dynamic program needs every transfer to cost the same";
  double n       = problem.pipeline.n();
  double entries = n * n * std::min(n, static_cast<double>(problem.platform.p()));
  if (entries > max_entries)
    return fmt::format("the table c(i, j, k) would have {:.0f} entries (n = {}, p = {}), more than {:.0f}", entries,
                       problem.pipeline.n(), problem.platform.p(), max_entries);
  return std::nullopt;
}

MapperResult Br07FullyHomogeneousDp::map(const Problem& problem, const MapperOptions& options) const
{
  const Pipeline& pipeline = problem.pipeline;
  const Platform& platform = problem.platform;
  int n                    = pipeline.n();
  int kmax                 = std::min(n, platform.p());
  const Deadline deadline  = options.deadline();
  // Every processor and link is the same: processor 0 with processor 1 (or P_in/P_out) as neighbours.
  int other = platform.p() > 1 ? 1 : -1;
  Table table(n, kmax);
  MapperResult result;
  result.status = SolveStatus::optimal;
  for (int length = 1; length <= n; ++length) {
    if (deadline.expired()) {
      result.status = SolveStatus::time_limit;
      break;
    }
    for (int i = 1; i + length - 1 <= n; ++i) {
      int j               = i + length - 1;
      int prev            = i == 1 || other < 0 ? platform.in() : other;
      int next            = j == n || other < 0 ? platform.out() : other;
      table.cost(i, j, 1) = br07_interval_cycle_time(pipeline, platform, i, j, 0, prev, next);
      for (int k = 2; k <= std::min(kmax, length); ++k)
        relax(table, i, j, k);
    }
  }
  int best_k = 1;
  for (int k = 2; k <= kmax && result.status == SolveStatus::optimal; ++k)
    if (table.cost(1, n, k) < table.cost(1, n, best_k)) best_k = k;
  std::vector<std::pair<int, int>> intervals;
  if (result.status == SolveStatus::optimal)
    unfold(table, 1, n, best_k, intervals);
  else
    intervals.emplace_back(1, n);
  std::vector<int> alloc(intervals.size());
  for (std::size_t j = 0; j < alloc.size(); ++j)
    alloc[j] = static_cast<int>(j);
  result.mapping                  = make_interval_mapping(intervals, alloc);
  result.objective                = br07_eq2_period(pipeline, platform, result.mapping);
  result.statistics["processors"] = static_cast<double>(intervals.size());
  return result;
}

} // namespace pipesim

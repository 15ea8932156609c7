// bbr10.exhaustive and bbr10.exhaustive.interval: candidates by increasing F, the first within P_max wins.
#include "mappers/bbr10/exhaustive_reliability.hpp"

#include "mappers/bbr10/all_alive_period.hpp"
#include "mappers/bbr10/period_check.hpp"
#include "model/analytic.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

namespace {
const MapperRegistration bbr10_exhaustive_registration{[] { return std::make_unique<Bbr10Exhaustive>(false); }};
const MapperRegistration bbr10_exhaustive_interval_registration{[] { return std::make_unique<Bbr10Exhaustive>(true); }};

constexpr int max_processors = 10;

/// Stage partitions as restricted growth strings (block[0] = 0, block[i] <= 1 + max before), grouped by the number
/// of blocks; `interval_only`: block[i] is block[i - 1] or one more (consecutive blocks).
std::vector<std::vector<std::vector<int>>> stage_partitions(int n, bool interval_only)
{
  std::vector<std::vector<std::vector<int>>> by_blocks(static_cast<std::size_t>(n + 1));
  std::vector<int> block(static_cast<std::size_t>(n), 0);
  auto extend = [&](auto&& self, int i, int blocks) -> void {
    if (i == n) {
      by_blocks[static_cast<std::size_t>(blocks)].push_back(block);
      return;
    }
    for (int b = interval_only ? blocks - 1 : 0; b <= blocks; ++b) {
      block[static_cast<std::size_t>(i)] = b;
      self(self, i + 1, std::max(blocks, b + 1));
    }
  };
  extend(extend, 1, 1);
  return by_blocks;
}

struct Tuple {
  double f = 0;
  std::vector<std::vector<int>> sets; // A_1..A_l
};

/// Every ordered tuple of l disjoint non-empty processor sets, l = 1..max_l (colourings of the processors with
/// 0 = unused and 1..l, each of 1..l used, in lexicographic order), sorted by increasing eq. (2) F (stable).
std::vector<Tuple> sorted_tuples(const Platform& platform, int max_l)
{
  std::vector<Tuple> tuples;
  int p = platform.p();
  for (int l = 1; l <= max_l; ++l) {
    std::vector<int> colour(static_cast<std::size_t>(p), 0);
    for (;;) {
      Tuple t;
      t.sets.resize(static_cast<std::size_t>(l));
      for (int u = 0; u < p; ++u)
        if (colour[static_cast<std::size_t>(u)] > 0)
          t.sets[static_cast<std::size_t>(colour[static_cast<std::size_t>(u)] - 1)].push_back(u);
      if (std::none_of(t.sets.begin(), t.sets.end(), [](const auto& s) { return s.empty(); })) {
        std::vector<int> one_stage_each(t.sets.size());
        for (std::size_t k = 0; k < t.sets.size(); ++k)
          one_stage_each[k] = static_cast<int>(k);
        t.f = bbr10_eq2_failure_probability(platform, bbr10_partition_mapping(one_stage_each, t.sets));
        tuples.push_back(std::move(t));
      }
      int u = p - 1;
      while (u >= 0 && colour[static_cast<std::size_t>(u)] == l)
        colour[static_cast<std::size_t>(u--)] = 0;
      if (u < 0) break;
      ++colour[static_cast<std::size_t>(u)];
    }
  }
  std::stable_sort(tuples.begin(), tuples.end(), [](const Tuple& a, const Tuple& b) { return a.f < b.f; });
  return tuples;
}

double binomial(int a, int b)
{
  double c = 1;
  for (int i = 1; i <= b; ++i)
    c = c * (a - b + i) / i;
  return c;
}
} // namespace

double count_bbr10_mappings(int n, int p, bool interval_only)
{
  // S(n, l) by the recurrence S(i, l) = l S(i-1, l) + S(i-1, l-1).
  std::vector<std::vector<double>> stirling(static_cast<std::size_t>(n + 1),
                                            std::vector<double>(static_cast<std::size_t>(n + 1), 0));
  stirling[0][0] = 1;
  for (std::size_t i = 1; i <= static_cast<std::size_t>(n); ++i)
    for (std::size_t l = 1; l <= i; ++l)
      stirling[i][l] = static_cast<double>(l) * stirling[i - 1][l] + stirling[i - 1][l - 1];
  double total = 0;
  for (int l = 1; l <= std::min(n, p); ++l) {
    double tuples = 0;
    for (int i = 0; i <= l; ++i)
      tuples += (i % 2 == 0 ? 1 : -1) * binomial(l, i) * std::pow(l + 1 - i, p);
    double partitions =
        interval_only ? binomial(n - 1, l - 1) : stirling[static_cast<std::size_t>(n)][static_cast<std::size_t>(l)];
    total += partitions * tuples;
  }
  return total;
}

Mapping bbr10_partition_mapping(const std::vector<int>& block, const std::vector<std::vector<int>>& sets)
{
  Mapping mapping;
  for (std::size_t i = 0; i < block.size(); ++i) {
    int stage = static_cast<int>(i) + 1;
    if (i > 0 && block[i] == block[i - 1]) {
      mapping.intervals.back().last = stage;
      continue;
    }
    Interval in;
    in.first = in.last = stage;
    for (int u : sets.at(static_cast<std::size_t>(block[i])))
      in.replicas.push_back({u});
    mapping.intervals.push_back(std::move(in));
  }
  return mapping;
}

MapperInfo Bbr10Exhaustive::info() const
{
  MapperInfo info;
  info.name        = interval_only_ ? "bbr10.exhaustive.interval" : "bbr10.exhaustive";
  info.description = fmt::format("smallest F (bbr10 eq. (2)) over every {} mapping with active replication whose exact "
                                 "worst-case period is <= P_max, for tiny instances",
                                 interval_only_ ? "interval" : "general");
  info.paper       = Paper::pipesim;
  info.family      = MapperFamily::exhaustive;
  info.objective   = MapperObjective::failure_probability;
  info.models      = {CommModel::multi_port};
  info.mapping     = interval_only_ ? MappingRule::interval : MappingRule::general;
  info.exact       = true;
  info.complexity  = "every candidate in the worst case (at most 2e5, p <= 10), each with an exact period check";
  info.restriction = "it bounds bbr10's multi-port period";
  return info;
}

std::optional<std::string> Bbr10Exhaustive::instance_refusal(const Problem& problem) const
{
  int n = problem.pipeline.n(), p = problem.platform.p();
  if (p > max_processors)
    return fmt::format("p = {} processors, more than {} (2^p failure configurations per candidate)", p, max_processors);
  double count = count_bbr10_mappings(n, p, interval_only_);
  if (count > bbr10_exhaustive_limit)
    return fmt::format("{:.0f} candidate mappings (n = {}, p = {}), more than the limit of {:.0f}", count, n, p,
                       bbr10_exhaustive_limit);
  return std::nullopt;
}

MapperResult Bbr10Exhaustive::map(const Problem& problem, const MapperOptions& options) const
{
  const Pipeline& pipeline = problem.pipeline;
  const Platform& platform = problem.platform;
  const Deadline deadline  = options.deadline();
  auto partitions          = stage_partitions(pipeline.n(), interval_only_);
  auto tuples              = sorted_tuples(platform, std::min(pipeline.n(), platform.p()));
  PeriodBoundCheck check(pipeline, platform, problem.objective.period_bound);
  MapperResult result;
  result.period_test = options.period_test;
  result.status      = SolveStatus::infeasible;
  result.objective   = std::numeric_limits<double>::infinity(); // no mapping, as the other mappers
  double visited     = 0;
  for (const Tuple& t : tuples) {
    for (const auto& block : partitions[t.sets.size()]) {
      ++visited;
      if (static_cast<long long>(visited) % 64 == 0 && deadline.expired()) {
        result.status = SolveStatus::time_limit;
        break;
      }
      Mapping candidate = bbr10_partition_mapping(block, t.sets);
      bool holds        = options.period_test == PeriodTest::worst_case
                              ? check.holds(candidate)
                              : bbr10_all_alive_period(pipeline, platform, candidate, options.seed).period <=
                             problem.objective.period_bound * (1 + 1e-12);
      if (holds) {
        result.status  = SolveStatus::optimal;
        result.mapping = std::move(candidate);
        break;
      }
    }
    if (result.status != SolveStatus::infeasible) break;
  }
  result.statistics = {{"candidates", count_bbr10_mappings(pipeline.n(), platform.p(), interval_only_)},
                       {"visited", visited},
                       {"eq1_checks", static_cast<double>(check.eq1_checks)},
                       {"lower_bound_refusals", static_cast<double>(check.lower_bound_refusals)},
                       {"upper_bound_accepts", static_cast<double>(check.upper_bound_accepts)},
                       {"period_checks", static_cast<double>(check.period_checks)}};
  if (result.status == SolveStatus::optimal) {
    result.objective                       = bbr10_eq2_failure_probability(platform, result.mapping);
    result.statistics["worst_case_period"] = bbr10_exact_worst_case_period(pipeline, platform, result.mapping);
  }
  return result;
}

} // namespace pipesim

// Analytic periods, latencies and failure probabilities: br07 eqs. (1)-(5), bbr10 eq. (2).
#include "model/analytic.hpp"

#include "base/input_error.hpp"
#include "model/deal.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace pipesim {

namespace {

/// Processor of a one-processor interval.
int single_processor(const Interval& in, int j, const char* formula)
{
  if (in.replicas.size() != 1 || in.replicas[0].size() != 1)
    throw InputError::keyed(interval_key(j, "replicas"),
                            fmt::format("{} needs one processor per interval (stages {}-{} have {} replicas)", formula,
                                        in.first, in.last, in.replicas.size()));
  return in.replicas[0][0];
}

/// alloc(i) for i in 0..n+1 (P_in for 0, P_out for n+1) of a mapping with one processor per interval.
std::vector<int> stage_alloc(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                             const char* formula)
{
  std::vector<int> alloc(static_cast<std::size_t>(pipeline.n() + 2));
  alloc.front() = platform.in();
  alloc.back()  = platform.out();
  for (int j = 0; j < mapping.m(); ++j) {
    const Interval& in = mapping.interval(j);
    int u              = single_processor(in, j, formula);
    for (int i = in.first; i <= in.last; ++i)
      alloc[static_cast<std::size_t>(i)] = u;
  }
  return alloc;
}

void require_interval_rule(const Mapping& mapping, const char* formula)
{
  if (classify(mapping) == MappingRule::general)
    throw InputError::keyed("mapping", fmt::format("{} applies to interval mappings; this mapping is general (a "
                                                   "processor holds several intervals)",
                                                   formula));
}

void require_supported(const Mapping& mapping)
{
  if (mapping.data_parallel())
    throw InputError::keyed(first_group_key(mapping),
                            "one-port analysis: data-parallel processor groups are not supported yet");
  if (mapping.has_deal())
    throw InputError::keyed(first_deal_key(mapping), "deal",
                            "one-port analysis: deal replication is not supported "
                            "yet");
}

/// The processor sets that must each keep a survivor: bbr10's subsets of the actively replicated intervals, and
/// every replica of a dealt interval alone (DESIGN.md §3.7: a dealt interval is not fault tolerant). A set that
/// contains another is dropped: it cannot lose all its processors unless the smaller one does.
std::vector<std::vector<int>> survival_sets(const Mapping& mapping)
{
  Mapping active = mapping;
  std::set<std::vector<int>> sets;
  for (auto& in : active.intervals)
    if (is_dealt(in)) {
      for (const auto& group : in.replicas)
        sets.insert({group.front()});
      in.replicas.resize(1); // its subset {u} is already counted
    }
  for (const auto& s : subsets(active).processor_sets)
    sets.insert(s);
  std::vector<std::vector<int>> out;
  for (const auto& s : sets)
    if (std::none_of(sets.begin(), sets.end(),
                     [&](const auto& t) { return t != s && std::includes(s.begin(), s.end(), t.begin(), t.end()); }))
      out.push_back(s);
  return out;
}

} // namespace

double br07_interval_cycle_time(const Pipeline& pipeline, const Platform& platform, int first, int last, int u,
                                int prev, int next)
{
  // br07 eq. (2): delta_{d_j-1}/b_{alloc(j-1),alloc(j)} + sum w_i / s_alloc(j) +
  // delta_{e_j}/b_{alloc(j),alloc(j+1)}
  return platform.transfer_time(prev, u, pipeline.data(first - 1)) + pipeline.work(first, last) / platform.speed(u) +
         platform.transfer_time(u, next, pipeline.data(last));
}

double br07_eq2_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  require_interval_rule(mapping, "seed 000 eq. (2)");
  double period = 0;
  for (int j = 0; j < mapping.m(); ++j) {
    const Interval& in = mapping.interval(j);
    int u              = single_processor(in, j, "seed 000 eq. (2)");
    int prev           = j == 0 ? platform.in() : single_processor(mapping.interval(j - 1), j - 1, "seed 000 eq. (2)");
    int next =
        j + 1 == mapping.m() ? platform.out() : single_processor(mapping.interval(j + 1), j + 1, "seed 000 eq. (2)");
    period = std::max(period, br07_interval_cycle_time(pipeline, platform, in.first, in.last, u, prev, next));
  }
  return period;
}

double br07_eq3_async_bound(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  auto alloc = stage_alloc(pipeline, platform, mapping, "seed 000 eq. (3)");
  std::map<int, double> cycle;
  for (int i = 1; i <= pipeline.n(); ++i) {
    // br07 eq. (3): pay the input (output) only when S_{i-1} (S_{i+1}) is on another processor
    int u = alloc[static_cast<std::size_t>(i)];
    int t = alloc[static_cast<std::size_t>(i - 1)];
    int v = alloc[static_cast<std::size_t>(i + 1)];
    cycle[u] += platform.transfer_time(t, u, pipeline.data(i - 1)) + pipeline.work(i) / platform.speed(u) +
                platform.transfer_time(u, v, pipeline.data(i));
  }
  double period = 0;
  for (const auto& kv : cycle)
    period = std::max(period, kv.second);
  return period;
}

double br07_eq45_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  auto alloc    = stage_alloc(pipeline, platform, mapping, "seed 000 eqs. (4)-(5)");
  auto at       = [&](int i) { return alloc[static_cast<std::size_t>(i)]; };
  double period = 0;
  for (int u : mapping.processors()) {
    int first = pipeline.n() + 1;
    int last  = 0;
    for (int i = 1; i <= pipeline.n(); ++i)
      if (at(i) == u) {
        first = std::min(first, i);
        last  = std::max(last, i);
      }
    // br07 eq. (4): from the input of first(u) to the output of last(u), through every stage in between
    double cycle = platform.transfer_time(at(first - 1), u, pipeline.data(first - 1));
    for (int i = first; i <= last; ++i)
      cycle += pipeline.work(i) / platform.speed(at(i)) + platform.transfer_time(at(i), at(i + 1), pipeline.data(i));
    period = std::max(period, cycle); // eq. (5)
  }
  return period;
}

double oneport_active_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  require_supported(mapping);
  require_interval_rule(mapping, "one-port active replication");
  auto elected  = [&](int j) { return mapping.interval(j).replicas.front().front(); };
  double period = 0;
  for (int j = 0; j < mapping.m(); ++j) {
    const Interval& in = mapping.interval(j);
    int prev           = j == 0 ? platform.in() : elected(j - 1);
    for (const auto& group : in.replicas) {
      int u = group.front();
      // every replica receives from the elected replica of I_{j-1} and computes its interval
      double cycle = platform.transfer_time(prev, u, pipeline.data(in.first - 1)) +
                     pipeline.work(in.first, in.last) / platform.speed(u);
      if (u == elected(j)) { // the elected replica sends to every replica of I_{j+1}, one after the other
        if (j + 1 == mapping.m())
          cycle += platform.transfer_time(u, platform.out(), pipeline.data(in.last));
        else
          for (const auto& next : mapping.interval(j + 1).replicas)
            cycle += platform.transfer_time(u, next.front(), pipeline.data(in.last));
      }
      period = std::max(period, cycle);
    }
  }
  return period;
}

double interval_latency(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  require_interval_rule(mapping, "interval latency");
  double latency = 0;
  int prev       = platform.in();
  for (int j = 0; j < mapping.m(); ++j) {
    const Interval& in = mapping.interval(j);
    int u              = single_processor(in, j, "interval latency");
    latency += platform.transfer_time(prev, u, pipeline.data(in.first - 1)) +
               pipeline.work(in.first, in.last) / platform.speed(u);
    prev = u;
  }
  return latency + platform.transfer_time(prev, platform.out(), pipeline.data(pipeline.n()));
}

double bbr10_eq2_failure_probability(const Platform& platform, const Mapping& mapping)
{
  if (mapping.data_parallel())
    throw InputError::keyed(first_group_key(mapping),
                            "failure probability: data-parallel processor groups are not supported yet");
  auto sets     = survival_sets(mapping);
  auto all_fail = [&](const std::set<int>& s) {
    double q = 1;
    for (int u : s)
      q *= platform.processor(u).failure_probability;
    return q;
  };
  bool disjoint = true;
  for (std::size_t a = 0; a < sets.size() && disjoint; ++a)
    for (std::size_t b = a + 1; b < sets.size() && disjoint; ++b)
      for (int u : sets[a])
        if (std::find(sets[b].begin(), sets[b].end(), u) != sets[b].end()) disjoint = false;
  if (disjoint) { // bbr10 eq. (2)
    double success = 1;
    for (const auto& s : sets)
      success *= 1 - all_fail(std::set<int>(s.begin(), s.end()));
    return 1 - success;
  }
  // Overlapping processor sets: P(some set loses all its processors) by inclusion-exclusion.
  if (sets.size() > 20)
    throw InputError::keyed("mapping", fmt::format("failure probability: {} overlapping processor sets, above the "
                                                   "limit of 20 (inclusion-exclusion over 2^sets terms)",
                                                   sets.size()));
  double f = 0;
  for (std::uint32_t mask = 1; mask < (1u << sets.size()); ++mask) {
    std::set<int> uni;
    for (std::size_t k = 0; k < sets.size(); ++k)
      if (mask & (1u << k)) uni.insert(sets[k].begin(), sets[k].end());
    f += (__builtin_popcount(mask) % 2 == 1 ? 1 : -1) * all_fail(uni);
  }
  return f;
}
} // namespace pipesim

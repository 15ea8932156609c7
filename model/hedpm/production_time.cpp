// HeDPM's production time on a mapping: hedpm eqs. (1)-(2) with the links of the mapping's dealt neighbours.
#include "model/hedpm/production_time.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

namespace pipesim {

namespace {

/// hedpm_mean on values[0..count) in place (sorted first, so that the result does not depend on their order).
double sorted_mean(double* values, std::size_t count)
{
  std::sort(values, values + count);
  if (std::isinf(values[count - 1])) return values[count - 1]; // an unreachable partner (b = 0)
  double sum = 0;
  for (std::size_t k = 1; k < count; ++k)
    sum += values[k] - values[0];
  return count == 1 ? values[0] : values[0] + sum / static_cast<double>(count);
}

/// Mean of c + bytes / b over the partners of replica r of a list of `size` replicas among the `other_size`
/// replicas of a neighbour: the r' with r' = r (mod gcd(size, other_size)).
template <typename Transfer>
double mean_over_partners(int size, int r, int other_size, Transfer transfer)
{
  assert(size >= 1 && other_size >= 1 && 0 <= r && r < size);
  int g = std::gcd(size, other_size);
  if (other_size == g) return transfer(r % g); // one partner
  constexpr std::size_t inline_count = 64;
  std::array<double, inline_count> small;
  std::vector<double> large;
  auto count     = static_cast<std::size_t>(other_size / g);
  double* values = small.data();
  if (count > inline_count) {
    large.resize(count);
    values = large.data();
  }
  std::size_t k = 0;
  for (int other = r % g; other < other_size; other += g)
    values[k++] = transfer(other);
  return sorted_mean(values, count);
}

void require_hedpm_mapping(const Mapping& mapping)
{
  if (mapping.data_parallel())
    throw InputError::keyed(first_group_key(mapping), "HeDPM's model (seed 002 §3) has one processor per replica; "
                                                      "this replica is a data-parallel group");
  for (int j = 0; j < mapping.m(); ++j)
    if (const Interval& in = mapping.interval(j); in.replicas.size() > 1 && in.replication != Replication::deal)
      throw InputError::keyed(interval_key(j, "replication"), in.replication,
                              fmt::format("HeDPM's model (seed 002 eq. (1)) replicates for throughput (deal); stages "
                                          "{}-{} have {} replicas",
                                          in.first, in.last, in.replicas.size()));
  if (classify(mapping) == MappingRule::general)
    throw InputError::keyed("mapping", "HeDPM's model (seed 002 §3) applies to interval mappings; this mapping is "
                                       "general (a processor holds several intervals)");
}

std::vector<int> processors_of(const Interval& in)
{
  std::vector<int> list;
  for (const auto& group : in.replicas)
    list.push_back(group.front());
  return list;
}

} // namespace

double hedpm_mean(std::span<const double> values)
{
  assert(not values.empty());
  std::vector<double> copy(values.begin(), values.end());
  return sorted_mean(copy.data(), copy.size());
}

double hedpm_in_time(const Platform& platform, std::span<const int> prev, std::span<const int> self, int r,
                     double bytes)
{
  int u = self[static_cast<std::size_t>(r)];
  return mean_over_partners(static_cast<int>(self.size()), r, static_cast<int>(prev.size()), [&](int other) {
    return platform.transfer_time(prev[static_cast<std::size_t>(other)], u, bytes);
  });
}

double hedpm_out_time(const Platform& platform, std::span<const int> self, int r, std::span<const int> next,
                      double bytes)
{
  int u = self[static_cast<std::size_t>(r)];
  return mean_over_partners(static_cast<int>(self.size()), r, static_cast<int>(next.size()), [&](int other) {
    return platform.transfer_time(u, next[static_cast<std::size_t>(other)], bytes);
  });
}

double hedpm_interval_time(std::span<const double> replica_times)
{
  assert(not replica_times.empty());
  return *std::max_element(replica_times.begin(), replica_times.end()) / static_cast<double>(replica_times.size());
}

double hedpm_interval_time(const Pipeline& pipeline, const Platform& platform, int first, int last,
                           std::span<const int> prev, std::span<const int> self, std::span<const int> next)
{
  double work  = pipeline.work(first, last);
  double worst = 0;
  for (int r = 0; r < static_cast<int>(self.size()); ++r) {
    double in  = hedpm_in_time(platform, prev, self, r, pipeline.data(first - 1));
    double out = hedpm_out_time(platform, self, r, next, pipeline.data(last));
    worst      = std::max(worst, hedpm_replica_time(in, work, platform.speed(self[static_cast<std::size_t>(r)]), out));
  }
  return worst / static_cast<double>(self.size());
}

HedpmPrediction hedpm_predict(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  validate(mapping, pipeline, platform);
  require_hedpm_mapping(mapping);
  std::vector<std::vector<int>> lists;
  for (const auto& in : mapping.intervals)
    lists.push_back(processors_of(in));
  const std::vector<int> in_node{platform.in()};
  const std::vector<int> out_node{platform.out()};
  HedpmPrediction prediction;
  for (std::size_t j = 0; j < lists.size(); ++j) {
    const Interval& in           = mapping.intervals[j];
    const std::vector<int>& prev = j == 0 ? in_node : lists[j - 1];
    const std::vector<int>& next = j + 1 == lists.size() ? out_node : lists[j + 1];
    HedpmIntervalPrediction interval;
    double work = pipeline.work(in.first, in.last);
    for (int r = 0; r < static_cast<int>(lists[j].size()); ++r) {
      double t_in  = hedpm_in_time(platform, prev, lists[j], r, pipeline.data(in.first - 1));
      double t_out = hedpm_out_time(platform, lists[j], r, next, pipeline.data(in.last));
      interval.replica_times.push_back(
          hedpm_replica_time(t_in, work, platform.speed(lists[j][static_cast<std::size_t>(r)]), t_out));
    }
    interval.time = hedpm_interval_time(interval.replica_times);
    if (j == 0 || interval.time > prediction.production_time) {
      prediction.production_time = interval.time;
      prediction.bottleneck      = static_cast<int>(j);
    }
    prediction.intervals.push_back(std::move(interval));
  }
  return prediction;
}

double hedpm_production_time(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  return hedpm_predict(pipeline, platform, mapping).production_time;
}

} // namespace pipesim

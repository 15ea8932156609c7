// Mapping helpers: rule classification, subsets, validation, text form.
#include "model/mapping.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace pipesim {

bool Interval::holds(int processor) const
{
  for (const auto& group : replicas)
    if (std::find(group.begin(), group.end(), processor) != group.end()) return true;
  return false;
}

std::vector<int> Mapping::processors() const
{
  std::set<int> all;
  for (const auto& interval : intervals)
    for (const auto& group : interval.replicas)
      all.insert(group.begin(), group.end());
  return {all.begin(), all.end()};
}

std::vector<int> Mapping::intervals_of(int u) const
{
  std::vector<int> out;
  for (int j = 0; j < m(); ++j)
    if (interval(j).holds(u)) out.push_back(j);
  return out;
}

bool Mapping::replicated() const
{
  return std::any_of(intervals.begin(), intervals.end(), [](const Interval& i) { return i.replicas.size() > 1; });
}

bool Mapping::data_parallel() const
{
  for (const auto& interval : intervals)
    for (const auto& group : interval.replicas)
      if (group.size() > 1) return true;
  return false;
}

bool Mapping::has_deal() const
{
  return std::any_of(intervals.begin(), intervals.end(),
                     [](const Interval& i) { return i.replicas.size() > 1 && i.replication == Replication::deal; });
}

MappingRule classify(const Mapping& mapping)
{
  std::map<int, int> uses; // processor -> number of intervals holding it
  bool single = true;      // one stage and one processor per interval
  for (const auto& interval : mapping.intervals) {
    if (interval.stages() != 1 || interval.replicas.size() != 1 || interval.replicas[0].size() != 1) single = false;
    std::set<int> here;
    for (const auto& group : interval.replicas)
      here.insert(group.begin(), group.end());
    for (int u : here)
      ++uses[u];
  }
  bool shared = std::any_of(uses.begin(), uses.end(), [](const auto& kv) { return kv.second > 1; });
  if (shared) return MappingRule::general;
  return single ? MappingRule::one_to_one : MappingRule::interval;
}

Subsets subsets(const Mapping& mapping)
{
  Subsets out;
  std::map<std::vector<int>, std::size_t> index;
  for (int j = 0; j < mapping.m(); ++j) {
    std::set<int> set;
    for (const auto& group : mapping.interval(j).replicas)
      set.insert(group.begin(), group.end());
    std::vector<int> key(set.begin(), set.end());
    auto [it, inserted] = index.emplace(key, out.intervals.size());
    if (inserted) {
      out.intervals.emplace_back();
      out.processor_sets.push_back(key);
    }
    out.intervals[it->second].push_back(j);
  }
  return out;
}

std::optional<std::pair<int, int>> unreachable_pair(const Mapping& mapping, const Platform& platform)
{
  auto nodes = [&](int j) { // the nodes of "interval" j, -1 for P_in and m for P_out
    if (j < 0) return std::vector<int>{platform.in()};
    if (j >= mapping.m()) return std::vector<int>{platform.out()};
    std::vector<int> all;
    for (const auto& group : mapping.interval(j).replicas)
      all.insert(all.end(), group.begin(), group.end());
    return all;
  };
  for (int j = -1; j < mapping.m(); ++j)
    for (int u : nodes(j))
      for (int v : nodes(j + 1))
        if (!platform.reachable(u, v)) return std::pair{u, v};
  return std::nullopt;
}

std::string interval_key(int j, const char* child)
{
  return child == nullptr ? fmt::format("mapping[{}]", j) : fmt::format("mapping[{}].{}", j, child);
}

std::string replica_key(int j, std::size_t r) { return fmt::format("mapping[{}].replicas[{}]", j, r); }

std::optional<std::pair<int, std::size_t>> first_group(const Mapping& mapping)
{
  for (int j = 0; j < mapping.m(); ++j)
    for (std::size_t r = 0; r < mapping.interval(j).replicas.size(); ++r)
      if (mapping.interval(j).replicas[r].size() > 1) return std::pair{j, r};
  return std::nullopt;
}

std::string first_group_key(const Mapping& mapping)
{
  auto group = first_group(mapping);
  return group ? replica_key(group->first, group->second) : "mapping";
}

std::string first_deal_key(const Mapping& mapping)
{
  for (int j = 0; j < mapping.m(); ++j)
    if (mapping.interval(j).replication == Replication::deal && mapping.interval(j).replicas.size() > 1)
      return interval_key(j, "replication");
  return "mapping";
}

void validate(const Mapping& mapping, const Pipeline& pipeline, const Platform& platform)
{
  if (mapping.intervals.empty()) throw InputError::keyed("mapping", "expected at least one interval");
  int expected = 1;
  for (int j = 0; j < mapping.m(); ++j) {
    const Interval& in      = mapping.interval(j);
    const std::string key   = interval_key(j, "stages");
    const std::string value = fmt::format("[{}, {}]", in.first, in.last);
    if (in.first > in.last) throw InputError::keyed(key, value, "the first stage is after the last one");
    if (in.first < expected)
      throw InputError::keyed(key, value,
                              fmt::format("overlaps the previous interval, which ends at stage {}", expected - 1));
    if (in.first > expected)
      throw InputError::keyed(key, value, fmt::format("stage {} is not covered by any interval", expected));
    if (in.last > pipeline.n())
      throw InputError::keyed(key, value, fmt::format("the pipeline has only {} stages", pipeline.n()));
    expected = in.last + 1;
    if (in.replicas.empty()) throw InputError::keyed(interval_key(j, "replicas"), "expected at least one replica");
    std::set<int> seen;
    for (std::size_t r = 0; r < in.replicas.size(); ++r) {
      const ProcessorGroup& group = in.replicas[r];
      if (group.empty()) throw InputError::keyed(replica_key(j, r), "expected at least one processor in a replica");
      std::set<int> in_group;
      for (int u : group) {
        if (u < 0 || u >= platform.p())
          throw InputError::keyed(
              replica_key(j, r), u,
              fmt::format("processor index {} is not a processor of the platform (0..{})", u, platform.p() - 1));
        if (!in_group.insert(u).second)
          throw InputError::keyed(replica_key(j, r), platform.node_name(u), "the group names this processor twice");
        if (!seen.insert(u).second)
          throw InputError::keyed(replica_key(j, r), platform.node_name(u),
                                  "this processor is in two replicas of the interval");
      }
    }
  }
  if (expected != pipeline.n() + 1)
    throw InputError::keyed("mapping",
                            fmt::format("stages {}-{} are not covered by any interval", expected, pipeline.n()));
}

std::string to_text(const Mapping& mapping, const Platform& platform)
{
  std::string out;
  for (const auto& in : mapping.intervals) {
    if (!out.empty()) out += ' ';
    out += in.first == in.last ? fmt::format("[{}]:", in.first) : fmt::format("[{}-{}]:", in.first, in.last);
    for (std::size_t r = 0; r < in.replicas.size(); ++r) {
      if (r > 0) out += '|';
      for (std::size_t g = 0; g < in.replicas[r].size(); ++g)
        out += (g > 0 ? "+" : "") + platform.node_name(in.replicas[r][g]);
    }
    if (in.replication == Replication::deal && in.replicas.size() > 1) out += "/deal";
  }
  return out;
}

Mapping make_interval_mapping(const std::vector<std::pair<int, int>>& intervals, const std::vector<int>& alloc)
{
  Mapping m;
  for (std::size_t j = 0; j < intervals.size(); ++j)
    m.intervals.push_back(Interval{intervals[j].first, intervals[j].second, {{alloc.at(j)}}, Replication::active});
  return m;
}

} // namespace pipesim

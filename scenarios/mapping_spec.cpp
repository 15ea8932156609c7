// Explicit mappings of scenario files: reading them, checking them with file:line messages, resolving host names.
#include "scenarios/mapping_spec.hpp"

#include "base/input_error.hpp"

#include <fmt/format.h>
#include <map>

namespace pipesim {

namespace {

int stage_number(const YamlNode& node)
{
  long long v = node.as_integer();
  if (v < -1'000'000'000LL || v > 1'000'000'000LL) node.fail("expected a stage number");
  return static_cast<int>(v);
}

void parse_stages(const YamlNode& node, MappingSpec::IntervalSpec& interval)
{
  if (node.is_scalar()) {
    interval.first = interval.last = stage_number(node);
    return;
  }
  std::vector<YamlNode> items = node.is_sequence() ? node.items() : std::vector<YamlNode>{};
  if (items.empty() || items.size() > 2) node.fail("expected [first, last] or [stage]");
  interval.first = stage_number(items.front());
  interval.last  = stage_number(items.back());
}

MappingSpec::Group parse_group(const YamlNode& node)
{
  MappingSpec::Group group;
  group.line = node.line();
  if (node.is_scalar()) {
    group.hosts.push_back(node.as_string());
    return group;
  }
  if (!node.is_sequence()) node.fail("expected a host name or a list of host names (a data-parallel group)");
  for (const YamlNode& host : node.items())
    group.hosts.push_back(host.as_string());
  return group;
}

MappingSpec::IntervalSpec parse_interval(const YamlNode& node)
{
  node.require_map();
  node.allow_only({"stages", "replicas", "replication"});
  MappingSpec::IntervalSpec interval;
  interval.line = node.line();
  parse_stages(node.at("stages"), interval);
  for (const YamlNode& replica : node.at("replicas").items())
    interval.replicas.push_back(parse_group(replica));
  if (auto replication = node.find("replication")) interval.replication = replication->as_enum<Replication>();
  return interval;
}

std::string stages_text(int first, int last)
{
  return first == last ? fmt::format("stage {}", first) : fmt::format("stages {}-{}", first, last);
}

[[noreturn]] void fail_interval(const MappingSpec& spec, std::size_t j, const std::string& what)
{
  const MappingSpec::IntervalSpec& interval = spec.intervals[j];
  std::string value                         = interval.first == interval.last ? fmt::format("[{}]", interval.first)
                                                                              : fmt::format("[{}, {}]", interval.first, interval.last);
  throw InputError::at(spec.file, interval.line, fmt::format("mapping[{}].stages", j), value, what);
}

[[noreturn]] void fail_group(const MappingSpec& spec, std::size_t j, std::size_t r, const std::string& host,
                             const std::string& what)
{
  throw InputError::at(spec.file, spec.intervals[j].replicas[r].line, fmt::format("mapping[{}].replicas[{}]", j, r),
                       host, what);
}

std::string known_processors(const Platform& platform)
{
  std::string list;
  const int shown = std::min(platform.p(), 8);
  for (int u = 0; u < shown; ++u)
    list += (u == 0 ? "" : ", ") + platform.processor(u).name;
  if (shown < platform.p()) list += fmt::format(", ... ({} in all)", platform.p());
  return list;
}

int processor_index(const MappingSpec& spec, std::size_t j, std::size_t r, const std::string& host,
                    const Platform& platform)
{
  if (auto u = platform.find(host)) return *u;
  if (host == platform.in_name() || host == platform.out_name()) {
    std::string role = platform.io_same_host() ? "P_in and P_out" : host == platform.in_name() ? "P_in" : "P_out";
    fail_group(spec, j, r, host, fmt::format("host '{}' is the I/O server {}, not a processor", host, role));
  }
  fail_group(spec, j, r, host,
             fmt::format("unknown host '{}' (known processors: {})", host, known_processors(platform)));
}

/// Processor indices of interval j, with the checks on its replicas (DESIGN.md §2).
std::vector<ProcessorGroup> resolve_replicas(const MappingSpec& spec, std::size_t j, const Platform& platform)
{
  const MappingSpec::IntervalSpec& interval = spec.intervals[j];
  if (interval.replicas.empty())
    throw InputError::at(spec.file, interval.line, fmt::format("mapping[{}].replicas", j),
                         "an interval needs at least one replica");
  std::vector<ProcessorGroup> groups;
  std::map<int, std::size_t> replica_of; // processor -> the replica of this interval that holds it
  for (std::size_t r = 0; r < interval.replicas.size(); ++r) {
    const auto& hosts = interval.replicas[r].hosts;
    if (hosts.empty()) fail_group(spec, j, r, "[]", "a replica needs at least one host");
    ProcessorGroup group;
    for (const std::string& host : hosts) {
      int u               = processor_index(spec, j, r, host, platform);
      auto [it, inserted] = replica_of.emplace(u, r);
      if (!inserted && it->second == r)
        fail_group(spec, j, r, host, fmt::format("the group names processor {} twice", host));
      if (!inserted)
        fail_group(spec, j, r, host,
                   fmt::format("processor {} is already in replica {} of this interval", host, it->second));
      group.push_back(u);
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

} // namespace

MappingSpec parse_mapping_spec(const YamlNode& node)
{
  MappingSpec spec;
  spec.file                   = node.file();
  spec.node                   = node;
  std::vector<YamlNode> items = node.items();
  if (items.empty()) node.fail("expected at least one interval");
  for (const YamlNode& item : items)
    spec.intervals.push_back(parse_interval(item));
  return spec;
}

void check_mapping_stages(const MappingSpec& spec, int n)
{
  if (spec.intervals.empty())
    throw InputError::at(spec.file, spec.node ? spec.node->line() : 0, "mapping", "expected at least one interval");
  for (std::size_t j = 0; j < spec.intervals.size(); ++j) {
    const auto& interval = spec.intervals[j];
    for (int s : {interval.first, interval.last})
      if (s < 1 || s > n)
        fail_interval(spec, j, fmt::format("stage {} is outside 1..{} (the pipeline has {} stages)", s, n, n));
    if (interval.first > interval.last)
      fail_interval(spec, j, fmt::format("first stage {} exceeds last stage {}", interval.first, interval.last));
  }
  int next = 1; // first stage not covered yet
  for (std::size_t j = 0; j < spec.intervals.size(); ++j) {
    const auto& interval = spec.intervals[j];
    if (interval.first < next)
      fail_interval(spec, j,
                    fmt::format("{} {} the previous interval ending at stage {}",
                                stages_text(interval.first, interval.last),
                                interval.first == interval.last ? "overlaps" : "overlap", next - 1));
    if (interval.first > next)
      fail_interval(spec, j,
                    fmt::format("{} {} not covered", stages_text(next, interval.first - 1),
                                interval.first - 1 == next ? "is" : "are"));
    next = interval.last + 1;
  }
  if (next <= n)
    fail_interval(spec, spec.intervals.size() - 1,
                  fmt::format("interval ends at stage {} but the pipeline has {} stages", next - 1, n));
}

Mapping resolve_mapping(const MappingSpec& spec, const Pipeline& pipeline, const Platform& platform)
{
  check_mapping_stages(spec, pipeline.n());
  Mapping mapping;
  for (std::size_t j = 0; j < spec.intervals.size(); ++j) {
    Interval interval;
    interval.first       = spec.intervals[j].first;
    interval.last        = spec.intervals[j].last;
    interval.replication = spec.intervals[j].replication;
    interval.replicas    = resolve_replicas(spec, j, platform);
    mapping.intervals.push_back(std::move(interval));
  }
  SourceMap sources; // the model's checks name keys of the mapping ("mapping[1].replicas[0]")
  if (spec.node) sources.add("mapping", *spec.node);
  with_sources(sources, [&] { validate(mapping, pipeline, platform); }); // safety net: the checks above leave nothing
  if (auto pair = unreachable_pair(mapping, platform)) {
    // the line of the interval that receives (the first interval for P_in -> I_1)
    int j = pair->second == platform.out() ? mapping.m() - 1 : 0;
    for (int i = 0; i < mapping.m(); ++i)
      for (const auto& group : mapping.interval(i).replicas)
        if (std::ranges::find(group, pair->second) != group.end()) j = i;
    throw InputError::at(spec.file, spec.intervals[static_cast<std::size_t>(j)].line, fmt::format("mapping[{}]", j),
                         fmt::format("the mapping sends from '{}' to '{}', which are unreachable from each other on "
                                     "this platform (SimGrid has no route between them, or a failed link is on it)",
                                     platform.node_name(pair->first), platform.node_name(pair->second)));
  }
  return mapping;
}

} // namespace pipesim

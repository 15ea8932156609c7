// Per-epoch analytic periods of a mapping on a time-varying platform (DESIGN.md §3.11).
#include "model/analytic_series.hpp"

#include "base/input_error.hpp"
#include "model/analysis.hpp"
#include "model/event_graph.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <utility>

namespace pipesim {

namespace {

/// The values the mapping's period depends on: speeds and cards of its processors, b and c among them, P_in and P_out.
std::vector<double> signature(const Platform& p, const Mapping& mapping)
{
  std::vector<int> nodes = mapping.processors();
  std::vector<double> key;
  for (int u : nodes) {
    key.push_back(p.speed(u));
    key.push_back(p.processor(u).nic_in);
    key.push_back(p.processor(u).nic_out);
  }
  nodes.push_back(p.in());
  nodes.push_back(p.out());
  for (int u : nodes)
    for (int v : nodes) {
      key.push_back(p.bandwidth(u, v));
      key.push_back(p.latency(u, v));
    }
  return key;
}

double epoch_period(const Pipeline& pipeline, const Platform& at, const Mapping& mapping, CommModel model, int buffer,
                    const std::vector<int>& senders)
{
  if (unreachable_pair(mapping, at)) return infinity; // a link of the mapping is off in this epoch
  if (model == CommModel::multi_port) return analyze_multiport(pipeline, at, mapping, buffer).period;
  CycleRatioResult cr = max_cycle_ratio(build_oneport_event_graph(pipeline, at, mapping, senders));
  return cr.deadlock ? infinity : cr.period;
}

/// The mapping without the replicas that hold a dead processor, or nullopt when an interval loses every replica or
/// a dealt interval loses one (no redundancy: the run fails, DESIGN.md §3.7).
std::optional<Mapping> survivors(const Mapping& mapping, const std::vector<int>& dead)
{
  Mapping out = mapping;
  for (auto& interval : out.intervals) {
    auto lost = [&](const ProcessorGroup& g) {
      return std::ranges::any_of(g, [&](int u) { return std::ranges::find(dead, u) != dead.end(); });
    };
    auto removed = std::erase_if(interval.replicas, lost);
    if (interval.replicas.empty() || (removed > 0 && interval.replication == Replication::deal)) return std::nullopt;
  }
  return out;
}

} // namespace

std::vector<Epoch> analytic_series(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                   CommModel model, int buffer, const std::vector<int>& senders, double horizon)
{
  std::vector<double> starts{0};
  if (!platform.profiles().empty()) {
    // each profile stops after max + 2 dates: enough to see more than max once t = 0 is left out
    std::vector<double> changes = profile_change_dates(platform, horizon, max_series_changes + 2);
    if (changes.size() > max_series_changes)
      throw InputError::keyed("platform.profiles",
                              fmt::format("more than {} changes before t = {:g} s, more than an analytic series "
                                          "holds; simulate fewer data sets or use longer epochs",
                                          max_series_changes, horizon));
    starts.insert(starts.end(), changes.begin(), changes.end());
  }
  std::vector<int> used = mapping.processors();
  std::vector<int> dead; // a host a state profile turns off has crashed, for the rest of the run (DESIGN.md §3.5)
  using Key = std::pair<std::vector<int>, std::vector<double>>; // the dead processors and the values that matter
  std::map<Key, double> periods;                                // looping profiles repeat epochs
  std::vector<Epoch> series;
  Key previous;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    Epoch e;
    e.start     = starts[i];
    e.end       = i + 1 < starts.size() ? starts[i + 1] : std::max(horizon, e.start);
    Platform at = platform_at(platform, e.start);
    for (const std::string& host : hosts_off_at(platform, e.start))
      if (auto u = platform.find(host);
          u && std::ranges::find(used, *u) != used.end() && std::ranges::find(dead, *u) == dead.end())
        dead.push_back(*u);
    for (int u : dead)
      e.hosts_off.push_back(platform.node_name(u));
    std::optional<Mapping> alive = survivors(mapping, dead);
    Key key{dead, alive ? signature(at, *alive) : std::vector<double>{}};
    if (!series.empty() && key == previous) { // nothing the mapping uses changed: the same epoch goes on
      series.back().end = e.end;
      continue;
    }
    if (!alive) {
      e.period = infinity;
    } else {
      auto it = periods.find(key);
      if (it == periods.end()) // after a crash the first alive replica sends (the simulator's default election)
        it = periods
                 .emplace(key, epoch_period(pipeline, at, *alive, model, buffer,
                                            dead.empty() ? senders : std::vector<int>{}))
                 .first;
      e.period = it->second;
    }
    previous = std::move(key);
    series.push_back(std::move(e));
  }
  return series;
}

} // namespace pipesim

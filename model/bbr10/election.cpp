// Shared pieces of the bbr10 §6.1 elections.
#include "model/bbr10/election.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace pipesim {

ElectionInstance::ElectionInstance(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                   const FailureConfiguration& config)
{
  if (mapping.data_parallel() || mapping.has_deal())
    throw InputError::keyed(mapping.data_parallel() ? first_group_key(mapping) : first_deal_key(mapping),
                            "seed 004 elections: every interval must be actively replicated on single processors");
  if (config.alive.size() != static_cast<std::size_t>(platform.p()))
    throw InputError::keyed("simulation.failures", config.alive.size(),
                            fmt::format("seed 004 elections: a failure configuration of this many processors, for a "
                                        "platform of {}",
                                        platform.p()));
  for (int j = 0; j < mapping.m(); ++j) {
    const Interval& in = mapping.interval(j);
    std::vector<int> candidates;
    for (const auto& group : in.replicas)
      if (config.is_alive(group.front())) candidates.push_back(group.front());
    if (candidates.empty())
      throw InputError::keyed(interval_key(j, "replicas"),
                              fmt::format("seed 004 elections: stages {}-{} have no alive replica: the mapping failed "
                                          "and has no period",
                                          in.first, in.last));
    std::vector<int> to;
    if (j + 1 == mapping.m())
      to.push_back(platform.out());
    else
      for (const auto& group : mapping.interval(j + 1).replicas)
        if (config.is_alive(group.front()) && !in.holds(group.front())) to.push_back(group.front());
    alive.push_back(std::move(candidates));
    receivers.push_back(std::move(to));
    delta.push_back(pipeline.data(in.last));
  }
}

OutgoingLoads::OutgoingLoads(const Platform& platform, const ElectionInstance& instance)
    : platform_(platform), instance_(instance), card_bytes_(static_cast<std::size_t>(platform.p()), 0.0),
      card_latency_(card_bytes_), link_bytes_(static_cast<std::size_t>(platform.p() * platform.nodes()), 0.0)
{
}

double OutgoingLoads::time_with(int u, int j) const
{
  const auto& to = instance_.receivers[static_cast<std::size_t>(j)];
  double delta   = instance_.delta[static_cast<std::size_t>(j)];
  auto uu        = static_cast<std::size_t>(u);
  double latency = card_latency_[uu];
  double time    = 0;
  for (int v : to) { // bbr10 Algorithm 4: max_v (delta_i + sum_{S_k in Set_u} delta_k [v receives S_k]) / b_{u,v}
    latency    = std::max(latency, platform_.latency(u, v));
    double sum = link_bytes_[uu * static_cast<std::size_t>(platform_.nodes()) + static_cast<std::size_t>(v)] + delta;
    time       = std::max(time, platform_.transfer_time(u, v, sum));
  }
  // bbr10 Algorithm 4: (|receivers_i| delta_i + sum_{S_k in Set_u} |receivers_k| delta_k) / Bout_u
  double card = card_bytes_[uu] + static_cast<double>(to.size()) * delta;
  return std::max(time, latency + card / platform_.processor(u).nic_out);
}

void OutgoingLoads::add(int u, int j)
{
  const auto& to = instance_.receivers[static_cast<std::size_t>(j)];
  double delta   = instance_.delta[static_cast<std::size_t>(j)];
  auto uu        = static_cast<std::size_t>(u);
  for (int v : to) {
    card_latency_[uu] = std::max(card_latency_[uu], platform_.latency(u, v));
    link_bytes_[uu * static_cast<std::size_t>(platform_.nodes()) + static_cast<std::size_t>(v)] += delta;
  }
  card_bytes_[uu] += static_cast<double>(to.size()) * delta;
}

void elect_smallest_outgoing_time(const ElectionInstance& instance, const std::vector<int>& order, OutgoingLoads& loads,
                                  Election& election)
{
  for (int j : order) {
    int best          = -1;
    double best_time  = 0;
    const auto& alive = instance.alive[static_cast<std::size_t>(j)];
    for (int u : alive) { // Algorithm 4: "P_u results to the smallest value"
      double t = loads.time_with(u, j);
      if (best < 0 || t < best_time) {
        best      = u;
        best_time = t;
      }
    }
    loads.add(best, j);
    election.sender[static_cast<std::size_t>(j)] = best;
  }
}

} // namespace pipesim

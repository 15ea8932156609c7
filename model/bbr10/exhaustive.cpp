// Exhaustive election: the exact minimum of Algorithm 1's period over every election.
#include "model/bbr10/exhaustive.hpp"

#include "base/input_error.hpp"
#include "model/bbr10/election.hpp"

#include <fmt/format.h>

namespace pipesim {

namespace {
/// Intervals whose election matters (their output leaves the replica set and more than one replica is alive).
std::vector<int> free_intervals(const ElectionInstance& instance)
{
  std::vector<int> out;
  for (int j = 0; j < instance.m(); ++j)
    if (instance.alive[static_cast<std::size_t>(j)].size() > 1 &&
        !instance.receivers[static_cast<std::size_t>(j)].empty())
      out.push_back(j);
  return out;
}
} // namespace

double bbr10_election_count(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                            const FailureConfiguration& config)
{
  ElectionInstance instance(pipeline, platform, mapping, config);
  double count = 1;
  for (int j : free_intervals(instance))
    count *= static_cast<double>(instance.alive[static_cast<std::size_t>(j)].size());
  return count;
}

ElectionChoice bbr10_exhaustive_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                         const FailureConfiguration& config, double max_elections)
{
  ElectionInstance instance(pipeline, platform, mapping, config);
  double count = bbr10_election_count(pipeline, platform, mapping, config);
  if (count > max_elections)
    throw InputError::keyed(
        "simulation.failures.election", "exhaustive",
        fmt::format("{:.0f} elections to try on this mapping, more than the limit of {:.0f}", count, max_elections));
  auto free = free_intervals(instance);
  Election election;
  for (const auto& alive : instance.alive)
    election.sender.push_back(alive.front());
  std::vector<std::size_t> digit(free.size(), 0); // odometer over the free intervals' alive replicas
  ElectionChoice best{election, bbr10_period(pipeline, platform, mapping, config, election),
                      ElectionPolicy::exhaustive};
  for (;;) {
    std::size_t k = 0;
    for (; k < free.size(); ++k) {
      const auto& alive = instance.alive[static_cast<std::size_t>(free[k])];
      if (++digit[k] < alive.size()) break;
      digit[k] = 0;
    }
    if (k == free.size()) break;
    for (std::size_t i = 0; i < free.size(); ++i)
      election.sender[static_cast<std::size_t>(free[i])] = instance.alive[static_cast<std::size_t>(free[i])][digit[i]];
    double period = bbr10_period(pipeline, platform, mapping, config, election);
    if (period < best.period) best = ElectionChoice{election, period, ElectionPolicy::exhaustive};
  }
  return best;
}

} // namespace pipesim

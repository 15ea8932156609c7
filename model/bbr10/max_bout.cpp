// bbr10 Algorithm 3: the alive replica with the biggest Bout sends each interval's output.
#include "model/bbr10/max_bout.hpp"

#include "model/bbr10/election.hpp"

namespace pipesim {

Election bbr10_max_bout_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                 const FailureConfiguration& config)
{
  return bbr10_max_bout_election_on(platform, ElectionInstance(pipeline, platform, mapping, config));
}

Election bbr10_max_bout_election_on(const Platform& platform, const ElectionInstance& instance)
{
  Election election;
  for (const auto& candidates : instance.alive) {
    int best = candidates.front();
    for (int u : candidates) // strict: the first of equal cards stays elected
      if (platform.processor(u).nic_out > platform.processor(best).nic_out) best = u;
    election.sender.push_back(best);
  }
  return election;
}

} // namespace pipesim

// bbr10 Algorithm 4: MinComm election, costliest transfers first, smallest resulting outgoing time.
#include "model/bbr10/min_comm.hpp"

#include "model/bbr10/election.hpp"

#include <algorithm>

namespace pipesim {

Election bbr10_min_comm_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                 const FailureConfiguration& config)
{
  return bbr10_min_comm_election_on(platform, ElectionInstance(pipeline, platform, mapping, config));
}

Election bbr10_min_comm_election_on(const Platform& platform, const ElectionInstance& instance)
{
  OutgoingLoads loads(platform, instance);
  Election election{std::vector<int>(static_cast<std::size_t>(instance.m()), -1)};
  std::vector<int> forced, rest;
  std::vector<double> transfer(static_cast<std::size_t>(instance.m()), 0.0);
  for (int j = 0; j < instance.m(); ++j) {
    auto jj = static_cast<std::size_t>(j);
    if (instance.alive[jj].size() == 1) // Algorithm 4, first loop: no alternative
      forced.push_back(j);
    else if (instance.receivers[jj].empty()) // second loop: no remote output, any replica will do
      election.sender[jj] = instance.alive[jj].front();
    else {
      rest.push_back(j);
      for (int u : instance.alive[jj]) // delta_i / min_{u, v} b_{u,v}
        for (int v : instance.receivers[jj])
          transfer[jj] = std::max(transfer[jj], platform.transfer_time(u, v, instance.delta[jj]));
    }
  }
  // The forced senders count in the others' outgoing times (Set_u is filled before the greedy loop).
  elect_smallest_outgoing_time(instance, forced, loads, election);
  std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) {
    return transfer[static_cast<std::size_t>(a)] > transfer[static_cast<std::size_t>(b)];
  });
  elect_smallest_outgoing_time(instance, rest, loads, election);
  return election;
}

} // namespace pipesim

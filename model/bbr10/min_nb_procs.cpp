// bbr10 Algorithm 5: MinNbProcs election, fewest alternatives first, smallest resulting outgoing time.
#include "model/bbr10/min_nb_procs.hpp"

#include "model/bbr10/election.hpp"

#include <algorithm>

namespace pipesim {

Election bbr10_min_nb_procs_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                     const FailureConfiguration& config)
{
  return bbr10_min_nb_procs_election_on(platform, ElectionInstance(pipeline, platform, mapping, config));
}

Election bbr10_min_nb_procs_election_on(const Platform& platform, const ElectionInstance& instance)
{
  OutgoingLoads loads(platform, instance);
  Election election{std::vector<int>(static_cast<std::size_t>(instance.m()), -1)};
  std::vector<int> rest;
  for (int j = 0; j < instance.m(); ++j) {
    auto jj = static_cast<std::size_t>(j);
    if (instance.receivers[jj].empty()) // Algorithm 5, first loop: no remote output
      election.sender[jj] = instance.alive[jj].front();
    else
      rest.push_back(j);
  }
  auto alternatives = [&](int j) { return instance.alive[static_cast<std::size_t>(j)].size(); };
  auto output       = [&](int j) {
    auto jj = static_cast<std::size_t>(j);
    return instance.delta[jj] * static_cast<double>(instance.receivers[jj].size());
  };
  std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) {
    if (alternatives(a) != alternatives(b)) return alternatives(a) < alternatives(b);
    return output(a) > output(b);
  });
  elect_smallest_outgoing_time(instance, rest, loads, election);
  return election;
}

} // namespace pipesim

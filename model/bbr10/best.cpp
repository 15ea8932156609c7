// bbr10 §7.1: the best of the four election heuristics.
#include "model/bbr10/best.hpp"

#include "model/bbr10/max_bout.hpp"
#include "model/bbr10/min_comm.hpp"
#include "model/bbr10/min_nb_procs.hpp"
#include "model/bbr10/random_election.hpp"

namespace pipesim {

ElectionChoice bbr10_best_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                   const FailureConfiguration& config, std::uint64_t seed)
{
  return bbr10_best_election_on(
      platform, ElectionInstance(pipeline, platform, mapping, config),
      [&](const Election& election) { return bbr10_period(pipeline, platform, mapping, config, election); }, seed);
}

ElectionChoice bbr10_best_election_on(const Platform& platform, const ElectionInstance& instance,
                                      const std::function<double(const Election&)>& period, std::uint64_t seed)
{
  ElectionChoice best;
  auto consider = [&](Election election, ElectionPolicy method) {
    double value = period(election);
    if (!best.method || value < best.period) best = ElectionChoice{std::move(election), value, method};
  };
  using P = ElectionPolicy;
  consider(bbr10_random_election_on(instance, seed), P::random);
  consider(bbr10_max_bout_election_on(platform, instance), P::max_bout);
  consider(bbr10_min_comm_election_on(platform, instance), P::min_comm);
  consider(bbr10_min_nb_procs_election_on(platform, instance), P::min_nb_procs);
  return best;
}

} // namespace pipesim

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
  ElectionChoice best;
  auto consider = [&](Election election, ElectionPolicy method) {
    double period = bbr10_period(pipeline, platform, mapping, config, election);
    if (!best.method || period < best.period) best = ElectionChoice{std::move(election), period, method};
  };
  using P = ElectionPolicy;
  consider(bbr10_random_election(pipeline, platform, mapping, config, seed), P::random);
  consider(bbr10_max_bout_election(pipeline, platform, mapping, config), P::max_bout);
  consider(bbr10_min_comm_election(pipeline, platform, mapping, config), P::min_comm);
  consider(bbr10_min_nb_procs_election(pipeline, platform, mapping, config), P::min_nb_procs);
  return best;
}

} // namespace pipesim

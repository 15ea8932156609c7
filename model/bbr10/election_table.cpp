// The table of bbr10 §6.1 elections by name.
#include "model/bbr10/election_table.hpp"

#include "model/bbr10/best.hpp"
#include "model/bbr10/exhaustive.hpp"
#include "model/bbr10/max_bout.hpp"
#include "model/bbr10/min_comm.hpp"
#include "model/bbr10/min_nb_procs.hpp"
#include "model/bbr10/random_election.hpp"

namespace pipesim {

ElectionFunction bbr10_election(ElectionPolicy policy, std::uint64_t seed)
{
  using P = ElectionPolicy;
  switch (policy) {
  case P::random:
    return [seed](const Pipeline& pl, const Platform& pf, const Mapping& mp, const FailureConfiguration& c) {
      return bbr10_random_election(pl, pf, mp, c, seed);
    };
  case P::max_bout:
    return bbr10_max_bout_election;
  case P::min_comm:
    return bbr10_min_comm_election;
  case P::min_nb_procs:
    return bbr10_min_nb_procs_election;
  case P::best:
    return [seed](const Pipeline& pl, const Platform& pf, const Mapping& mp, const FailureConfiguration& c) {
      return bbr10_best_election(pl, pf, mp, c, seed).election;
    };
  case P::exhaustive:
    return [](const Pipeline& pl, const Platform& pf, const Mapping& mp, const FailureConfiguration& c) {
      return bbr10_exhaustive_election(pl, pf, mp, c).election;
    };
  case P::first:
  case P::first_alive:
    break;
  }
  return [](const Pipeline&, const Platform&, const Mapping& mp, const FailureConfiguration& c) {
    return first_alive_election(mp, c);
  };
}

} // namespace pipesim

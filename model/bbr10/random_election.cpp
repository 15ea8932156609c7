// bbr10 Algorithm 2: uniform random election of one alive sender per interval.
#include "model/bbr10/random_election.hpp"

#include "base/random.hpp"
#include "model/bbr10/election.hpp"

namespace pipesim {

Election bbr10_random_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                               const FailureConfiguration& config, std::uint64_t seed)
{
  return bbr10_random_election_on(ElectionInstance(pipeline, platform, mapping, config), seed);
}

Election bbr10_random_election_on(const ElectionInstance& instance, std::uint64_t seed)
{
  Rng rng(seed);
  Election election;
  for (const auto& candidates : instance.alive) // Algorithm 2: "perform a random election of a surviving processor"
    election.sender.push_back(
        candidates[static_cast<std::size_t>(rng.integer(0, static_cast<long long>(candidates.size()) - 1))]);
  return election;
}

} // namespace pipesim

// The bbr10 §6.1 elections by name (a scenario's `simulation.failures.election`), above the heuristics they name.
#pragma once

#include "model/bbr10/election.hpp"

#include <cstdint>

namespace pipesim {

/// The election of a policy; `seed` seeds `random` (and the Random heuristic inside `best`). Complexity: that of the
/// policy's election (model/bbr10/README.md), O(1) to choose it.
ElectionFunction bbr10_election(ElectionPolicy policy, std::uint64_t seed = 1);

} // namespace pipesim

// bbr10 §6.2.2 Algorithm 6 (Small): one random processor per subset, then the most reliable processors to the
// least reliable subsets, then fusion.
#pragma once

#include "base/random.hpp"
#include "mappers/bbr10/fusion.hpp"

namespace pipesim {

/// Contract.
/// - Source: bbr10 Algorithm 6 (Small). For each subset in index order, an unused processor drawn uniformly
///   among those that satisfy P_max (rng; none: the subset waits for the next steps); then
///   bbr10_give_unused_processors (most reliable first, each to the least reliable subset it fits); then
///   Algorithm 10 (bbr10_fusion).
/// - Accepts: a SubsetState with a stage partition and no processors. Complexity: O(l p) fits tests + fusion.
void bbr10_small(SubsetState& state, Rng& rng, bool intervals);

} // namespace pipesim

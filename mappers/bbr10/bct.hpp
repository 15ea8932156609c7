// bbr10 §6.2.2 Algorithm 8 (BCT, biggest cycle-time): each subset takes the most critical processor that still
// satisfies P_max, round after round, then fusion.
#pragma once

#include "mappers/bbr10/fusion.hpp"

namespace pipesim {

/// Contract.
/// - Source: bbr10 Algorithm 8 (BCT-c with SubsetOrder::output_data, BCT-w with ::workload). ceil(p / l) rounds;
///   in each round every subset (in `order`) takes the unused processor whose cycle-time in the subset (its largest
///   term of the period bound, SubsetState::cycle_time_with) is the biggest among those that satisfy P_max (ties:
///   smaller index). Then bbr10_give_unused_processors and Algorithm 10 (bbr10_fusion).
/// - Accepts: a SubsetState with a stage partition and no processors. Complexity: O(p^2) fits tests + fusion.
void bbr10_bct(SubsetState& state, SubsetOrder order, bool intervals);

/// The unused processor with the biggest cycle-time in subset k among those that fit (-1: none). Shared with Bal.
/// Under the paper's period test each candidate costs the best of four elections, so the candidates go by
/// decreasing worst-case term (SubsetState::cycle_time_bound, >= their cycle-time in any election) and the search
/// stops when that bound cannot beat the best found: the same processor as trying them all.
int bbr10_most_critical_processor(SubsetState& state, int k);

} // namespace pipesim

// bbr10 §6.2.2 Algorithm 7 (Snake): subsets take processors in a snake order of reliability, then fusion.
#pragma once

#include "mappers/bbr10/fusion.hpp"

namespace pipesim {

/// Contract.
/// - Source: bbr10 Algorithm 7 (Snake-c with SubsetOrder::output_data, Snake-w with ::workload). Lp: processors
///   by increasing f_u; ceil(p / l) rounds; in each round every subset (in `order`) takes the first processor of Lp
///   that satisfies P_max, which leaves Lp; Lp is reversed after each round (most reliable first, then least
///   reliable first, ...). Then bbr10_give_unused_processors and Algorithm 10 (bbr10_fusion).
/// - Accepts: a SubsetState with a stage partition and no processors. Complexity: O(p^2) fits tests + fusion.
void bbr10_snake(SubsetState& state, SubsetOrder order, bool intervals);

} // namespace pipesim

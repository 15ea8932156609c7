// bbr10 §6.2.2 Algorithm 9 (Bal): each subset takes critical processors until its failure probability reaches
// the balanced share of the platform's, then fusion.
#pragma once

#include "mappers/bbr10/fusion.hpp"

namespace pipesim {

/// Contract.
/// - Source: bbr10 Algorithm 9 (Bal-c with SubsetOrder::output_data, Bal-w with ::workload). Target: the l-th root
///   of prod_{u = 1..p} f_u (l subsets). Each subset in `order` takes, one by one, the unused processor with the
///   biggest cycle-time that satisfies P_max (bbr10_most_critical_processor) while the product of its processors'
///   f_u is above the target ("prod f_u ≈ target" read as: stop at the first product <= target, or when no
///   processor fits). Then bbr10_give_unused_processors and Algorithm 10 (bbr10_fusion).
/// - Accepts: a SubsetState with a stage partition and no processors. Complexity: O(p^2) fits tests + fusion.
void bbr10_bal(SubsetState& state, SubsetOrder order, bool intervals);

} // namespace pipesim

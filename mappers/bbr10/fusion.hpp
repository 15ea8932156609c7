// bbr10 §6.2.2: what every reliability heuristic ends with: giving the unused processors away (the last loop of
// Algorithms 6-10) and Algorithm 10 (fusion of subsets); and the orders the heuristics share.
#pragma once

#include "mappers/bbr10/subset_state.hpp"

#include <vector>

namespace pipesim {

/// All processors by increasing failure probability f_u (ties: smaller index): the paper's list Lp.
std::vector<int> bbr10_processors_by_reliability(const Platform& platform);

/// The "-c" and "-w" variants: subsets by decreasing output data (sum of delta_{e_j} over their intervals) or by
/// decreasing workload (sum of w_i); ties: smaller subset index. Only subsets with stages.
enum class SubsetOrder { output_data, workload };
std::vector<int> bbr10_subset_order(const SubsetState& state, SubsetOrder order);

/// Contract.
/// - Source: bbr10 Algorithms 6-10, their common last loop: "Order remaining non-used processors P_u by
///   increasing f_u; foreach P_u in order: allocate P_u to the set subSet_k with the biggest failure probability and
///   for which P_u satisfies the period P_max". The subsets are tried by decreasing failure probability, recomputed
///   after each allocation (ties: smaller index); a processor that fits nowhere stays unused.
/// - Complexity: O(p l) fits tests.
void bbr10_give_unused_processors(SubsetState& state);

/// Contract.
/// - Source: bbr10 Algorithm 10 (fusion). While there are two subsets or more: take the subset k with the highest
///   failure probability (ties: smaller index); for each other subset k' in index order, fuse them: the stages of
///   k' join k, and k's processors, k''s and the unused ones, by increasing f_u, join the fused subset when they
///   satisfy P_max (the others are "discarded" and become unused); keep the fusion as soon as it decreases F
///   strictly and start again; stop when no fusion of k decreases F. Then bbr10_give_unused_processors.
/// - `intervals`: k' must hold an interval next to one of k's, so an interval mapping stays one.
/// - Complexity: O(l^2) fusions, each O(p) fits tests.
void bbr10_fusion(SubsetState& state, bool intervals);

} // namespace pipesim

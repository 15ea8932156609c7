// bbr10 §6.3 (class 2, PartPrc and PartPrw): processors grouped into sets of balanced reliability first, then
// stages assigned to the sets one by one.
#pragma once

#include "mappers/bbr10/fusion.hpp"

namespace pipesim {

/// PartPrc: stages by decreasing output size delta_i; PartPrw: by decreasing work w_i (ties: smaller index).
enum class StageOrder { output_data, workload };

/// Contract.
/// - Source: bbr10 §6.3 and Algorithm 12, for one number of sets q (1 <= q <= min(n, p)): processors by
///   decreasing speed (ties: smaller index) are dealt in that order into q sets, each set taking processors until
///   the product of their f_u is <= the q-th root of prod_{u = 1..p} f_u (at least one each while processors
///   remain; the last processors may stay out). Then each stage, in `order`, joins the set that gives the smallest
///   period of the whole partial mapping (SubsetState::period(): the worst-case bound, or the paper's all-alive best
///   election with `test`; `seed` seeds its Random election) among those that keep it <= P_max (ties: smaller set
///   index; sets without processors are skipped; a stage that fits nowhere stays unassigned and the mapping is
///   incomplete). The processors of sets that received no stage become unused; then bbr10_give_unused_processors and
///   Algorithm 10 (bbr10_fusion, general).
/// - Returns: the state (SubsetState::complete() says whether every stage found a set). Complexity: O(n q) period
///   bounds of the partial mapping + fusion.
SubsetState bbr10_partition_processors(const Problem& problem, StageOrder order, int q,
                                       PeriodTest test = PeriodTest::worst_case, std::uint64_t seed = 1);

} // namespace pipesim

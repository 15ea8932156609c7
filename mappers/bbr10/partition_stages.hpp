// bbr10 §6.2.1: partitioning the stages into subsets of intervals (PartStc, PartStw, PartStr), general or
// restricted to one interval per subset.
#pragma once

#include "base/enum_names.hpp"
#include "base/random.hpp"
#include "model/pipeline.hpp"

#include <string>
#include <vector>

namespace pipesim {

enum class StagePartition {
  communication, // PartStc
  computation,   // PartStw
  random         // PartStr
};
PIPESIM_ENUM_NAMES(StagePartition, {communication, "partstc"}, {computation, "partstw"}, {random, "partstr"});

/// Contract.
/// - Source: bbr10 §6.2.1, into `l` subsets (1 <= l <= n):
///   - PartStc (communication): stages by increasing output size delta_i (ties: smaller index), each into the subset
///     that minimises max(workload, output data) after adding it, workload = sum of w_i, output data = sum of
///     delta_{e_j} over the subset's intervals (maximal runs of consecutive stages); ties: smaller subset index.
///   - PartStw (computation): loads close to the average sum w / l: stages by decreasing w_i (ties: smaller index),
///     each into the least loaded subset (ties: smaller index), the classic greedy the paper's sentence describes.
///   - PartStr (random): Algorithm 11's round robin: each subset in turn takes a stage drawn uniformly among those
///     not yet placed, until all are placed (rng).
/// - `intervals` (pipesim's interval variants, one interval per subset; the paper's [3]): PartStc cuts after the
///   l - 1 stages i < n with the smallest delta_i (ties: smaller index), so the largest transfers stay local;
///   PartStw cuts where the prefix workload is closest to k sum w / l (k = 1..l-1; ties: the earlier cut);
///   PartStr draws l - 1 distinct cuts uniformly.
/// - Returns: the subset of each stage, indexed 1..n (entry 0 is -1), subsets numbered 0.. in order of their
///   first stage, every subset non-empty (the general PartStc/PartStw may use fewer than l subsets when a subset
///   stays empty). Complexity: O(n^2 l) for the general PartStc, O(n log n + n l) otherwise.
std::vector<int> bbr10_partition_stages(StagePartition partition, const Pipeline& pipeline, int l, bool intervals,
                                        Rng& rng);

/// The number of subsets of a partition returned above.
int bbr10_subset_count(const std::vector<int>& subset_of_stage);

} // namespace pipesim

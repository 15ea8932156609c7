// Exhaustive references for HeDPM's problem (hedpm §5.1): every gathering and replication, tiny instances.
#pragma once

#include "mappers/hedpm/hedpm.hpp"

namespace pipesim {

/// Contract (mappers `hedpm.exhaustive` and `hedpm.exhaustive.replicated-intervals`).
/// - Source: hedpm §5.1, the brute force "generating all possible mappings, evaluating the production time of
///   every mapping, and returning the one with the lowest production time"; production times are HeDPM's model
///   (hedpm_production_time). `hedpm.exhaustive` ranges over the paper's mappings (consecutive stages gathered on one
///   processor, single stages replicated over several, deal replication); `.replicated-intervals` also replicates
///   gathered intervals (HedpmSpace).
/// - Enumerates: every composition of S_1..S_n into intervals; for each interval every ordered list of distinct free
///   processors (a single processor for a gathered interval of `hedpm.exhaustive`). The order of the replicas
///   matters: data set k goes to replica k mod R (DESIGN.md §3.7), which decides the links used. Not every processor
///   needs to be used.
///   Order, which decides ties (the first mapping found wins): interval ends increasing, then replica counts
///   increasing, then replica lists in lexicographic order of processor indices, depth first from S_1.
/// - Accepts: as hedpm (hedpm_refuses), when hedpm_count_mappings <= hedpm_exhaustive_limit.
/// - Method: depth first; T_j is final once I_{j+1} is chosen, and a branch whose final T_j reach the best
///   production time found is cut (it cannot be strictly better).
/// - Complexity: O(count * n p) time in the worst case.
/// - Returns: status `optimal`, the mapping and its production time; statistics "mappings" (the count) and
///   "evaluated" (complete mappings reached). When options.time_limit runs out: status `time limit` with the best
///   mapping so far.
class HedpmExhaustive : public Mapper {
public:
  explicit HedpmExhaustive(HedpmSpace space) : space_(space) {}
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override;

private:
  HedpmSpace space_;
};

/// Largest number of mappings the exhaustive mappers accept to enumerate.
inline constexpr double hedpm_exhaustive_limit = 2e7;

/// Number of mappings of n stages on p processors in `space` (replica order counted).
double hedpm_count_mappings(int n, int p, HedpmSpace space);

} // namespace pipesim

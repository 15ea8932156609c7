// Brute-force optimum of sv95's mapping problem on tiny instances: the reference of every sv95 mapper.
#pragma once

#include "mappers/mapper.hpp"
#include "model/sv95/response.hpp"

namespace pipesim {

/// Contract (mapper `sv95.exhaustive`).
/// - Source: sv95 §2.2, the mapping problem itself: every clustering of t_1..t_k into modules, every number of
///   instances r >= 1 (r = 1 for a module holding a task that is not replicable), every p >= the module's p_min
///   processors per instance, with sum r p <= P; the period max_j f_j / r_j of §2.2 with f_j of §2.1
///   (module_response, evaluated on each candidate from the model's functions, not from tables).
/// - Accepts: what sv95_refusal accepts (mappers/sv95/tables.hpp), with at most 2e7 candidate mappings (counted
///   before the search).
/// - Complexity: O(C k) for C candidates (C grows like P^(2k) / k!: k <= 4 and P <= 10 is a few hundred thousand).
/// - Returns: status `optimal` with the smallest period and, among the mappings reaching it, the fewest processors
///   (first found in the order clusterings by first module end, then r, then p); `infeasible` when no mapping has a
///   finite period (none fits, or tables do not cover the processors the modules would need); `time limit` with the
///   best mapping so far (maybe none) when options.time_limit runs out.
class Sv95Exhaustive : public Mapper {
public:
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override;
};

/// The number of candidate mappings sv95.exhaustive examines on P processors.
double sv95_exhaustive_candidates(const TaskChain& chain, int P);

} // namespace pipesim

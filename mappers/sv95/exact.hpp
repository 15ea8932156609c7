// Beyond sv95: the optimal mapping by a search on the period with a fewest-processors dynamic program as the
// decision procedure (mappers/sv95/decision.hpp); the same optimum as sv95.dp, much faster.
#pragma once

#include "mappers/mapper.hpp"

namespace pipesim {

/// Contract (mapper `sv95.exact`).
/// - Source: beyond sv95 (docs/sv95.md): the optimal period is one of the values f(p', p, q) / r; pipesim
///   searches it with Sv95Decision. The first bound is sv95.greedy's period; a lower bound comes from the execution
///   times alone (each task's module at best on all the processors it can have); then bisection (geometric while
///   the bounds are far apart), each feasible answer's own period becoming the upper bound, until the bounds are
///   within 1e-7 (relative). After every feasible bisection step, a decision just below the new upper bound (the
///   next double down) either proves it optimal or finds a better mapping.
/// - Accepts: what sv95_refusal accepts (mappers/sv95/tables.hpp), P <= 1024.
/// - Complexity: O(k^2 P^2 log F) per decision (Sv95Decision), O(k P^2) memory; about 20 to 30 decisions at P = 256
///   (at most 64 bisection steps on the doubles, plus one probe per improvement).
/// - Returns: status `optimal`: the smallest period and, among those mappings, the fewest processors (the same
///   optimum as sv95.exhaustive and sv95.dp); `infeasible` when no mapping has a finite period; `time limit` (checked
///   between decisions) with the best mapping found.
class Sv95Exact : public Mapper {
public:
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override;
};

} // namespace pipesim

// H1b-GRIL (br07 §4.1): random interval lengths (uniform in [1, 2L-1]), each on a random free processor.
#pragma once

#include "mappers/br07/heuristic.hpp"

#include <cstdint>

namespace pipesim {

/// Contract (mapper `br07.h1b-gril`).
/// - Source: br07 §4.1, heuristic H1b-GRIL "random interval length".
/// - Method: from stage 1 on, each interval's length is drawn uniformly in [1, 2L-1], L = ceil(n/p) (mean L), then
///   its processor uniformly among the free ones (as H1a-GR; Rng seeded with MapperOptions::seed, the length drawn
///   before the processor). Choices the paper leaves open: an interval whose draw runs past S_n ends at S_n (the last
///   interval is shorter); when a single free processor remains it takes every remaining stage (the last interval
///   may then be longer than 2L-1: stages must not be left unmapped); when L = 1 no length is drawn, so the draws,
///   and the mapping, are exactly those of H1a-GR with the same seed, as the paper says ("identical to H1a").
/// - Accepts: one-port, min_period, every platform class: the choices ignore costs, the objective is br07
///   eq. (2) with the real links; nothing is guaranteed beyond a valid interval mapping on any class.
/// - Complexity: O(n + p^2).
/// - Returns: status `feasible`, at most min(n, p) intervals on distinct processors; `infeasible` only when p = 0.
class Br07H1bGril : public Br07Heuristic {
public:
  MapperInfo info() const override;

protected:
  IntervalAssignment assign(const Problem& problem, const MapperOptions& options) const override;
};

/// Entry point: the H1b-GRIL assignment for this seed (precondition: p >= 1).
IntervalAssignment br07_h1b_gril(const Problem& problem, std::uint64_t seed);

} // namespace pipesim

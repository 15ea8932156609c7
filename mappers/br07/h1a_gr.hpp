// H1a-GR (br07 §4.1): the L-cut intervals, each on a processor drawn at random among the free ones.
#pragma once

#include "mappers/br07/heuristic.hpp"

#include <cstdint>

namespace pipesim {

/// Contract (mapper `br07.h1a-gr`).
/// - Source: br07 §4.1, heuristic H1a-GR "random".
/// - Method: L = ceil(n/p) consecutive stages per interval, the last one shorter (br07_greedy_intervals); for each
///   interval in stage order, a processor drawn uniformly among the free ones (Rng seeded with MapperOptions::seed;
///   one draw per interval, the free processors listed by increasing index). The same seed gives the same mapping.
/// - Accepts: one-port, min_period, every platform class: the choices ignore costs, the objective is br07
///   eq. (2) with the real links, so nothing is guaranteed beyond a valid interval mapping on any class.
/// - Complexity: O(n + p^2) (erasing from the free list).
/// - Returns: status `feasible`, ceil(n/L) intervals on distinct processors (one-to-one when n <= p); `infeasible`
///   only when p = 0.
class Br07H1aGr : public Br07Heuristic {
public:
  MapperInfo info() const override;

protected:
  IntervalAssignment assign(const Problem& problem, const MapperOptions& options) const override;
};

/// Entry point: the H1a-GR assignment for this seed (precondition: p >= 1).
IntervalAssignment br07_h1a_gr(const Problem& problem, std::uint64_t seed);

} // namespace pipesim

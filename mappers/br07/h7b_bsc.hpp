// H7b-BSC (br07 §4.2): binary search over the period, the greedy takes the interval whose period is closest.
#pragma once

#include "mappers/br07/h7_binary_search.hpp"

namespace pipesim {

/// Contract (mapper `br07.h7b-bsc`).
/// - Source: br07 §4.2, heuristic H7b-BSC "binary search (closest)".
/// - Method: br07_h7_binary_search with H7Rule::closest (its contract in mappers/br07/h7_binary_search.hpp): for a
///   period P, from stage 1 on, the interval (s, s') and unused processor whose period is closest to P (the largest
///   <= P), whatever its length; ties the longer interval, then the smaller processor index; binary search over the
///   finite sorted set of periods of every interval on every processor (exact).
/// - Accepts: one-port, min_period, every platform class. On Fully Homogeneous and Communication Homogeneous
///   platforms with equal latencies the periods are the paper's and a mapping is always found by the greedy.
///   Elsewhere (heterogeneous links, which the paper leaves open, or unequal latencies) the transfer to the next
///   processor, not chosen yet, is estimated by its mean, and checked with the real link once that processor is
///   chosen: any mapping the greedy builds has a real eq. (2) period <= P.
/// - Complexity: O(n^2 q log(n q)) time and O(n^2 q) memory for the candidates, q = number of distinct speeds on
///   link-uniform platforms and p elsewhere, plus O(log(n q)) greedy runs of O(min(n, p) n p) steps (see
///   h7_binary_search.hpp).
/// - Returns: status `feasible`; statistics "candidates", "feasibility_tests", "period_bound" (the P of the last
///   successful test) and "fallback" (1 when every test failed, only possible without uniform links: then the whole
///   pipeline on the processor with the smallest cycle-time); `infeasible` only when p = 0.
class Br07H7bBsc : public Br07Heuristic {
public:
  MapperInfo info() const override;

protected:
  IntervalAssignment assign(const Problem& problem, const MapperOptions& options) const override;
};

} // namespace pipesim

// Optimal one-to-one mapping by binary search over candidate periods with a greedy feasibility test.
#pragma once

#include "mappers/mapper.hpp"

#include <vector>

namespace pipesim {

/// Contract (mapper `br07.one-to-one`).
/// - Source: br07 §3.1, Theorem 1 and Algorithm 1 "Greedy assignment"; the period of a
///   one-to-one mapping is br07 eq. (1), evaluated by br07_interval_cycle_time / br07_eq2_period.
/// - Accepts: the one-port model, objective min_period, Fully Homogeneous and Communication Homogeneous
///   platforms (every b_{u,v} equal, P_in/P_out links included) whose link latencies c_{u,v} are all equal too
///   (the greedy assumes that every transfer costs the same). Refuses Fully Heterogeneous platforms: there
///   the problem is NP-hard (br07 §3.3, Theorem 5).
/// - Method: the optimal period is one of the values delta_{k-1}/b + w_k/s_u + delta_k/b (stage k on one of
///   the n fastest processors u), so the binary search runs over that finite sorted set instead of a real
///   interval, and its result is exact. The feasibility test is Algorithm 1: the n fastest processors, from
///   the slowest to the fastest, each take a free stage whose cycle-time fits in the period. The proof lets
///   the greedy take any such stage; this one takes the one with the largest cycle-time on that processor
///   (ties: smallest stage index), and the n fastest processors are chosen by speed, ties by smallest index.
/// - Complexity: O(p log p + n^2 log n) (n^2 candidates, O(log n) greedy runs of O(n^2)).
/// - Returns: status `optimal` with the mapping and its eq. (1) period; statistics "candidates" (distinct
///   candidate periods) and "feasibility_tests" (greedy runs). When n > p no one-to-one mapping exists: status
///   `infeasible`, an empty mapping and an infinite objective (not a refusal: the instance is well-formed,
///   it just has no solution of this kind). The time limit is not checked (the run is polynomial and short).
class Br07OneToOne : public Mapper {
public:
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override;
};

/// br07 Algorithm 1 for a given period: `processors` are the n processors retained, sorted by
/// non-decreasing speed; returns alloc (stage k at index k-1 -> processor) or an empty vector on failure.
/// (The machinery, shared with H5-BS121, is in mappers/br07/one_to_one_search.hpp.)
std::vector<int> br07_greedy_assignment(const Problem& problem, const std::vector<int>& processors, double period);

} // namespace pipesim

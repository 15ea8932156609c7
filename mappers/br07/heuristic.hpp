// Shared scaffolding of the nine br07 §4 heuristics: base mapper, the L-cut, speed order, link-cost estimates.
#pragma once

#include "mappers/mapper.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pipesim {

/// What a heuristic decides: intervals [first, last] in stage order and the processor of each.
struct IntervalAssignment {
  std::vector<std::pair<int, int>> intervals;
  std::vector<int> alloc;
  std::map<std::string, double> statistics;
};

/// Base of the nine heuristics (br07 §4). Accepts the one-port model and objective min_period on every platform
/// class (br07_heuristic_info; refuses the rest with the reason). map() returns status `feasible`, the mapping built
/// from assign() and, as objective, its br07 eq. (2) period with the real links (br07_eq2_period); the only
/// `infeasible` case is a platform without processors (no mapping exists: empty mapping, infinite objective), which
/// refuses() turns down before.
class Br07Heuristic : public Mapper {
public:
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  /// Precondition: p >= 1 and refuses(problem) is empty.
  virtual IntervalAssignment assign(const Problem& problem, const MapperOptions& options) const = 0;
};

/// What the nine heuristics are: br07, family heuristic, the period on the one-port model, every platform class,
/// interval mappings, not exact.
MapperInfo br07_heuristic_info(std::string name, std::string description, std::string complexity);

/// br07 §4.1: L = ceil(n/p) consecutive stages per interval, the last one shorter when L does not divide n,
/// hence ceil(n/L) intervals. Precondition: n >= 1, p >= 1.
std::vector<std::pair<int, int>> br07_greedy_intervals(int n, int p);

/// All processors by decreasing speed s_u (ties: smallest index first).
std::vector<int> br07_processors_by_speed(const Platform& platform);

/// H2/H3's matching: the interval with the largest key on the fastest processor, the second largest on the second
/// fastest, and so on (keys sorted by decreasing value, ties: earlier interval first; processors by
/// br07_processors_by_speed). Returns the processor of each interval. Precondition: key.size() <= p.
std::vector<int> br07_match_by_speed(const Platform& platform, const std::vector<double>& key);

/// Real br07 eq. (2) cycle-time of each interval with its actual neighbours (P_in before the first, P_out after
/// the last), through br07_interval_cycle_time.
std::vector<double> br07_cycle_times(const Problem& problem, const std::vector<std::pair<int, int>>& intervals,
                                     const std::vector<int>& alloc);

/// br07 eq. (2) cycle-time of an interval whose previous or next processor is not chosen yet (pass `unknown`).
/// On link-uniform platforms (br07_links_uniform) any processor of `neighbours` other than u stands for the unknown
/// one, so the value is exact and bit-identical to br07_interval_cycle_time with the real neighbour. Elsewhere a
/// transfer from or to an unknown neighbour costs the mean of Platform::transfer_time over the processors of
/// `neighbours` other than u (b and c included). +infinity when `neighbours` has no processor other than u.
class NeighbourCosts {
public:
  static constexpr int unknown = -1;
  NeighbourCosts(const Problem& problem, std::vector<int> neighbours);
  double cycle_time(int first, int last, int u, int prev, int next) const;
  bool uniform() const { return uniform_; }

private:
  const Problem& problem_;
  std::vector<int> neighbours_;
  bool uniform_;
  std::vector<double> mean_in_;  // [u * (n + 1) + i]: mean transfer time of delta_i from a neighbour to u
  std::vector<double> mean_out_; // [u * (n + 1) + i]: mean transfer time of delta_i from u to a neighbour
  std::vector<int> others_;      // [u]: processors of `neighbours` other than u
};

} // namespace pipesim

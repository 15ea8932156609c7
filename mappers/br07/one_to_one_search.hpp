// br07 Theorem 1 machinery shared by br07.one-to-one and H5-BS121: cost table, Algorithm 1, binary search.
#pragma once

#include "mappers/mapper.hpp"

#include <vector>

namespace pipesim {

/// True when every b_{u,v} and every c_{u,v} a mapping may use are equal (the pairs PlatformFlags::link_hom
/// looks at): Fully Homogeneous platforms and Communication Homogeneous ones with equal latencies. There the
/// br07 eq. (1)-(2) cycle-time of an interval on a processor does not depend on its neighbours' processors.
bool br07_links_uniform(const Platform& platform);

/// The `count` fastest processors sorted by non-decreasing speed (ties: smallest index first, among the ones
/// retained, which are the fastest by speed, ties by smallest index). Precondition: count <= p.
std::vector<int> br07_fastest_processors(const Platform& platform, int count);

/// Cycle-times of n stages on the retained processors, the only data Algorithm 1 and the binary search need.
struct OneToOneCosts {
  int n = 0;
  std::vector<int> processors;    // retained processors, non-decreasing speed (Algorithm 1's order)
  std::vector<double> cycle_time; // stage k (1-based) on processors[i] at (k - 1) * processors.size() + i
  double at(int k, std::size_t i) const { return cycle_time[static_cast<std::size_t>(k - 1) * processors.size() + i]; }
};

/// br07 eq. (1) cycle-time of each stage alone on each retained processor, for a link-uniform platform
/// (br07_links_uniform): stage 1 receives from P_in and stage n sends to P_out on their real links, and any other
/// retained processor stands for the neighbour elsewhere (all links and latencies are equal).
OneToOneCosts br07_one_to_one_costs(const Problem& problem, std::vector<int> processors);

/// br07 Algorithm 1 for a given period: from the slowest to the fastest retained processor, each takes the free
/// stage with the largest cycle-time that fits in the period (ties: smallest stage index). Returns alloc (stage k at
/// index k-1 -> processor) or an empty vector on failure.
std::vector<int> br07_greedy_assignment(const OneToOneCosts& costs, double period);

struct OneToOneSearch {
  std::vector<int> alloc; // stage k at index k-1 -> processor
  double period  = 0;     // the smallest candidate at which Algorithm 1 succeeds
  int candidates = 0;     // distinct candidate periods
  int tests      = 0;     // Algorithm 1 runs
};

/// br07 Theorem 1: binary search over the sorted distinct values of `costs` for the smallest period at which
/// Algorithm 1 succeeds (it always succeeds at the largest one). Exact: no tolerance. Precondition: n >= 1 and
/// n == processors.size().
OneToOneSearch br07_one_to_one_search(const OneToOneCosts& costs);

} // namespace pipesim

// H7a-BSL and H7b-BSC (br07 §4.2): binary search over the period with a left-to-right greedy feasibility test.
#pragma once

#include "mappers/br07/heuristic.hpp"

namespace pipesim {

/// Which fitting interval the greedy of H7 takes: the longest (H7a-BSL) or the one whose period is closest (H7b-BSC).
enum class H7Rule { longest, closest };

/// br07 §4.2, H7a-BSL / H7b-BSC; the contract below is shared by both mappers.
/// - Period of (s, s', u): br07 eq. (2)'s cycle-time of S_s..S_s' on P_u. Its previous processor is known (P_in
///   or the previous interval's); the next one is P_out when s' = n and otherwise not chosen yet (NeighbourCosts: any
///   other processor on link-uniform platforms, where this is the paper's exact period(s, s', u); elsewhere the mean
///   transfer to the other processors).
/// - Feasibility test for a period P (the greedy): from s = 1, every unused processor u and every s' >= s whose
///   period is <= P is a possible assignment, provided that (a) the previous interval's real cycle-time, now that its
///   next processor u is known, is <= P too, and (b) when s' < n, another unused processor remains for the rest (a
///   choice that leaves stages without processor is not possible). H7a takes the largest s', ties the period closest
///   to P (largest), then the smaller processor index; H7b the period closest to P, ties the larger s', then the
///   smaller processor index. When nothing fits, the test fails: P is infeasible for the greedy. A success builds a
///   mapping whose real eq. (2) period is <= P on every platform class, thanks to (a).
/// - Search: over the sorted distinct finite periods of every (s, s', u) (P_in / P_out for s = 1 / s' = n, the
///   unknown neighbour as above), the smallest feasible one by binary search: exact, no 1e-4 tolerance. The greedy
///   is not monotone in P (H7b especially), so the search finds a boundary, not necessarily the smallest feasible
///   candidate; the mapping returned is the best (smallest real period; ties: the one found later, at the smaller P)
///   among those the tests built. With link-uniform platforms the largest candidate is always feasible (s' = n fits
///   on any unused processor there), so a mapping is always found. Elsewhere, if every test fails, the fallback is
///   the whole pipeline on the processor with the smallest real cycle-time (statistic "fallback" = 1).
/// - Complexity: O(n^2 q) candidates (time and memory), q = number of distinct speeds on link-uniform platforms (the
///   period depends on u only through s_u there), q = p elsewhere; sorted in O(n^2 q log(n q)); O(log(n q)) tests,
///   each O(min(n, p) n p) table look-ups (link-uniform) or eq. (2) evaluations of O(n) (elsewhere; the scan of s'
///   stops as soon as the input transfer plus the computation alone exceed P).
IntervalAssignment br07_h7_binary_search(const Problem& problem, H7Rule rule);

} // namespace pipesim

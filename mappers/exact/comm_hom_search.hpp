// Exact interval mapping on Communication Homogeneous platforms: branch and bound over best-fit subsets of
// processors sorted by speed.
#pragma once

#include "mappers/exact/search.hpp"

#include <cstddef>
#include <memory>

namespace pipesim::exact {

/// Minimises the br07 eq. (2) period when every link has the same bandwidth b and latency c
/// (Fully Homogeneous or Communication Homogeneous platforms of br07 §2.2), so that the br07 eq. (2)
/// cycle-time of an interval depends on its processor only: C(d, e, u) = c + delta_{d-1}/b + W(d, e)/s_u + c +
/// delta_e/b, non-increasing in s_u.
///
/// Structure used for a bound T (see PeriodSearch; each step is exact):
/// 1. Only the q = min(n, p) fastest processors matter: moving an interval to an unused faster processor never
///    raises its cycle-time, and a mapping has at most q intervals. Ranks 0..q-1 order them by speed.
/// 2. For a period T, interval I needs a processor of rank >= level(I) (the slowest one on which it fits). The
///    intervals of a partition can be given distinct processors iff Hall's condition holds, here: for every rank t,
///    #{I : level(I) >= t} <= #{ranks >= t}.
/// 3. Best fit is exact in any order: give each interval, left to right, the slowest free processor of rank >=
///    its level. Exchange argument: if some assignment A completes the prefix, and best fit gives I the processor
///    x while A gives it y (so rank x <= rank y), then swap x and y in A: the interval that A gave x (if any) moves
///    to y, which is at least as fast, so A stays valid and now agrees with best fit on I. Hence the search only
///    branches on where the next interval ends; the processor is forced, and processors of equal speed are used in
///    a fixed order, so a state (stages done i, used ranks U) stands for a count per speed class.
/// 4. Failed states (i, U) are memorised (hash set). A state is cut when a Hall bound fails: H[t][i][k], the least
///    number of intervals of level >= t in any partition of S_{i+1}..S_n into at most k intervals, must not exceed
///    the free ranks >= t, for every t (evenly spaced ranks only, when all would cost too much), with k the number
///    of free ranks; or when the capacity bound fails: the
///    free ranks r, each taking at most one interval of work at most cap(r, i) (the most work of an interval of
///    S_{i+1}..S_n that fits r), must cover the work left.
/// Memory: O(n^2) for the levels, the Hall tables (within 2^25 entries) and the memo (FailedSets, at most 64 MiB).
/// Complexity: O(q n^2 (q + log q)) per improvement for the tables, at most (n + 1) 2^q states of O(n + q) work
/// each (exponential: the problem is NP-hard, br07 Theorem 3); in practice few states survive the bounds.
///
/// `words`: width of the sets of ranks in 64-bit words (0: the narrowest that holds q; tests force wider ones).
std::unique_ptr<PeriodSearch> make_comm_hom_search(const Problem& problem, std::size_t words = 0);

} // namespace pipesim::exact

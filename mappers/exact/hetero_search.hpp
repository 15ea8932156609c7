// Exact interval mapping on any platform (Fully Heterogeneous included): branch and bound over subsets of
// processors, with the processor of the last interval placed in the state.
#pragma once

#include "mappers/exact/search.hpp"

#include <cstddef>
#include <memory>

namespace pipesim::exact {

/// Minimises the br07 eq. (2) period on every platform class, link latencies included. On a Fully
/// Heterogeneous platform the cycle-time of I_j = [d, e] on u is t(prev, u, delta_{d-1}) + W(d, e)/s_u +
/// t(u, next, delta_e) (t(a, b, X) = c_{a,b} + X/b_{a,b}): it depends on both neighbours.
///
/// The search places intervals one after the other, from S_1 to S_n, or from S_n back to S_1 when `reversed`
/// (the mirror problem; some instances are easy one way and hard the other, so exact.interval alternates both).
/// A partial mapping is the state (stages placed i, used processors U, processor u of the last interval placed,
/// x): x is the largest transfer that u can still afford towards the next interval (its output, or its input when
/// reversed) for its cycle to stay <= T; it is computed exactly in the floating-point operations of eq. (2), so the
/// search and br07_eq2_period agree to the last bit.
///
/// Exact pruning, for a bound T (see PeriodSearch; docs/exact.md has the proofs):
/// - Dominance on x and on U: a failure of (i, U, u) with x proves failure with every x' <= x and every U' ⊇ U
///   (fewer free processors); the memo keeps, per (i, U, u), the largest x that failed, and a state also looks up
///   its sets with one used processor (other than u) removed. "More stages placed" does NOT dominate: moving a cut
///   changes the delta at both ends of the interval, so it is not used.
/// - Twins: processors with the same speed and the same links (to and from every other node, and between them)
///   are interchangeable; only the free one of lowest index of such a class is tried.
/// - Monotonicity of the work: the next interval's x shrinks as it grows, the scan stops once nothing fits.
/// - Completion bound: Need_F[i][u], the least transfer u must afford so that the rest can be placed on the free
///   processors F when they may be reused (only consecutive intervals need distinct processors), a DP over
///   (position, processor) recomputed at each state for its own F; a state with x < Need_F[i][u] is cut, and a
///   child is kept only if its x reaches Need_F at its end. Its comparisons are exact (a fast test, and eq. (2)'s
///   rounded operations when a value is within 1e-12 T of the threshold), so states whose only completions exceed
///   T by an ulp are cut: the proofs just below the optimum need that.
/// - Capacity bound: each free processor v takes at most one interval, of work at most cap(v, i) (the most work of
///   an interval of the remaining stages that fits v with its cheapest neighbours): they must cover the work left.
/// - Count bound: the remaining stages need at least k(i) intervals, at most the free processors.
/// Memory: O(n p) plus tables of transfers ((n + 1) (p + 2)^2 values) and of W/s (p n^2) when each fits in 32 MiB
/// (otherwise computed when needed), and the memo (FailedSets, at most 64 MiB).
/// Complexity: O(n p (p + L)) per state for Need_F (L: longest interval that fits), at most n 2^p p states
/// (exponential: the problem is NP-hard, br07 §3.3); O(p n^2) per improvement for the other tables.
///
/// `words`: width of the processor sets in 64-bit words (0: the narrowest that holds p; tests force wider ones).
std::unique_ptr<PeriodSearch> make_hetero_search(const Problem& problem, bool reversed, std::size_t words = 0);

} // namespace pipesim::exact

// Exact interval mapping on any platform (Fully Heterogeneous included): branch and bound over subsets of
// processors, with the processor of the last interval placed in the state.
#pragma once

#include "mappers/exact/search.hpp"

#include <cstdint>
#include <limits>
#include <vector>

namespace pipesim::exact {

/// Minimises the seed 000 eq. (2) period on every platform class, link latencies included. On a Fully
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
/// Exact pruning, for a bound T (see PeriodSearch):
/// - Dominance on x: for the same (i, U, u), a larger x leaves more room and nothing else differs, so a failure
///   with x proves failure with every x' <= x (memorised per (i, U, u)). "More stages placed" does NOT dominate:
///   moving a cut changes the delta at both ends of the interval, so it is not used.
/// - Monotonicity of the work: the next interval's x shrinks as it grows, the scan stops once nothing fits.
/// - Completion bound: Need_F[i][u], the least transfer u must afford so that the rest can be placed on the free
///   processors F when they may be reused (only consecutive intervals need distinct processors), a DP over
///   (position, processor) recomputed at each state for its own F; a state with x < Need_F[i][u] is cut, and a
///   child is kept only if its x reaches Need_F at its end.
/// - Capacity bound: each free processor v takes at most one interval, of work at most cap(v, i) (the most work of
///   an interval of the remaining stages that fits v with its cheapest neighbours): they must cover the work left.
/// - Count bound: the remaining stages need at least k(i) intervals, at most the free processors.
/// Complexity: O(n p (p + L)) per state for Need_F (L: longest interval that fits), at most n 2^p p states
/// (exponential: the problem is NP-hard, seed 000 §3.3); O(p n^2) per improvement for the other tables.
class HeteroSearch final : public PeriodSearch {
public:
  HeteroSearch(const Problem& problem, bool reversed);
  SearchOutcome minimize(double upper, const SearchLimits& limits) override;

private:
  /// A state: stages 0..i-1 of the search order placed, the last interval on u with input x_in and W/s_u = w.
  struct Node {
    int i;
    std::uint64_t used;
    int u;
    double x_in;
    double w;
    double prefix; // longest cycle-time of the intervals before u (all fixed)
    /// The largest transfer u affords towards the next interval under the current T (unbounded at the start).
    double affordable(const HeteroSearch& search) const
    {
      return i == 0 ? std::numeric_limits<double>::infinity() : search.threshold(x_in, w);
    }
  };
  struct Child {
    double tightness; // cycle with the cheapest next transfer: children closest to T are tried first
    int e;
    int v;
    double x_in; // transfer from u to v
    double w;    // W/s_v
  };
  /// Transfer across boundary k of the search order (k = 0: from the source P_in, or P_out when reversed; k = n:
  /// to the sink) from a to b in that order: t(a, b, delta_k), or t(b, a, delta_{n-k}) when reversed.
  double transfer(int a, int b, int k) const;
  double work(int i, int e) const;                         // W of the placed stages i..e (0-based, search order)
  double cycle(double x_in, double w, double x_out) const; // eq. (2), operations in eq. (2)'s order
  double threshold(double x_in, double w) const;           // largest x_out with cycle <= T
  bool stop_requested();
  void set_period(double period);
  bool bounds_ok(int i, std::uint64_t used) const;
  const double* need(int i, std::uint64_t free, int u, double x, bool& ok);
  bool expand(const Node& node, const double* need_f, std::vector<Child>& out);
  void record(int e, int v);
  Walk dfs(const Node& node);

  const Problem& problem_;
  bool reversed_     = false;
  int n_             = 0;
  int p_             = 0;
  int source_        = 0; // node index: P_in (P_out when reversed)
  int sink_          = 0;
  int size_          = 0; // number of nodes
  std::uint64_t all_ = 0;
  std::vector<double> speed_;
  std::vector<double> latency_; // a * size + b
  std::vector<double> bandwidth_;
  std::vector<double> work_;    // forward order, see interval_work_table
  std::vector<double> min_in_;  // v * n + i -> cheapest transfer into v across boundary i
  std::vector<double> min_out_; // v * n + e -> cheapest transfer out of v across boundary e + 1

  // Depend on the bound T.
  double period_      = 0;
  double memo_period_ = -1;      // failed_ holds for every T <= memo_period_
  double tolerance_   = 0;       // slack of Need_F, against the rounding of its subtractions
  std::vector<double> capacity_; // v * (n + 1) + i
  std::vector<int> min_count_;   // i -> least number of intervals for the stages i..n-1
  std::vector<double> scratch_;  // per depth: Need_F
  std::vector<double> start_;    // A_F[i][w] of the state being expanded

  FailedStates failed_;                   // key (U, i << 32 | u) -> the largest x that failed
  std::vector<std::pair<int, int>> path_; // (e, processor) of the intervals placed
  SearchOutcome best_;
  SearchLimits limits_;
  std::uint64_t node_limit_ = 0;
  DeadlinePoll poll_;
};

/// max{y : fl(a + y) <= bound}: the largest addend that keeps a rounded sum within a bound (+inf if bound is).
double max_addend(double a, double bound);

} // namespace pipesim::exact

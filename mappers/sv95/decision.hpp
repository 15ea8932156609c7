// The decision procedure of sv95.exact: the fewest processors of a sv95 mapping whose every module term
// f_j / r_j is at most a bound T (a dynamic program over module ends and processors per instance).
#pragma once

#include "mappers/sv95/tables.hpp"

#include <utility>
#include <vector>

namespace pipesim {

/// Contract.
/// - N_b(p, q): the fewest processors of a mapping of t_1..t_b into modules whose last one ends at t_b with p
///   processors per instance, the next one having q, every term <= T. A module [a, b] with sizes (p', p, q) takes
///   the fewest instances r with f(p', p, q) / r <= T (r = 1 and f <= T when it is not replicable): more instances
///   only cost processors, since the neighbours' terms depend on p, not on r. N_b(p, q) = min over a and p' of
///   N_{a-1}(p', p) + p r.
/// - Frontier: for fixed (a, b, p), a predecessor p' is kept only if no other has both a smaller N_{a-1}(p', p)
///   and a smaller receive time f_ecom(p', p); one pass over the senders sorted by receive time (sorted once, T
///   does not enter) gives the points, receive time up and N down. r grows with the receive time, so for a given
///   q the best point for each instance count is the last one reaching it: binary searches from the last point
///   down, stopped once no earlier point can win.
/// - Bounds (valid since every time is >= 0, so f >= the module's execution time E): a module [a, b] on p per
///   instance needs at least p r_min(E) processors; the cheapest clusterings of t_1..t_{a-1} and of
///   t_{b+1}..t_k under these needs, and the need of the next module on q per instance, cut the states that
///   cannot fit in P. When even these needs do not fit, T is infeasible without running the program.
/// - Complexity: O(k^2 P^2 log F) per bound for frontiers of F <= P points (and much less when the bounds cut),
///   O(k P^2) memory.
class Sv95Decision {
public:
  explicit Sv95Decision(const Sv95Tables& tables);
  /// The fewest processors, or a number > P when no mapping has every term <= T.
  int solve(double T);
  /// After a solve(T) <= P: the triplets of a mapping with that many processors, every term <= T.
  std::vector<Sv95Module> modules(double T) const;

private:
  int r_min(double f, double T) const;
  /// The frontier of a module starting at t_a on p per instance (E: its execution time) in front_.
  void build_front(int a, int p, double E);
  /// min over the frontier of N_i + p r_i, for the send time y.
  int fewest(double T, bool replicable, int p, double y) const;
  /// The lower bounds of the processors needed at bound T; false when even they do not fit in P.
  bool bounds(double T);
  void add_modules_ending_at(double T, int b);

  const Sv95Tables& t_;
  std::vector<std::vector<int>> N_;           // N_[b - 1][p * (P + 1) + q] (q = 0 for b = k)
  std::vector<std::vector<int>> by_next_;     // N_[b - 1] transposed, [q * (P + 1) + p], b < k
  std::vector<std::vector<short>> order_;     // senders by f_ecom after t_i towards p: [i - 1][p * P + rank]
  std::vector<std::pair<double, int>> front_; // (receive + exec, N) of the current (a, b, p)
  std::vector<int> need_;                     // [(a - 1) k + b - 1][p]: p r_min(E(a, b, p)), > P when none
  std::vector<int> before_;                   // [a]: the cheapest clustering of t_1..t_{a-1} under need_
  std::vector<int> after_;                    // [b]: the same for t_{b+1}..t_k
  std::vector<int> next_need_;                // [b * (P + 1) + q]: min over c of need(b + 1, c, q) + after_[c]
};

} // namespace pipesim

// Relaxations that cut HeDPM's exact search: cheapest links, processors needed, work shares (capacity).
#pragma once

#include "mappers/hedpm/hedpm.hpp"

#include <cstdint>
#include <vector>

namespace pipesim::hedpm_exact {

/// Lower bounds on what places S_{i+1}..S_n needs under a bound T, for GeneralSearch. Every transfer of the model is
/// a mean over partners (model/hedpm/production_time.hpp), hence at least the cheapest link it may use, taken here
/// with a relative margin of 1e-12 so that the rounding of a mean never falls below it; comparisons with T allow a
/// relative slack of 1e-9: a bound may only be weaker, never cut a feasible state.
/// - need(i): processors needed at least, relaxing "distinct processors" (an interval may reuse any processor, with
///   the cheapest links): interval [d, e] needs the least R with the R-th smallest t(u) <= R T, and need(i) is the
///   least sum over a partition of S_{i+1}..S_n (a DP over positions).
/// - cap(u, i): the most work share u can take among S_{i+1}..S_n. A replica among R of interval [d, e] fits only if
///   t(u) <= R T, so R >= ceil(t(u) / T) and its share W / R <= W / ceil(t(u) / T) (W itself on one replica). Each
///   processor holds one share, the shares of an interval add up to its W: the free processors' caps must cover the
///   work left (exact.interval's capacity bound, docs/exact.md, extended to replicas).
/// Complexity: O(p n^2 log p) for need, O(p n^2) for the caps, each time T changes.
class CompletionBounds {
public:
  CompletionBounds(const Problem& problem, HedpmSpace space);
  /// Tables for the bound T.
  void set_bound(double bound);
  int need(int i) const { return need_[static_cast<std::size_t>(i)]; }
  double cap(int u, int i) const { return cap_[at(u, i)]; }
  /// Sum of the caps of the processors not in `used`, with the slack.
  double free_capacity(std::uint64_t used, int i) const;
  /// The least transfer of delta_e from u to another processor (with the margin).
  double cheapest(int u, int e) const { return cheapest_[at(u, e)]; }
  /// W(i + 1, e), summed as Pipeline::work does.
  double work(int i, int e) const
  {
    return work_[static_cast<std::size_t>(i) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(e - 1)];
  }

private:
  std::size_t at(int u, int i) const { return static_cast<std::size_t>(u * (n_ + 1) + i); }
  double least_time(int u, int d, int e) const; // t(u) of [d, e] with the cheapest links
  void build_need();
  void build_caps();

  const Problem& problem_;
  HedpmSpace space_;
  int n_        = 0;
  int p_        = 0;
  double limit_ = 0;              // T with the slack
  std::vector<double> work_;      // exact::interval_work_table
  std::vector<double> cheapest_;  // (u, e): least transfer of delta_e from u to another processor
  std::vector<double> least_in_;  // (u, i): least transfer of delta_i into u (from P_in when i = 0)
  std::vector<double> least_out_; // (u, e): least transfer of delta_e out of u (to P_out when e = n)
  std::vector<int> need_;
  std::vector<double> cap_;
};

/// Relative slack of the bounds' comparisons with T (see CompletionBounds).
inline constexpr double bound_slack = 1e-9;
/// Relative margin below the cheapest link (see CompletionBounds).
inline constexpr double mean_margin = 1e-12;

} // namespace pipesim::hedpm_exact

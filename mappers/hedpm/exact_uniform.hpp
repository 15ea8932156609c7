// HeDPM's exact optimum when every link is equal: best fit over processors sorted by speed, state (stages, used set).
#pragma once

#include "mappers/hedpm/exact_search.hpp"

namespace pipesim::hedpm_exact {

/// Minimises HeDPM's production time when every link a mapping may use has the same bandwidth and set-up time
/// (uniform_links: Fully or Communication Homogeneous with equal latencies, P_in and P_out included; hedpm §5's
/// random platforms). Then every transfer of delta_i costs the same x_i = c + delta_i / b, and so does every mean of
/// them (hedpm_mean is exact on equal values), so t(u) of a replica of I = [d, e] is (x_{d-1} + W / s_u) + x_e,
/// whatever the neighbours and the replica order, non-increasing in s_u; T_I = t(slowest replica) / R.
///
/// For a bound T, interval I with R replicas needs R processors of rank >= level(I, R) (ranks by increasing speed;
/// the slowest rank on which t / R <= T). Such demands have nested candidate sets, so best fit is exact in any order
/// (the exchange argument of exact::CommHomSearch, docs/exact.md, applied to each of the R units): give each
/// interval the R slowest free ranks >= its level. The search branches on the end of the next interval and its
/// replica count; the processors are forced, and a state is (stages placed i, used ranks U). Failed states are
/// memorised (valid as T drops); a state is cut when the work left exceeds T times the free speeds (an interval on
/// a set S of R replicas has W <= R T min_S s <= T sum_S s).
/// Complexity: at most (n + 1) 2^p states of O(n p log p) work each (p <= 64); in practice far fewer.
class UniformSearch final : public Search {
public:
  UniformSearch(const Problem& problem, HedpmSpace space);
  Outcome minimize(double upper, const Deadline& deadline) override;

private:
  double time(int rank, int i, int e, int replicas) const; // T of S_{i+1}..S_e, slowest replica of rank `rank`
  double free_speed(std::uint64_t used) const;
  /// The R slowest free ranks on which S_{i+1}..S_e fits under the bound, and the slowest of them; {0, -1} if none.
  std::pair<std::uint64_t, int> best_fit(int i, int e, std::uint64_t used, int replicas) const;
  exact::Walk dfs(int i, std::uint64_t used, double fixed);
  exact::Walk place(int i, int e, std::uint64_t used, std::uint64_t chosen, int slowest, int replicas, double fixed);

  const Problem& problem_;
  HedpmSpace space_;
  int n_ = 0;
  int p_ = 0;
  std::vector<int> processor_;   // rank -> processor index, by increasing speed (then index)
  std::vector<double> speed_;    // rank -> s_u
  std::vector<double> transfer_; // i -> c + delta_i / b, the cost of every transfer of delta_i
  std::vector<double> work_;     // exact::interval_work_table
  double bound_ = 0;             // T: mappings with every T_j <= bound_ are searched
  exact::FailedStates failed_;
  Path path_;
  Outcome best_;
  DeadlinePoll poll_;
  const Deadline* deadline_ = nullptr;
};

} // namespace pipesim::hedpm_exact

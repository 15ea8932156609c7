#include "mappers/bbr10/bct.hpp"

#include <algorithm>
#include <optional>
#include <utility>

namespace pipesim {

namespace {

/// The paper's test: branch and bound on the worst-case terms (an upper bound of the cycle-time in any election).
int most_critical_all_alive(SubsetState& state, int k)
{
  std::vector<std::pair<double, int>> candidates; // (-bound, u): by decreasing bound, then increasing index
  for (int u : state.unused())
    if (auto bound = state.cycle_time_bound(u, k)) candidates.emplace_back(-*bound * (1 + 1e-12), u);
  std::sort(candidates.begin(), candidates.end());
  int best          = -1;
  double best_cycle = 0;
  for (auto [minus_bound, u] : candidates) {
    if (best >= 0 && (-minus_bound < best_cycle || (-minus_bound == best_cycle && u > best))) break;
    std::optional<double> cycle = state.fitting_cycle_time(u, k);
    if (cycle && (best < 0 || *cycle > best_cycle || (*cycle == best_cycle && u < best))) {
      best       = u;
      best_cycle = *cycle;
    }
  }
  return best;
}

} // namespace

int bbr10_most_critical_processor(SubsetState& state, int k)
{
  if (state.period_test() == PeriodTest::all_alive_best_election) return most_critical_all_alive(state, k);
  int best          = -1;
  double best_cycle = 0;
  for (int u : state.unused()) {
    std::optional<double> cycle = state.fitting_cycle_time(u, k);
    if (cycle && (best < 0 || *cycle > best_cycle)) {
      best       = u;
      best_cycle = *cycle;
    }
  }
  return best;
}

void bbr10_bct(SubsetState& state, SubsetOrder order, bool intervals)
{
  std::vector<int> subsets = bbr10_subset_order(state, order);
  int p = state.problem().platform.p(), l = static_cast<int>(subsets.size());
  for (int round = 0; round < (p + l - 1) / l; ++round)
    for (int k : subsets)
      if (int u = bbr10_most_critical_processor(state, k); u >= 0) state.add(u, k);
  bbr10_give_unused_processors(state);
  bbr10_fusion(state, intervals);
}

} // namespace pipesim

#include "mappers/bbr10/bct.hpp"

namespace pipesim {

int bbr10_most_critical_processor(SubsetState& state, int k)
{
  int best          = -1;
  double best_cycle = 0;
  for (int u : state.unused()) {
    if (!state.fits(u, k)) continue;
    double cycle = state.cycle_time_with(u, k);
    if (best < 0 || cycle > best_cycle) {
      best       = u;
      best_cycle = cycle;
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

#include "mappers/bbr10/small.hpp"

namespace pipesim {

void bbr10_small(SubsetState& state, Rng& rng, bool intervals)
{
  for (int k : state.live_subsets()) {
    std::vector<int> candidates = state.unused();
    for (std::size_t i = candidates.size(); i > 1; --i) // uniform order (Fisher-Yates): the first fit is uniform
      std::swap(candidates[i - 1], candidates[static_cast<std::size_t>(rng.integer(0, static_cast<long long>(i) - 1))]);
    for (int u : candidates)
      if (state.fits(u, k)) {
        state.add(u, k);
        break;
      }
  }
  bbr10_give_unused_processors(state);
  bbr10_fusion(state, intervals);
}

} // namespace pipesim

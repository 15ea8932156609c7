#include "mappers/bbr10/snake.hpp"

#include <algorithm>

namespace pipesim {

void bbr10_snake(SubsetState& state, SubsetOrder order, bool intervals)
{
  std::vector<int> list    = bbr10_processors_by_reliability(state.problem().platform);
  std::vector<int> subsets = bbr10_subset_order(state, order);
  int p = state.problem().platform.p(), l = static_cast<int>(subsets.size());
  for (int round = 0; round < (p + l - 1) / l; ++round) {
    for (int k : subsets)
      for (auto it = list.begin(); it != list.end(); ++it)
        if (state.fits(*it, k)) {
          state.add(*it, k);
          list.erase(it);
          break;
        }
    std::reverse(list.begin(), list.end());
  }
  bbr10_give_unused_processors(state);
  bbr10_fusion(state, intervals);
}

} // namespace pipesim

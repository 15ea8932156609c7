#include "mappers/bbr10/bal.hpp"

#include "mappers/bbr10/bct.hpp"

#include <cmath>

namespace pipesim {

void bbr10_bal(SubsetState& state, SubsetOrder order, bool intervals)
{
  std::vector<int> subsets = bbr10_subset_order(state, order);
  double all               = 1;
  for (const Processor& processor : state.problem().platform.processors())
    all *= processor.failure_probability;
  double target = std::pow(all, 1.0 / static_cast<double>(subsets.size()));
  for (int k : subsets)
    for (double product = 1; product > target;) {
      int u = bbr10_most_critical_processor(state, k);
      if (u < 0) break;
      state.add(u, k);
      product *= state.problem().platform.processor(u).failure_probability;
    }
  bbr10_give_unused_processors(state);
  bbr10_fusion(state, intervals);
}

} // namespace pipesim

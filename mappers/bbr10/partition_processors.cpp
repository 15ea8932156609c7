#include "mappers/bbr10/partition_processors.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pipesim {

SubsetState bbr10_partition_processors(const Problem& problem, StageOrder order, int q, PeriodTest test,
                                       std::uint64_t seed)
{
  const Platform& platform = problem.platform;
  const Pipeline& pipeline = problem.pipeline;
  std::vector<int> processors(static_cast<std::size_t>(platform.p()));
  std::iota(processors.begin(), processors.end(), 0);
  std::stable_sort(processors.begin(), processors.end(),
                   [&](int a, int b) { return platform.speed(a) > platform.speed(b); });
  double all = 1;
  for (const Processor& processor : platform.processors())
    all *= processor.failure_probability;
  double target = std::pow(all, 1.0 / q);

  SubsetState state(problem, problem.objective.period_bound, test, seed);
  state.set_partition(std::vector<int>(static_cast<std::size_t>(pipeline.n()) + 1, -1), q);
  std::size_t next = 0;
  for (int r = 0; r < q; ++r)
    for (double product = 1; next < processors.size() && (state.processors(r).empty() || product > target);) {
      int u = processors[next++];
      state.add(u, r);
      product *= platform.processor(u).failure_probability;
    }

  std::vector<int> stages(static_cast<std::size_t>(pipeline.n()));
  std::iota(stages.begin(), stages.end(), 1);
  std::stable_sort(stages.begin(), stages.end(), [&](int a, int b) {
    return order == StageOrder::output_data ? pipeline.data(a) > pipeline.data(b) : pipeline.work(a) > pipeline.work(b);
  });
  double limit = problem.objective.period_bound * (1 + 1e-12);
  for (int i : stages) {
    int best           = -1;
    double best_period = 0;
    for (int r = 0; r < q; ++r) {
      if (state.processors(r).empty()) continue;
      state.set_stage(i, r);
      double period = state.period();
      if (period <= limit && (best < 0 || period < best_period)) {
        best        = r;
        best_period = period;
      }
    }
    state.set_stage(i, best);
  }
  for (int r = 0; r < q; ++r)
    if (state.stages(r).empty())
      for (int u : std::vector<int>(state.processors(r)))
        state.remove(u);
  bbr10_give_unused_processors(state);
  bbr10_fusion(state, false);
  return state;
}

} // namespace pipesim

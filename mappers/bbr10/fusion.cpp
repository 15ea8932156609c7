#include "mappers/bbr10/fusion.hpp"

#include <algorithm>
#include <numeric>

namespace pipesim {

std::vector<int> bbr10_processors_by_reliability(const Platform& platform)
{
  std::vector<int> order(static_cast<std::size_t>(platform.p()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return platform.processor(a).failure_probability < platform.processor(b).failure_probability;
  });
  return order;
}

std::vector<int> bbr10_subset_order(const SubsetState& state, SubsetOrder order)
{
  std::vector<int> subsets = state.live_subsets();
  std::vector<double> key(static_cast<std::size_t>(state.subsets()), 0.0);
  for (int k : subsets)
    key[static_cast<std::size_t>(k)] = order == SubsetOrder::output_data ? state.output_data(k) : state.work(k);
  std::stable_sort(subsets.begin(), subsets.end(),
                   [&](int a, int b) { return key[static_cast<std::size_t>(a)] > key[static_cast<std::size_t>(b)]; });
  return subsets;
}

namespace {

std::vector<int> by_decreasing_failure(const SubsetState& state)
{
  std::vector<int> subsets = state.live_subsets();
  std::vector<double> failure(static_cast<std::size_t>(state.subsets()), 0.0);
  for (int k : subsets)
    failure[static_cast<std::size_t>(k)] = state.subset_failure(k);
  std::stable_sort(subsets.begin(), subsets.end(), [&](int a, int b) {
    return failure[static_cast<std::size_t>(a)] > failure[static_cast<std::size_t>(b)];
  });
  return subsets;
}

bool adjacent(const SubsetState& state, int k, int other)
{
  for (int i : state.stages(k))
    for (int j : state.stages(other))
      if (i - j == 1 || j - i == 1) return true;
  return false;
}

} // namespace

void bbr10_give_unused_processors(SubsetState& state)
{
  for (int u : bbr10_processors_by_reliability(state.problem().platform)) {
    if (state.used(u)) continue;
    for (int k : by_decreasing_failure(state))
      if (state.fits(u, k)) {
        state.add(u, k);
        break;
      }
  }
}

void bbr10_fusion(SubsetState& state, bool intervals)
{
  const std::vector<int> reliable = bbr10_processors_by_reliability(state.problem().platform);
  for (bool improved = true; improved && state.live_subsets().size() >= 2;) {
    improved = false;
    int k    = by_decreasing_failure(state).front();
    for (int other : state.live_subsets()) {
      if (other == k || (intervals && !adjacent(state, k, other))) continue;
      SubsetState fused = state;
      for (int u : std::vector<int>(fused.processors(k)))
        fused.remove(u);
      fused.merge_stages(k, other);
      for (int u : reliable)
        if (!fused.used(u) && fused.fits(u, k)) fused.add(u, k);
      if (fused.failure_probability() < state.failure_probability()) {
        state    = std::move(fused);
        improved = true;
        break;
      }
    }
  }
  bbr10_give_unused_processors(state);
}

} // namespace pipesim

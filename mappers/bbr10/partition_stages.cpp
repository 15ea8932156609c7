#include "mappers/bbr10/partition_stages.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pipesim {

namespace {

// Renumbers subsets 0.. in order of their first stage and drops the empty ones.
std::vector<int> normalised(std::vector<int> subset_of_stage)
{
  std::vector<int> renumber;
  std::vector<int> seen;
  for (std::size_t i = 1; i < subset_of_stage.size(); ++i) {
    int k   = subset_of_stage[i];
    auto it = std::find(seen.begin(), seen.end(), k);
    if (it == seen.end()) {
      seen.push_back(k);
      subset_of_stage[i] = static_cast<int>(seen.size()) - 1;
    } else
      subset_of_stage[i] = static_cast<int>(it - seen.begin());
  }
  subset_of_stage[0] = -1;
  return subset_of_stage;
}

std::vector<int> from_cuts(int n, std::vector<int> cuts) // interval k ends after cuts[k]
{
  std::sort(cuts.begin(), cuts.end());
  std::vector<int> subset(static_cast<std::size_t>(n) + 1, -1);
  int k = 0;
  for (int i = 1; i <= n; ++i) {
    subset[static_cast<std::size_t>(i)] = k;
    if (k < static_cast<int>(cuts.size()) && cuts[static_cast<std::size_t>(k)] == i) ++k;
  }
  return subset;
}

std::vector<int> stages_by(const Pipeline& pipeline, bool increasing_delta)
{
  std::vector<int> order(static_cast<std::size_t>(pipeline.n()));
  std::iota(order.begin(), order.end(), 1);
  if (increasing_delta)
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return pipeline.data(a) < pipeline.data(b); });
  else
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return pipeline.work(a) > pipeline.work(b); });
  return order;
}

double output_data(const Pipeline& pipeline, const std::vector<int>& subset, int k)
{
  double sum = 0;
  int n      = pipeline.n();
  for (int i = 1; i <= n; ++i)
    if (subset[static_cast<std::size_t>(i)] == k && (i == n || subset[static_cast<std::size_t>(i) + 1] != k))
      sum += pipeline.data(i);
  return sum;
}

std::vector<int> communication(const Pipeline& pipeline, int l, bool intervals)
{
  int n = pipeline.n();
  if (intervals) {
    std::vector<int> candidates(static_cast<std::size_t>(n - 1));
    std::iota(candidates.begin(), candidates.end(), 1);
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](int a, int b) { return pipeline.data(a) < pipeline.data(b); });
    candidates.resize(static_cast<std::size_t>(l - 1));
    return from_cuts(n, candidates);
  }
  std::vector<int> subset(static_cast<std::size_t>(n) + 1, -1);
  std::vector<double> load(static_cast<std::size_t>(l), 0.0);
  for (int i : stages_by(pipeline, true)) {
    int best          = 0;
    double best_value = 0;
    for (int k = 0; k < l; ++k) {
      subset[static_cast<std::size_t>(i)] = k;
      double value = std::max(load[static_cast<std::size_t>(k)] + pipeline.work(i), output_data(pipeline, subset, k));
      if (k == 0 || value < best_value) {
        best       = k;
        best_value = value;
      }
    }
    subset[static_cast<std::size_t>(i)] = best;
    load[static_cast<std::size_t>(best)] += pipeline.work(i);
  }
  return subset;
}

std::vector<int> computation(const Pipeline& pipeline, int l, bool intervals)
{
  int n = pipeline.n();
  if (intervals) {
    std::vector<double> prefix(static_cast<std::size_t>(n) + 1, 0.0);
    for (int i = 1; i <= n; ++i)
      prefix[static_cast<std::size_t>(i)] = prefix[static_cast<std::size_t>(i) - 1] + pipeline.work(i);
    std::vector<int> cuts;
    int previous = 0;
    for (int k = 1; k < l; ++k) {
      double target = prefix[static_cast<std::size_t>(n)] * k / l;
      int best      = previous + 1;
      for (int c = previous + 1; c <= n - (l - k); ++c)
        if (std::abs(prefix[static_cast<std::size_t>(c)] - target) <
            std::abs(prefix[static_cast<std::size_t>(best)] - target))
          best = c;
      cuts.push_back(best);
      previous = best;
    }
    return from_cuts(n, cuts);
  }
  std::vector<int> subset(static_cast<std::size_t>(n) + 1, -1);
  std::vector<double> load(static_cast<std::size_t>(l), 0.0);
  for (int i : stages_by(pipeline, false)) {
    auto k = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    subset[static_cast<std::size_t>(i)] = static_cast<int>(k);
    load[k] += pipeline.work(i);
  }
  return subset;
}

std::vector<int> random(const Pipeline& pipeline, int l, bool intervals, Rng& rng)
{
  int n = pipeline.n();
  // a uniform permutation of `items` (Fisher-Yates), of which the first `count` are used
  auto shuffle = [&rng](std::vector<int>& items) {
    for (std::size_t i = items.size(); i > 1; --i)
      std::swap(items[i - 1], items[static_cast<std::size_t>(rng.integer(0, static_cast<long long>(i) - 1))]);
  };
  if (intervals) {
    std::vector<int> cuts(static_cast<std::size_t>(n - 1));
    std::iota(cuts.begin(), cuts.end(), 1);
    shuffle(cuts);
    cuts.resize(static_cast<std::size_t>(l - 1));
    return from_cuts(n, cuts);
  }
  std::vector<int> stages(static_cast<std::size_t>(n));
  std::iota(stages.begin(), stages.end(), 1);
  shuffle(stages);
  std::vector<int> subset(static_cast<std::size_t>(n) + 1, -1);
  for (std::size_t t = 0; t < stages.size(); ++t)
    subset[static_cast<std::size_t>(stages[t])] = static_cast<int>(t % static_cast<std::size_t>(l));
  return subset;
}

} // namespace

std::vector<int> bbr10_partition_stages(StagePartition partition, const Pipeline& pipeline, int l, bool intervals,
                                        Rng& rng)
{
  l = std::clamp(l, 1, pipeline.n());
  switch (partition) {
  case StagePartition::communication:
    return normalised(communication(pipeline, l, intervals));
  case StagePartition::computation:
    return normalised(computation(pipeline, l, intervals));
  case StagePartition::random:
    return normalised(random(pipeline, l, intervals, rng));
  }
  return {};
}

int bbr10_subset_count(const std::vector<int>& subset_of_stage)
{
  return subset_of_stage.empty() ? 0 : *std::max_element(subset_of_stage.begin(), subset_of_stage.end()) + 1;
}

} // namespace pipesim

// Interchangeable processors ("twins") of a platform.
#include "mappers/exact/twins.hpp"

#include <algorithm>
#include <numeric>

namespace pipesim::exact {

namespace {
bool same_link(const Platform& platform, int a, int b, int c, int d)
{
  return platform.bandwidth(a, b) == platform.bandwidth(c, d) && platform.latency(a, b) == platform.latency(c, d);
}

bool twins(const Platform& platform, int u, int v)
{
  if (platform.speed(u) != platform.speed(v) || not same_link(platform, u, v, v, u)) return false;
  for (int z = 0; z < platform.nodes(); ++z)
    if (z != u && z != v && (not same_link(platform, u, z, v, z) || not same_link(platform, z, u, z, v))) return false;
  return true;
}
} // namespace

std::vector<int> previous_twins(const Platform& platform)
{
  int p = platform.p();
  std::vector<int> previous(static_cast<std::size_t>(p), -1);
  std::vector<int> order(static_cast<std::size_t>(p)); // by speed, so that only equal speeds are compared
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return platform.speed(a) < platform.speed(b); });
  for (std::size_t k = 0; k < order.size(); ++k)
    for (std::size_t j = k; j-- > 0 && platform.speed(order[j]) == platform.speed(order[k]);) {
      int u = std::min(order[j], order[k]);
      int v = std::max(order[j], order[k]);
      if (previous[static_cast<std::size_t>(v)] < u && twins(platform, u, v)) previous[static_cast<std::size_t>(v)] = u;
    }
  return previous;
}

} // namespace pipesim::exact

// Seeded random instances for the tests of the exact interval mappers.
#include "mappers/exact/interval_fixtures.hpp"

#include "base/random.hpp"
#include "platforms/platform_json.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace pipesim::fixtures {

const char* to_string(LinkKind kind)
{
  switch (kind) {
  case LinkKind::fully_homogeneous:
    return "fully homogeneous";
  case LinkKind::communication_homogeneous:
    return "communication homogeneous";
  case LinkKind::mixed_latencies:
    return "communication homogeneous with per-pair latencies";
  case LinkKind::fully_heterogeneous:
    return "fully heterogeneous";
  }
  return "?";
}

Platform uniform_platform(const std::vector<double>& speeds, double b, double c)
{
  std::vector<Processor> processors(speeds.size());
  for (std::size_t u = 0; u < speeds.size(); ++u) {
    processors[u].name  = "P" + std::to_string(u + 1);
    processors[u].speed = speeds[u];
  }
  return Platform(processors, "in", "out", b, c);
}

Problem tiny_instance(std::uint64_t seed, LinkKind kind, bool latencies, int max_n, int max_p)
{
  Rng rng(seed);
  Problem problem;
  auto n = static_cast<int>(rng.integer(1, max_n));
  auto p = static_cast<int>(rng.integer(1, max_p));
  for (int i = 0; i < n; ++i)
    problem.pipeline.w.push_back(rng.integer(0, 9) == 0 ? 0.0 : static_cast<double>(rng.integer(1, 20)));
  for (int i = 0; i <= n; ++i)
    problem.pipeline.delta.push_back(static_cast<double>(rng.integer(0, 100)));
  std::vector<double> speeds;
  double shared = rng.uniform(1, 20);
  for (int u = 0; u < p; ++u) {
    if (kind == LinkKind::fully_homogeneous)
      speeds.push_back(shared);
    else
      speeds.push_back(seed % 2 == 1 ? static_cast<double>(rng.integer(1, 4)) : rng.uniform(1, 20));
  }
  problem.platform = uniform_platform(speeds, 10.0, latencies ? 0.25 : 0.0);
  if (kind == LinkKind::mixed_latencies || kind == LinkKind::fully_heterogeneous) {
    const Platform& platform = problem.platform;
    for (int u = 0; u < platform.nodes(); ++u)
      for (int v = 0; v < platform.nodes(); ++v) {
        if (u == v) continue;
        double b = kind == LinkKind::fully_heterogeneous ? rng.uniform(1, 10) : 10.0;
        double c = kind == LinkKind::mixed_latencies || latencies ? rng.uniform(0, 0.1) : 0.0;
        problem.platform.set_link(u, v, b, c);
      }
  }
  return problem;
}

std::string describe(std::uint64_t seed, const Problem& problem)
{
  return fmt::format("seed {}: w = [{}], delta = [{}], platform = {}", seed, fmt::join(problem.pipeline.w, ", "),
                     fmt::join(problem.pipeline.delta, ", "), platform_to_json(problem.platform).dump());
}

} // namespace pipesim::fixtures

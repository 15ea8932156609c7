// Instances for the tests of the HeDPM mappers.
#include "mappers/hedpm/hedpm_fixtures.hpp"

#include "base/random.hpp"

namespace pipesim::fixtures {

namespace {

Platform platform_with_speeds(const std::vector<double>& speeds, double b, double c)
{
  std::vector<Processor> processors(speeds.size());
  for (std::size_t u = 0; u < speeds.size(); ++u) {
    processors[u].name  = "P" + std::to_string(u + 1);
    processors[u].speed = speeds[u];
  }
  return Platform(processors, "in", "out", b, c);
}

/// Links touching processor 0 (P1) get bandwidth 5 and set-up time 0.2, the others 10 and 0.1.
void slow_first_processor(Platform& platform)
{
  for (int u = 0; u < platform.nodes(); ++u)
    for (int v = 0; v < platform.nodes(); ++v)
      if (u != v) {
        bool slow = u == 0 || v == 0;
        platform.set_link(u, v, slow ? 5.0 : 10.0, slow ? 0.2 : 0.1);
      }
}

} // namespace

Problem hedpm_case_study()
{
  Problem problem;
  problem.pipeline.w     = {6.01, 1.32, 2.53, 4.04, 20.35, 28.16, 19.17, 12.88};
  problem.pipeline.delta = std::vector<double>(9, 10.0);
  problem.platform       = platform_with_speeds({27.41, 1.02, 20.03, 23.34, 1.05, 19.76, 15.57, 14.18}, 10.0, 0.1);
  slow_first_processor(problem.platform);
  return problem;
}

const char* to_string(HedpmLinks links)
{
  switch (links) {
  case HedpmLinks::uniform:
    return "uniform links";
  case HedpmLinks::uniform_latency:
    return "uniform links with set-up time 0.1";
  case HedpmLinks::slow_processor:
    return "P1's links slow (case study)";
  case HedpmLinks::fully_heterogeneous:
    return "fully heterogeneous links";
  }
  return "?";
}

Problem hedpm_tiny_instance(std::uint64_t seed, HedpmLinks links, int max_n, int max_p)
{
  Rng rng(seed);
  Problem problem;
  auto n      = static_cast<int>(rng.integer(1, max_n));
  auto p      = static_cast<int>(rng.integer(1, max_p));
  Range load  = Range::normal(10, 5);
  Range bytes = seed % 2 == 0 ? Range::normal(1, 0.5) : Range::normal(10, 5);
  for (int i = 0; i < n; ++i)
    problem.pipeline.w.push_back(load.draw(rng));
  for (int i = 0; i <= n; ++i)
    problem.pipeline.delta.push_back(bytes.draw(rng));
  std::vector<double> speeds;
  for (int u = 0; u < p; ++u)
    speeds.push_back(load.draw(rng));
  problem.platform = platform_with_speeds(speeds, 10.0, links == HedpmLinks::uniform_latency ? 0.1 : 0.0);
  if (links == HedpmLinks::slow_processor) slow_first_processor(problem.platform);
  if (links == HedpmLinks::fully_heterogeneous)
    for (int u = 0; u < problem.platform.nodes(); ++u)
      for (int v = 0; v < problem.platform.nodes(); ++v)
        if (u != v) problem.platform.set_link(u, v, rng.uniform(1, 20), rng.uniform(0, 0.2));
  return problem;
}

} // namespace pipesim::fixtures

// Test fixtures of the br07 §4 heuristics: small platforms, seeded tiny instances and their description.
#include "mappers/br07/heuristic_fixtures.hpp"

#include "base/random.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace pipesim::heuristic_fixtures {

Platform make_platform(const std::vector<double>& speeds, double b, double c)
{
  std::vector<Processor> processors(speeds.size());
  for (std::size_t u = 0; u < speeds.size(); ++u) {
    processors[u].name  = "P" + std::to_string(u);
    processors[u].speed = speeds[u];
  }
  return Platform(processors, "in", "out", b, c);
}

Problem make_problem(std::vector<double> w, std::vector<double> delta, Platform platform)
{
  Problem problem;
  problem.pipeline = Pipeline{std::move(w), std::move(delta)};
  problem.platform = std::move(platform);
  return problem;
}

Problem random_instance(std::uint64_t seed, bool heterogeneous_links)
{
  Rng rng(seed);
  auto n = static_cast<int>(rng.integer(1, 6));
  auto p = static_cast<int>(rng.integer(1, 6));
  std::vector<double> speeds, w, delta;
  for (int u = 0; u < p; ++u)
    speeds.push_back(static_cast<double>(rng.integer(1, 20)));
  for (int i = 0; i < n; ++i)
    w.push_back(static_cast<double>(rng.integer(1, 20)));
  for (int i = 0; i <= n; ++i)
    delta.push_back(static_cast<double>(rng.integer(1, 100)));
  bool latencies    = seed % 3 == 0;
  Platform platform = make_platform(speeds, 10.0, latencies && not heterogeneous_links ? 0.25 : 0.0);
  if (heterogeneous_links)
    for (int u = 0; u < platform.nodes(); ++u)
      for (int v = 0; v < platform.nodes(); ++v)
        if (u != v)
          platform.set_link(u, v, static_cast<double>(rng.integer(1, 20)), latencies ? rng.uniform(0, 0.5) : 0.0);
  return make_problem(std::move(w), std::move(delta), std::move(platform));
}

std::string describe(std::uint64_t seed, const Problem& problem)
{
  const Platform& platform = problem.platform;
  std::vector<double> speeds;
  for (const Processor& proc : platform.processors())
    speeds.push_back(proc.speed);
  std::string text =
      fmt::format("seed {} ({}): n = {}, p = {}, s = [{}], w = [{}], delta = [{}]\n  links b/c (row = "
                  "from, P0..P{}, in, out):",
                  seed, to_string(platform.classify()), problem.pipeline.n(), platform.p(), fmt::join(speeds, ", "),
                  fmt::join(problem.pipeline.w, ", "), fmt::join(problem.pipeline.delta, ", "), platform.p() - 1);
  for (int u = 0; u < platform.nodes(); ++u) {
    text += "\n   ";
    for (int v = 0; v < platform.nodes(); ++v)
      text += u == v ? " -" : fmt::format(" {}/{}", platform.bandwidth(u, v), platform.latency(u, v));
  }
  return text;
}

std::vector<std::pair<int, int>> intervals_of(const Mapping& mapping)
{
  std::vector<std::pair<int, int>> result;
  for (const Interval& in : mapping.intervals)
    result.emplace_back(in.first, in.last);
  return result;
}

std::vector<int> processors_of(const Mapping& mapping)
{
  std::vector<int> result;
  for (const Interval& in : mapping.intervals)
    result.push_back(in.replicas.at(0).at(0));
  return result;
}

} // namespace pipesim::heuristic_fixtures

#include "mappers/bbr10/reliability_fixtures.hpp"

#include "model/test_fixtures.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace pipesim::fixtures {

Problem reliability_problem(Pipeline pipeline, Platform platform, double period_bound)
{
  Problem problem;
  problem.pipeline  = std::move(pipeline);
  problem.platform  = std::move(platform);
  problem.model     = CommModel::multi_port;
  problem.objective = Objective{Objective::Kind::min_failure_probability, period_bound};
  return problem;
}

Problem two_stage_problem(double period_bound, std::vector<double> speeds)
{
  std::vector<Processor> procs;
  for (std::size_t u = 0; u < speeds.size(); ++u)
    procs.push_back(Processor{fmt::format("P{}", u + 1), speeds[u], 0.1 * static_cast<double>(u + 1)});
  return reliability_problem(Pipeline{{2, 2}, {1, 1, 1}}, Platform(procs, "in", "out", 1000, 0), period_bound);
}

Problem section2_problem(double period_bound)
{
  Bbr10Section2 ex;
  return reliability_problem(ex.pipeline, ex.platform, period_bound);
}

Problem split_senders_problem(double f)
{
  std::vector<Processor> procs;
  for (int u = 1; u <= 8; ++u)
    procs.push_back(Processor{fmt::format("P{}", u), 10, f, 100, 4});
  return reliability_problem(Pipeline{{4, 8, 4}, {1, 1, 1, 3}}, Platform(procs, "in", "out", 100, 0), 1.0);
}

Problem random_reliability_problem(Rng& rng, int n, int p)
{
  Pipeline pipeline;
  for (int i = 0; i < n; ++i)
    pipeline.w.push_back(rng.uniform(1, 100));
  for (int i = 0; i <= n; ++i)
    pipeline.delta.push_back(static_cast<double>(rng.integer(1, 5)));
  std::vector<Processor> procs;
  for (int u = 0; u < p; ++u)
    procs.push_back(Processor{fmt::format("P{}", u + 1), rng.uniform(10, 20), rng.uniform(0.05, 0.3),
                              rng.uniform(1, 10), rng.uniform(1, 10)});
  Platform platform(procs, "in", "out");
  for (int u = 0; u < platform.nodes(); ++u)
    for (int v = 0; v < platform.nodes(); ++v)
      if (u != v) platform.set_link(u, v, rng.uniform(1, 10), 0);
  double floor = *std::max_element(pipeline.w.begin(), pipeline.w.end()) / 20;
  return reliability_problem(std::move(pipeline), std::move(platform), floor * rng.uniform(1, 6));
}

std::vector<int> random_partition(Rng& rng, int n, int l)
{
  std::vector<int> subset(static_cast<std::size_t>(n) + 1, -1);
  for (int i = 1; i <= n; ++i)
    subset[static_cast<std::size_t>(i)] = i <= l ? i - 1 : static_cast<int>(rng.integer(0, l - 1));
  for (int i = n; i > 1; --i) // shuffle the stages' subsets
    std::swap(subset[static_cast<std::size_t>(i)], subset[static_cast<std::size_t>(rng.integer(1, i))]);
  return subset;
}

} // namespace pipesim::fixtures

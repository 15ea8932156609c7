#include "simulator/crash_fixtures.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace pipesim::fixtures {

SimulationSettings trace_settings(const std::string& model, const std::string& allocation, int datasets,
                                  std::vector<Crash> crashes, const std::string& election)
{
  SimulationSettings s;
  s.model = model;
  if (model == "multi-port") s.allocation = allocation;
  s.datasets          = datasets;
  s.failures.model    = crashes.empty() ? "none" : "trace";
  s.failures.trace    = crashes;
  s.failures.election = election;
  s.crashes           = std::move(crashes);
  return s;
}

bool strictly_increasing(const std::vector<double>& times)
{
  return std::adjacent_find(times.begin(), times.end(), [](double a, double b) { return b <= a; }) == times.end();
}

void expect_verdict(const SimulationResult& sim, bool should_survive, int datasets, const std::string& what)
{
  if (should_survive) {
    EXPECT_EQ(sim.failures.verdict, "survived") << what;
    EXPECT_EQ(sim.output_times.size(), static_cast<std::size_t>(datasets)) << what;
    EXPECT_TRUE(strictly_increasing(sim.output_times)) << what << ": outputs not strictly increasing";
  } else {
    EXPECT_EQ(sim.failures.verdict, "failed") << what;
    EXPECT_LT(sim.failures.delivered, datasets) << what;
  }
}

} // namespace pipesim::fixtures

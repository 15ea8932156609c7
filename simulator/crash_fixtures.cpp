#include "simulator/crash_fixtures.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace pipesim::fixtures {

SimulationSettings trace_settings(CommModel model, Allocation allocation, int datasets, std::vector<Crash> crashes,
                                  ElectionPolicy election)
{
  SimulationSettings s;
  s.model = model;
  if (model == CommModel::multi_port) s.allocation = allocation;
  s.datasets          = datasets;
  s.failures.model    = crashes.empty() ? FailureModel::none : FailureModel::trace;
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
    EXPECT_EQ(sim.failures.verdict, Verdict::survived) << what;
    EXPECT_EQ(sim.output_times.size(), static_cast<std::size_t>(datasets)) << what;
    EXPECT_TRUE(strictly_increasing(sim.output_times)) << what << ": outputs not strictly increasing";
  } else {
    EXPECT_EQ(sim.failures.verdict, Verdict::failed) << what;
    EXPECT_LT(sim.failures.delivered, datasets) << what;
  }
}

} // namespace pipesim::fixtures

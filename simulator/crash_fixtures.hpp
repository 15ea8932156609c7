// What the randomised crash tests (crash_test.cpp, election_policy_test.cpp) check on every run.
#pragma once

#include "simulator/simulation.hpp"

#include <string>
#include <vector>

namespace pipesim::fixtures {

/// Settings of a crash test: `model` (with `allocation` for multi-port), `datasets`, the `trace` failure model with
/// `crashes` (none: model "none"), the election policy.
SimulationSettings trace_settings(CommModel model, Allocation allocation, int datasets, std::vector<Crash> crashes,
                                  ElectionPolicy election = ElectionPolicy::first);

bool strictly_increasing(const std::vector<double>& times);

/// A run whose crashes leave a replica in every interval must survive and deliver `datasets` outputs, each once, in
/// strictly increasing order; otherwise it must fail having delivered fewer. `what` describes the case.
void expect_verdict(const SimulationResult& sim, bool should_survive, int datasets, const std::string& what);

} // namespace pipesim::fixtures

// Reading the `simulation:` section of a scenario (docs/scenarios.md) and the seeds every section uses.
#pragma once

#include "base/yaml_node.hpp"
#include "simulator/simulation.hpp"

#include <cstdint>

namespace pipesim {

/// A seed: an integer >= 0.
std::uint64_t parse_seed(const YamlNode& node);

/// `simulation:`: the model, network, N, warm-up, cool-down, precision, seeds, trace, SimGrid arguments, multi-port
/// allocation and buffer, failures (scenarios/failure_spec.cpp), Monte Carlo runs and window, each checked with its
/// line.
SimulationSettings parse_simulation(const YamlNode& node);

} // namespace pipesim

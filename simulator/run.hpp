// Running one simulation: in this process (once per process: SimGrid allows one engine) or in a child process.
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"
#include "simulator/simulation.hpp"

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace pipesim {

/// SimGrid arguments for a run: in exact mode the network settings of DESIGN.md §3.4 come first, then the user's
/// --cfg/--log arguments (which therefore win).
std::vector<std::string> simgrid_arguments(const SimulationSettings& settings);

/// Starts this process's SimGrid engine, loads the platform (the XML file the model came from, or a full zone built
/// from the model), deploys the one-port actors and runs. Call it at most once per process.
SimulationResult simulate_here(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                               const SimulationSettings& settings);

/// simulate_here in a forked child process; this process never starts SimGrid.
SimulationResult simulate(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                          const SimulationSettings& settings);

/// Latency (DESIGN.md §3.7): a separate one-data-set run, in its own process.
double simulate_latency(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                        const SimulationSettings& settings);

void to_json(nlohmann::json& j, const SimulationResult& r);
void from_json(const nlohmann::json& j, SimulationResult& r);

} // namespace pipesim

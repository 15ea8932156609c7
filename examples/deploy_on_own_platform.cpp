// Example: a SimGrid program that loads its own platform XML and deploys a pipeline mapping with pipesim.
//
//   deploy_on_own_platform [PLATFORM.xml] [--cfg=...] [--log=...]
//
// It reads the platform model from the loaded engine (P_in = P_out = host "io"), maps a 4-stage pipeline one-to-one
// on the hosts m1..m4, runs the one-port actors and prints the measured period next to br07 eq. (1).
#include "model/analytic.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "simulator/deployment.hpp"

#include <cstdio>
#include <simgrid/s4u.hpp>

namespace sg4 = simgrid::s4u;

int main(int argc, char** argv)
{
  sg4::Engine engine(&argc, argv); // consumes --cfg= and --log=
  // Exact transfer times (DESIGN.md §3.4); must be set before the platform is loaded.
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  sg4::Engine::set_config("network/TCP-gamma:0");
  const char* file = argc > 1 ? argv[1] : PIPESIM_EXAMPLE_PLATFORM;
  engine.load_platform(file);

  pipesim::Platform platform = pipesim::platform_from_engine(file, "io", "io");
  pipesim::Pipeline pipeline{{2e9, 4e9, 1e9, 8e9}, {1e6, 2e6, 1e6, 3e6, 1e6}}; // w in flop, delta in bytes
  std::vector<int> alloc;
  for (const char* host : {"m1", "m2", "m3", "m4"})
    alloc.push_back(*platform.find(host));
  pipesim::Mapping mapping = pipesim::make_interval_mapping({{1, 1}, {2, 2}, {3, 3}, {4, 4}}, alloc);

  pipesim::SimulationSettings settings;
  settings.datasets = 50;
  // the one-port execution (settings.model) deployed on this engine's platform, sizes as they are
  auto deployment = pipesim::make_deployment(pipesim::SimulationJob(pipeline, platform, mapping, settings));
  deployment->deploy();
  engine.run();

  pipesim::SimulationResult result = deployment->result();
  std::printf("mapping %s\n", pipesim::to_text(mapping, platform).c_str());
  std::printf("simulated period %.17g\n", result.period);
  std::printf("analytic period %.17g\n", pipesim::br07_eq2_period(pipeline, platform, mapping));
  return 0;
}

// The multi-port event graph (model/multiport_event_graph.hpp) against the allotted simulation, output time by output
// time: the graph's precedences are the actors' (receiver, computer, sender, buffers, sends to every receiver at
// once), so the simulator task that adds deal can use it as its oracle.
#include "model/multiport_event_graph.hpp"
#include "model/test_fixtures.hpp"
#include "simulator/simulate.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace pipesim;

TEST(MultiPortEventGraph, AllottedSimulationHasTheGraphsOutputTimes)
{
  // Replicated interval mappings with cards, latencies on every other instance, buffers of 1 to 3 data sets; every
  // output time of a 40-data-set run (the cool-down does not matter: the graph is exact for any N).
  for (std::uint64_t seed = 1; seed <= 24 / fixtures::asan_scale; ++seed) {
    Rng rng(seed);
    auto inst = fixtures::random_multiport_instance(rng, static_cast<int>(rng.integer(1, 5)),
                                                    static_cast<int>(rng.integer(2, 9)), seed % 2 == 0);
    fixtures::random_replicated_mapping(rng, inst);
    SimulationSettings s;
    s.model      = CommModel::multi_port;
    s.allocation = Allocation::allotted;
    s.datasets   = 40;
    s.buffer     = static_cast<int>(seed % 3) + 1;
    auto sim     = simulate({inst.pipeline, inst.platform, inst.mapping, s}).run;
    auto graph   = event_graph_output_times(
          build_multiport_event_graph(inst.pipeline, inst.platform, inst.mapping, s.buffer), s.datasets);
    ASSERT_EQ(sim.output_times.size(), graph.size());
    for (std::size_t k = 0; k < graph.size(); ++k)
      ASSERT_NEAR(sim.output_times[k], graph[k], 1e-9 * graph[k])
          << "seed " << seed << ", buffer " << s.buffer << ", data set " << k << ": " << inst.describe();
  }
}

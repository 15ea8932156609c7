// The decision loop between engine steps (controller.hpp).
#include "simulator/controller.hpp"

#include <simgrid/s4u.hpp>

namespace sg4 = simgrid::s4u;

namespace pipesim {

void run_engine(Deployment& deployment, Controller& controller)
{
  const sg4::Engine* engine = sg4::Engine::get_instance();
  for (double until = controller.next_step(); until >= 0; until = controller.next_step()) {
    engine->run_until(until);
    if (engine->get_actor_count() == 0) return; // the run ended before the date
    controller.decide(deployment);
  }
  engine->run();
}

} // namespace pipesim

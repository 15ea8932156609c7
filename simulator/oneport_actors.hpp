// SimGrid actors of the one-port model (DESIGN.md §3.1, §3.3): one actor per processor runs its program of
// OnePortPlan steps data set after data set; P_in and P_out are I/O servers outside the model.
#pragma once

#include "model/mapping.hpp"
#include "model/oneport_plan.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"
#include "simulator/simulation.hpp"

#include <memory>
#include <vector>

namespace pipesim {

/// Deploys a mapping on the platform already present in this process's SimGrid engine (hosts are looked up by the
/// model's node names), so any SimGrid program can run a pipeline on its own platform. Call deploy(), then
/// simgrid::s4u::Engine::run(), then result().
class OnePortDeployment {
public:
  /// `size_scale` multiplies every message size (and must be every transfer's bandwidth factor, prepare_engine) so that
  /// fractional byte counts survive SimGrid's integral sizes; 1 leaves sizes as they are (rounded to bytes).
  OnePortDeployment(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                    const SimulationSettings& settings, double size_scale = 1.0);
  ~OnePortDeployment();
  OnePortDeployment(const OnePortDeployment&)            = delete;
  OnePortDeployment& operator=(const OnePortDeployment&) = delete;

  void deploy();
  /// Output times, period, busy fractions and (if asked) the event trace of the finished run.
  SimulationResult result() const;

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace pipesim

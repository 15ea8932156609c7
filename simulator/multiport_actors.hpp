// SimGrid actors of the bounded multi-port model with overlap (DESIGN.md §3.2): per interval a processor holds, a
// receiver, a computer and (when elected) a sender run concurrently, linked by bounded buffers; transfers share the
// cards and links (fair) or are rate-capped so each resource serves its per-data-set load in load/capacity (allotted).
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"
#include "simulator/simulation.hpp"

#include <memory>

namespace pipesim {

/// Deploys on the platform already in this process's engine (with card links for Bin/Bout when the platform was
/// built from the model). Call deploy(), then Engine::run(), then result(). Without failures, replica 0 of every
/// interval is the elected sender.
class MultiPortDeployment {
public:
  MultiPortDeployment(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                      const SimulationSettings& settings, double size_scale = 1.0);
  ~MultiPortDeployment();
  MultiPortDeployment(const MultiPortDeployment&)            = delete;
  MultiPortDeployment& operator=(const MultiPortDeployment&) = delete;

  void deploy();
  SimulationResult result() const;

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace pipesim

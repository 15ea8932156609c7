// The decision loop outside the actors (DESIGN.md §3.12): the engine runs in steps (Engine::run_until), and between
// two steps a controller may measure and decide, as SimGrid's own examples drive a simulation from main.
#pragma once

namespace simgrid::s4u {
class Engine;
}

namespace pipesim {

class Deployment;

/// Decides between steps of a run. NoController: one step, to the end of the run. The re-mapping controller
/// (simulator/remap_controller.hpp, DESIGN.md §3.12) steps every RemapSettings::check seconds (and at its policy's
/// dates), closes the windows of W data sets whose outputs are in (per interval compute times, per pair transfer
/// times), asks its RemapPolicy (simulator/remap.hpp, built above the simulator: it may call any mapper) and carries a
/// new mapping out by a drain: the controller holds its own segments (one deployment per mapping) and ignores the
/// deployment run_engine passes.
class Controller {
public:
  virtual ~Controller() = default;
  /// The simulated date the engine runs to before the next decision; negative: to the end of the run.
  virtual double next_step() = 0;
  /// Called at that date, every actor paused.
  virtual void decide(Deployment& deployment) = 0;
};

/// No decision: the engine runs to the end in one Engine::run(), bit for bit the run without a controller.
/// A controller's steps are not quite free of effect even when it decides nothing: at each step's date SimGrid brings
/// the remaining work of the running actions up to date, and a resource shared by several of them may then date the
/// next events in other last bits (simulator/seams_test.cpp: at most 2.8e-16 relative on the card example's
/// multi-port run, none on the one-port runs).
class NoController final : public Controller {
public:
  double next_step() override { return -1; }
  void decide(Deployment&) override {}
};

/// Runs this process's engine with `deployment` deployed: steps of controller.next_step() with a decision after each,
/// until the controller asks for the end or no actor is left, then Engine::run() to the end.
void run_engine(Deployment& deployment, Controller& controller);

} // namespace pipesim

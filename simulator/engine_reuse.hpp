// Several runs in one SimGrid engine, one after the other (Monte Carlo batches, validation/monte_carlo.cpp): what a
// run leaves in the engine is undone before the next, so each run computes exactly what it would in a fresh process.
#pragma once

#include "platforms/platform.hpp"

namespace simgrid::s4u {
class Host;
class Mailbox;
} // namespace simgrid::s4u

namespace pipesim {

/// Whether this process's engine can run another deployment after one has run (reset_engine_for_next_run):
/// SimGrid 3.32, whose clock can be set back to 0 (its kernel's clock variable), and a platform built from the model
/// (an XML file may carry speed, bandwidth or state profiles, which are dated and cannot be rewound).
bool can_run_again(const Platform& platform);

/// After Engine::run() returned with every actor ended: turns every host and link back on, delivers the crash
/// wake-up tokens still waiting in their mailboxes, clears the other mailboxes the run used and sets the clock back
/// to 0. Throws std::logic_error
/// when an actor is still there or the clock cannot be reset (the caller then runs each run in a fresh process).
void reset_engine_for_next_run();

/// SimGrid gives each actor an 8 MiB stack (plus a guard page) from posix_memalign, which glibc serves with mmap past
/// its 128 KiB threshold and gives back with munmap when the actor ends: about 200 system calls per Monte Carlo run
/// of ~100 actors. Raises this process's malloc thresholds so those stacks come from the heap and are reused by the
/// next run's actors (only the pages an actor touches are ever resident). For the prepared workers of a series.
void keep_actor_stacks_in_heap();

namespace detail {
/// Records a mailbox a deployment uses, for reset_engine_for_next_run; `sender`: the host its detached messages are
/// sent from, if any (they are delivered, not dropped).
void note_mailbox(simgrid::s4u::Mailbox* mailbox, simgrid::s4u::Host* sender = nullptr);
} // namespace detail

} // namespace pipesim

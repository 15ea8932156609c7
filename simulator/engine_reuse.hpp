// Several runs in one SimGrid engine, one after the other: what a run leaves in the engine is undone before the next,
// so each run computes exactly what it would in a fresh process. Fenced behind the series entry point
// (simulate(job) with RunKind::series, simulator/series.cpp): nothing else in pipesim reuses an engine, and every
// other run has a process of its own (DESIGN.md §8).
//
// What it bets on in SimGrid 3.32 (docs/semantics.md, "Monte Carlo"; checked at every reset where it can be):
// - the simulated date is the static member simgrid::kernel::EngineImpl::now_, exported by libsimgrid (found by its
//   mangled name with dlsym) though declared in a header SimGrid does not install, and no API sets it: the reset
//   writes 0 there (checked: the variable holds Engine::get_clock() before the write; no reuse on another version);
// - a finished run leaves nothing dated in the engine: no action, no timer, no actor (checked: no actor is left;
//   Engine::run() returned, so no action or timer was pending), hence nothing that setting the clock back confuses;
// - hosts and links turned off by a run's crashes or link failures can be turned back on, and a platform built from
//   the model carries no profile (an XML file may carry speed, bandwidth or state profiles, which are dated and
//   cannot be rewound: can_run_again is false there);
// - a detached message nobody received stays in its mailbox and in a list of the maestro's until delivered: the
//   reset delivers it (clearing it would leave the list growing run after run), then clears every mailbox a run
//   noted (note_mailbox).
#pragma once

#include "platforms/platform.hpp"

namespace simgrid::s4u {
class Host;
class Mailbox;
} // namespace simgrid::s4u

namespace pipesim::detail {

/// Whether this process's engine can run another deployment after one has run (reset_engine_for_next_run):
/// SimGrid 3.32, whose clock can be set back to 0 (its kernel's clock variable), and a platform built from the model.
bool can_run_again(const Platform& platform);

/// After Engine::run() returned with every actor ended: turns every host and link back on, delivers the crash
/// wake-up tokens still waiting in their mailboxes, clears the other mailboxes the run used and sets the clock back
/// to 0. Throws std::logic_error when an actor is still there or the clock cannot be reset (the series then runs each
/// run of the batch in a fresh process).
void reset_engine_for_next_run();

/// SimGrid gives each actor an 8 MiB stack (plus a guard page) from posix_memalign, which glibc serves with mmap past
/// its 128 KiB threshold and gives back with munmap when the actor ends: about 200 system calls per Monte Carlo run
/// of ~100 actors. Raises this process's malloc thresholds so those stacks come from the heap and are reused by the
/// next run's actors (only the pages an actor touches are ever resident). For the prepared workers of a series.
void keep_actor_stacks_in_heap();

/// Records a mailbox a deployment uses, for reset_engine_for_next_run; `sender`: the host its detached messages are
/// sent from, if any (they are delivered, not dropped).
void note_mailbox(simgrid::s4u::Mailbox* mailbox, simgrid::s4u::Host* sender = nullptr);

} // namespace pipesim::detail

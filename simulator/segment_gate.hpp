// What a re-mapping run (simulator/remap_controller.hpp) sees of and asks from one segment of it: a segment is one
// deployment of one mapping over a contiguous range of data sets (DESIGN.md §3.12, `drain`).
#pragma once

#include "model/operation.hpp"

#include <functional>
#include <limits>
#include <simgrid/forward.h>
#include <string>
#include <vector>

namespace pipesim {

/// Shared by a segment's P_in, P_out and processors (simulator/replication.cpp) and the controller, which reads and
/// writes it between engine steps (every actor paused). Data sets are numbered in the segment (0 = its first).
/// Absent (RunInputs::gate null) in a run without re-mapping: each use is one pointer test.
struct SegmentGate {
  /// P_in feeds only data sets k < limit; P_out ends the segment once it has output `limit` of them.
  int limit = std::numeric_limits<int>::max();
  /// One past the highest data set P_in has offered so far (the data sets in flight or done).
  int fed = 0;
  /// Where P_out appends each output time (the run's outputs, every segment in turn), or null.
  std::vector<double>* outputs = nullptr;
  /// Called by P_out once the segment has ended (its other actors killed), in P_out's actor: a drain's hand-over.
  std::function<void()> on_end;
  /// Set by the segment: ends it now (its P_out stops, its actors are killed, on_end runs), from an actor of the
  /// controller's (a crash repair whose P_out already output every data set the segment still delivers).
  std::function<void()> stop;
  /// on_crash: remap: the controller stops a crashed processor by turning its host off (its actors die, its transfers
  /// fail). The segment then treats a host that is off as fail-silent: no actor is created on it, no election or
  /// verdict follows, and an actor whose transfer to it fails waits for ever (replica_transfers.hpp).
  bool silent_crashes = false;
  /// Every operation of the processors: (kind, data set, interval j 0-based, start, end), or empty.
  std::function<void(Operation, int, int, double, double)> probe;

  // handover (DESIGN.md §3.12): the next segment runs while this one finishes its data sets, so the two must not share
  // mailboxes nor kill each other's actors, and the next one's stations start one by one
  /// The segment's actors are its own: it records them (own()) and kills only them when it ends (not kill_all).
  bool own_actors = false;
  std::vector<simgrid::s4u::ActorPtr> actors;
  /// Prefix of the segment's mailbox names ("" for the first segment: the names of a run without re-mapping).
  std::string tag;
  /// Called by the processors: station (interval j 0-based, node) has done every operation of its on data sets < k.
  std::function<void(int, int, int)> reached;
  /// Called by a station's actor before its first operation (its receive, or its computation when its input is
  /// local): returns once the station may start. Empty: start at once.
  std::function<void(int, int)> wait_start;
  void own(const simgrid::s4u::ActorPtr& actor)
  {
    if (own_actors) actors.push_back(actor);
  }
};

} // namespace pipesim

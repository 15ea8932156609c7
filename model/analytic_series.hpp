// The analytic period of a mapping on a time-varying platform, epoch by epoch (DESIGN.md §3.11): between two changes
// of the profiles the platform is constant and the steady period is the one of the platform at that epoch's values.
#pragma once

#include "model/comm_model.hpp"
#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// Epochs of a series hold at most this many profile changes (a run whose profiles change more often is refused:
/// each change also costs the simulation a solve of its own).
inline constexpr std::size_t max_series_changes = 1'000'000;

/// [start, end): the platform's values are constant; `period` is the mapping's steady period at those values, on the
/// replicas still alive (infinite when an interval has lost every replica, a dealt interval one, or a pair it uses
/// has no route); `hosts_off` the processors of the mapping that a state profile has turned off by then (a crash:
/// they stay dead, as in the simulator, DESIGN.md §3.5).
struct Epoch {
  double start  = 0;
  double end    = 0;
  double period = 0;
  std::vector<std::string> hosts_off;
};

/// The series of `mapping` on `platform` over [0, horizon): one epoch per interval between two dates at which a
/// profile changes a value the mapping depends on (a change of a processor or link it does not use continues the
/// epoch; a change that leaves the period as it was starts an epoch all the same, since its outputs pass a transient:
/// a stage that slows without becoming the bottleneck delays the outputs once). The period
/// is the event-graph period (one-port: build_oneport_event_graph with `senders`; multi-port: analyze_multiport with
/// `buffer`, Algorithm 1 or the allotted execution's event graph with deal) of platform_at(t) for t the epoch's
/// start, the period pipesim's exact simulation reaches in the steady part of the epoch. Platforms whose values
/// never change give one epoch. Results for equal values are reused (a looping profile repeats its epochs).
/// InputError when the profiles change more than max_series_changes times before the horizon.
std::vector<Epoch> analytic_series(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                   CommModel model, int buffer, const std::vector<int>& senders, double horizon);

} // namespace pipesim

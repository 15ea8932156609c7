// Re-mapping during a run (DESIGN.md §3.12): its settings, the measurements a controller takes per window of data
// sets, the policy interface that decides from them (the hook a policy written elsewhere, e.g. in Python, implements)
// and the record of each re-map.
#pragma once

#include "base/enum_names.hpp"
#include "model/mapping.hpp"
#include "platforms/platform.hpp"

#include <limits>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// What changing the mapping costs (DESIGN.md §3.12).
enum class RemapCost {
  drain,   // P_in stops, the data sets in flight finish, the moved states travel, restart r, P_in resumes
  handover // stage by stage at data set k*: each new station starts once the old ones it depends on are done with
           // the data sets < k* and its state arrived, no global stop (simulator/remap_handover.cpp)
};
PIPESIM_ENUM_NAMES(RemapCost, {drain, "drain"}, {handover, "handover"});

/// How a run re-maps (scenario keys `dynamic:`, docs/dynamic.md).
struct RemapSettings {
  RemapCost cost = RemapCost::drain;
  std::vector<double> state; // S_i, bytes of stage i's state (index i - 1); empty: 0 for every stage
  double restart = 0;        // r, s: what each new processor pays before P_in resumes
  int window     = 1;        // W: data sets per measurement window
  double check   = 1;        // s between two decisions of the controller (besides the policy's own dates)
  bool repair    = false;    // on_crash: remap: a crash of a running processor, detected `detect` s later, re-maps
  double detect  = 0;        // d, s from a crash to its detection
  /// The policy's free decisions (RemapDecision::free: the clairvoyant reference) hand over whatever `cost` says:
  /// a re-map at zero cost has no drain either. Ignored where a handover is refused (on_crash: remap, state
  /// profiles): they drain. Set by the scenario for the built-in `clairvoyant` (docs/dynamic.md).
  bool free_handover = false;
  double state_of(int stage) const { return state.empty() ? 0 : state.at(static_cast<std::size_t>(stage - 1)); }
};

/// What a window measured of one interval of the mapping that ran it (HeDPM's measurement points: hedpm §4.2).
/// Sums over the data sets of the window that the interval's processor computed; a dealt interval has one measure
/// per replica (each on its own data sets: replica (k - k*) mod R of the segment that started at k*).
struct IntervalMeasure {
  int interval = 0;  // j, 0-based, in the mapping that ran the window's data sets
  int node     = -1; // the processor (a dealt replica's; -1 under active replication: several compute)
  double work  = 0;  // flop computed (sum of W_j(k))
  double time  = 0;  // s spent computing them
  int count    = 0;  // data sets
};

/// Transfers on one pair of nodes (P_in = platform.in(), P_out = platform.out()) during a window.
struct LinkMeasure {
  int from     = 0;
  int to       = 0;
  double bytes = 0; // sum of the messages' sizes (delta, unscaled)
  double time  = 0; // s from each transfer's start to its end
  int count    = 0;
};

/// One window of W data sets: data sets [first, first + W) (0-based, counted over the whole run) and their
/// operations; `period` is (t_{first + W} - t_first) / W over the output times, as simulated.throughput_series.
/// `disturbed`: a re-map happened inside the window (its period includes the downtime).
struct WindowMeasurement {
  int index      = 0;
  int first      = 0;
  double start   = 0;
  double end     = 0;
  double period  = 0;
  bool disturbed = false;
  std::vector<IntervalMeasure> intervals;
  std::vector<LinkMeasure> links;
};

/// What a policy sees when the controller asks it (between two engine steps, every actor paused).
struct RemapView {
  double now                                    = 0;
  const Platform* platform                      = nullptr; // the nominal model (its profiles included)
  const Mapping* mapping                        = nullptr; // the mapping running now
  const std::vector<WindowMeasurement>* windows = nullptr; // every window closed so far, in order
  std::size_t new_windows                       = 0;       // how many of them closed since the previous call
  int next_dataset                              = 0;       // k*: where a re-map decided now would start
  int datasets                                  = 0;       // N
  const std::vector<int>* dead                  = nullptr; // processors whose crash has been detected (repair)
};

/// A policy's answer: run `mapping` from the next data set on; `free`: at no cost (no state moved, no restart: the
/// clairvoyant reference; the in-flight data sets still drain).
struct RemapDecision {
  Mapping mapping;
  std::string reason;
  bool free = false;
};

/// The decision hook (DESIGN.md §3.12): the simulator never decides a mapping, a policy built above it does. The
/// controller calls decide() at each check (RemapSettings::check apart) and at the policy's own dates; a decision
/// whose mapping equals the running one is ignored, and none is asked for while a re-map is in progress. Keep it
/// small: a binding in another language (Python) implements these two methods.
class RemapPolicy {
public:
  virtual ~RemapPolicy() = default;
  /// The next date after `now` at which the policy wants to decide besides the regular checks (infinity: none).
  virtual double next_date(double now) const
  {
    (void)now;
    return std::numeric_limits<double>::infinity();
  }
  /// A new mapping, or nothing.
  virtual std::optional<RemapDecision> decide(const RemapView& view) = 0;
  /// on_crash: remap: a mapping on the processors not in *view.dead, or nothing (the run fails). Called once a crash
  /// of a processor of the running mapping is detected.
  virtual std::optional<RemapDecision> repair(const RemapView& view)
  {
    (void)view;
    return std::nullopt;
  }
};

/// One re-map of a run (`dynamic.remaps`): decided at `time`, from data set `dataset` (0-based) on. Drain: the data
/// sets before it reached P_out at time + drain, the states (bytes) moved in `transfer` s, the restart took `restart`
/// s, then the new mapping output `dataset` `fill` s later. Handover: the same, but `transfer` (the longest state
/// transfer) and `restart` overlap the drain, and `fill` = t_out(dataset) - t_out(dataset - 1). downtime =
/// t_out(dataset) - time - the undisturbed period (the old mapping's last window before the decision): DESIGN.md §3.12.
struct RemapRecord {
  double time = 0;
  int dataset = 0;
  std::string reason;
  std::string from; // mappings as text (to_text)
  std::string to;
  double drain    = 0;
  double transfer = 0;
  double restart  = 0;
  double fill     = 0;
  double downtime = 0;
  double bytes    = 0; // state moved, sum of S_i of the moved stages (each new replica gets its own copy)
  int lost        = 0; // data sets lost with crashed processors (a crash repair; 0 for a policy's re-map)
};

void to_json(nlohmann::json& j, const RemapRecord& r);
void from_json(const nlohmann::json& j, RemapRecord& r);

/// Two mappings are the same: the same intervals, replicas (in order) and replication.
bool same_mapping(const Mapping& a, const Mapping& b);

} // namespace pipesim

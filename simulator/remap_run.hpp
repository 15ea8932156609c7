// The re-mapping run of a job (remap_controller.hpp), shared by its files: the segments, the drains and the
// measurements (remap_controller.cpp), the handovers (remap_handover.cpp), the repairs after crashes
// (remap_repair.cpp). Internal to the simulator.
#pragma once

#include "simulator/controller.hpp"
#include "simulator/deployment.hpp"
#include "simulator/engine.hpp"
#include "simulator/job.hpp"
#include "simulator/remap_controller.hpp"
#include "simulator/remap_crash.hpp"
#include "simulator/remap_measure.hpp"
#include "simulator/segment_gate.hpp"

#include <limits>
#include <map>
#include <memory>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Semaphore.hpp>
#include <string>
#include <utility>
#include <vector>

namespace pipesim::detail {

/// One deployment of one mapping over the data sets [first, N) (it ends earlier when a drain lowers its limit).
struct Segment {
  Mapping mapping;
  int rank  = 0; // 0, 1, ...: the order in which the run made it
  int first = 0;
  std::shared_ptr<SegmentGate> gate;
  std::unique_ptr<Deployment> deployment;
  std::vector<int> dead;  // its processors that crashed while it ran (on_crash: remap)
  bool stopping  = false; // the controller asked it to end (gate->stop)
  bool repairing = false; // a repair is decided: the next segment runs on the survivors
  // handover (remap_handover.cpp): per station (interval j, node), its data sets below the value are done; the
  // helpers of the next segment's stations that wait for them (woken when a station passes the limit)
  std::map<std::pair<int, int>, int> progress;
  std::vector<simgrid::s4u::SemaphorePtr> watchers;
};

/// The state transfers of a re-map: per (old node, new node) the bytes of the stages moving between them. A stage
/// moves to every processor that holds it in the new mapping and did not in the old one, from the first replica
/// that held it and has not crashed by `now` (dead_at: per processor; a crashed one's states are lost).
std::map<std::pair<int, int>, double> state_moves(const Mapping& from, const Mapping& to, int n,
                                                  const RemapSettings& settings, bool* moved,
                                                  const std::vector<double>& dead_at, double now);

/// A station (interval j of the new mapping on `node`) of a handover: what it waits for before it starts data set
/// k* (remap_handover.cpp).
struct StationGate {
  int j    = 0;
  int node = 0;
  std::vector<std::pair<int, int>> after; // the old segment's stations that must finish their data sets < k*
  struct Move {                           // the state of its moved stages held by one old station
    std::pair<int, int> source;
    double bytes = 0;
    double start = -1; // when it started (-1: not yet)
    simgrid::s4u::CommPtr comm;
  };
  std::vector<Move> moves;
  bool restart = false;             // a stage moved to it: it pays r
  simgrid::s4u::SemaphorePtr wake;  // released when a station of the old segment passes k*
  simgrid::s4u::SemaphorePtr start; // released once it may start
};

/// The start of a re-map, by drain or handover (RemapRun::begin_remap): its record so far and the state it moves.
struct RemapStart {
  RemapRecord record;
  std::map<std::pair<int, int>, double> moves; // (old node, new node) -> bytes; empty for a free decision
  bool moved = false;                          // some stage changes processor
};

class RemapRun final : public Controller {
public:
  RemapRun(const SimulationJob& job, const SimulationSettings& run, double size_scale)
      : job_(job), run_(run), size_scale_(size_scale), meter_(job.pipeline, job.platform, job.remap.window),
        schedule_(run.crashes), dead_at_(static_cast<std::size_t>(job.platform.p()), inf_)
  {
    run_.progress = ProgressMode::off; // one progress line per segment would mislead
    std::ranges::stable_sort(schedule_, {}, &Crash::time);
  }

  void start() { deploy_now(make_segment(job_.mapping, 0)); }
  Deployment& first() { return *segments_.front()->deployment; }
  double next_step() override;
  void decide(Deployment&) override;
  SimulationResult result();

private:
  std::unique_ptr<Segment> make_segment(const Mapping& mapping, int first);
  void deploy_now(std::unique_ptr<Segment> segment);
  int drain_limit(const Segment& running) const;
  RemapStart begin_remap(Segment& running, const RemapDecision& decision);
  void start_drain(Segment& running, const RemapDecision& decision);
  void hand_over(std::size_t record, std::map<std::pair<int, int>, double> moves, bool restart,
                 std::unique_ptr<Segment>& next);
  // handover (DESIGN.md §3.12, remap_handover.cpp)
  void start_handover(Segment& running, const RemapDecision& decision);
  void station_reached(Segment& segment, int j, int node, int k);
  int station_progress(const Segment& segment, int j, int node) const;
  std::unique_ptr<StationGate> station_gate(const Segment& old, const Mapping& next, int j, int node, bool free);
  void open_station(Segment& old, StationGate& station);
  void handover_step_done();
  // on_crash: remap (DESIGN.md §3.5, §3.12)
  void crashes_until(double now);
  void turn_off(int u) const;
  void crash_in_running(int u, double at);
  void detect(double now);
  void repair(Segment& running, double now);
  void end_segment_at(Segment& running, int limit);
  std::string crash_reason(double now) const;

  SimulationJob job_;
  SimulationSettings run_;
  double size_scale_ = 1;
  WindowMeter meter_;
  std::vector<double> outputs_;
  std::vector<std::unique_ptr<Segment>> segments_; // every segment stays: its SimGrid callbacks point to it
  std::unique_ptr<Segment> pending_;               // the next segment while a drain is in progress
  bool switching_   = false;
  std::size_t seen_ = 0; // windows the policy has seen
  std::vector<RemapRecord> remaps_;
  std::vector<double> undisturbed_;        // per re-map: the old mapping's last undisturbed window period
  long operations_                    = 0; // operations the probe saw, and at the previous step
  long operations_seen_               = 0;
  std::size_t outputs_seen_           = 0;
  int idle_steps_                     = 0;
  static constexpr int max_idle_steps = 10'000;
  static constexpr double inf_        = std::numeric_limits<double>::infinity();
  // on_crash: remap
  std::vector<Crash> schedule_; // the run's crashes, in time order
  std::size_t next_crash_ = 0;
  std::vector<double> dead_at_;                        // per processor: when it crashed (infinity: alive)
  std::vector<int> detected_;                          // processors whose crash the controller knows of
  std::vector<std::pair<int, double>> undetected_;     // (processor, detection date) of crashes still to detect
  CrashLedger ledger_;                                 // the running segment's receives and sends
  CrashLoss loss_{std::numeric_limits<int>::max(), 0}; // what the running segment's crashes took (merged)
  bool crashed_      = false; // a processor of the running segment crashed: it delivers no more than loss_.first
  bool handing_over_ = false; // the running segment has ended, the next one is not deployed yet
  bool failed_       = false; // no mapping on the survivors
  double failed_at_  = 0;
  int lost_          = 0;
  int repaired_      = 0;
  std::vector<int> lost_positions_; // outputs_ positions that hold a lost data set (a placeholder)
  // handover
  /// The segments are set up to hand over: cost handover, or free decisions handed over (RemapSettings::free_handover)
  bool hands_over_   = job_.remap.cost == RemapCost::handover || (job_.remap.free_handover && handover_possible(job_));
  int segments_made_ = 0;              // segments made so far (their mailboxes' tags)
  std::vector<std::size_t> handovers_; // the re-maps made by handover (their fill is the output gap at k*)
  int handover_left_ = 0;              // the old segment's end and the new stations' openings still to come
  std::vector<std::unique_ptr<StationGate>> station_gates_; // the new segment's, while a handover is in progress
};

} // namespace pipesim::detail

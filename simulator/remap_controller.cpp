// The re-mapping controller: segments, drains, measurements (remap_controller.hpp).
#include "simulator/remap_controller.hpp"

#include "base/input_error.hpp"
#include "simulator/controller.hpp"
#include "simulator/deployment.hpp"
#include "simulator/remap_crash.hpp"
#include "simulator/remap_measure.hpp"
#include "simulator/remap_run.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

namespace sg4 = simgrid::s4u;

namespace pipesim {

bool handover_possible(const SimulationJob& job)
{
  const PlatformProfiles& profiles = job.platform.profiles();
  return !job.remap.repair && !profiles.has_state() &&
         std::ranges::none_of(profiles.links, [](const LinkProfiles& l) { return l.state_profile.has_value(); });
}

void check_remap_job(const SimulationJob& job)
{
  const SimulationSettings& s = job.settings;
  const ExecutionKind kind    = execution_kind(job);
  if (kind != ExecutionKind::one_port && kind != ExecutionKind::multi_port)
    throw InputError::keyed("dynamic",
                            fmt::format("re-mapping runs pipelines (one-port or multi-port), not {}", to_string(kind)));
  if ((s.failures.enabled() || !s.crashes.empty()) && !job.remap.repair)
    throw InputError::keyed("dynamic", "a re-mapping policy runs without failures (simulation.failures) unless "
                                       "dynamic.on_crash is remap");
  if (job.remap.repair && s.failures.model == FailureModel::platform)
    throw InputError::keyed("dynamic.on_crash", "remap",
                            "the crashes of an XML platform's state profiles (failures model 'platform') are not "
                            "repaired yet (give a crash schedule: probability, exponential, trace)");
  if (job.remap.repair && std::ranges::any_of(job.mapping.intervals, [](const Interval& in) {
        return in.replicas.size() > 1 && in.replication == Replication::active;
      }))
    throw InputError::keyed("dynamic.on_crash", "remap",
                            "the mapping has actively replicated intervals (their crashes are the replication "
                            "protocol's: leave on_crash out, or map without active replicas)");
  if (!(job.remap.detect >= 0) || !std::isfinite(job.remap.detect))
    throw InputError::keyed("dynamic.detect", job.remap.detect, "expected a finite time >= 0 (seconds)");
  if (s.precision > 0)
    throw InputError::keyed("dynamic", "a re-mapping run simulates simulation.datasets data sets; simulation.precision "
                                       "with a re-mapping policy is not built yet");
  if (!job.variability.deterministic())
    throw InputError::keyed("dynamic", "random operation times (pipeline.variability) with a re-mapping policy are "
                                       "not built yet (each segment would draw its own times)");
  if (job.remap.cost == RemapCost::handover && job.remap.repair)
    throw InputError::keyed("dynamic.cost", "handover",
                            "with dynamic.on_crash remap is not built (a crash repair drains): use cost drain");
  if (job.remap.cost == RemapCost::handover && !handover_possible(job))
    throw InputError::keyed(
        "dynamic.cost", "handover",
        "on a platform whose state profiles turn hosts or links off (crashes, link failures) is not "
        "built: use cost drain");
  if (job.remap.window < 1) throw InputError::keyed("dynamic.window", job.remap.window, "expected >= 1");
  if (!(job.remap.check > 0) || !std::isfinite(job.remap.check))
    throw InputError::keyed("dynamic.check", job.remap.check, "expected a finite time > 0 (seconds)");
  if (!job.remap.state.empty() && static_cast<int>(job.remap.state.size()) != job.pipeline.n())
    throw InputError::keyed("dynamic.state",
                            fmt::format("{} sizes for {} stages (expected one per stage, or one number)",
                                        job.remap.state.size(), job.pipeline.n()));
}

namespace detail {

/// The state transfers of a re-map: per (old node, new node) the bytes of the stages moving between them. A stage
/// moves to every processor that holds it in the new mapping and did not in the old one, from the first replica
/// that held it and has not crashed by `now` (dead_at: per processor; a crashed one's states are lost).
std::map<std::pair<int, int>, double> state_moves(const Mapping& from, const Mapping& to, int n,
                                                  const RemapSettings& settings, bool* moved,
                                                  const std::vector<double>& dead_at, double now)
{
  std::map<std::pair<int, int>, double> moves;
  *moved       = false;
  auto holders = [](const Mapping& m, int stage) {
    std::vector<int> nodes;
    for (const Interval& in : m.intervals)
      if (in.first <= stage && stage <= in.last)
        for (const ProcessorGroup& g : in.replicas)
          nodes.insert(nodes.end(), g.begin(), g.end());
    return nodes;
  };
  for (int i = 1; i <= n; ++i) {
    std::vector<int> old_nodes = holders(from, i);
    for (int v : holders(to, i)) {
      if (std::ranges::find(old_nodes, v) != old_nodes.end()) continue;
      *moved = true;
      // a crashed processor's states are lost with it: the new one starts from an empty state (restart r only)
      auto source =
          std::ranges::find_if(old_nodes, [&](int u) { return !(dead_at[static_cast<std::size_t>(u)] <= now); });
      if (source != old_nodes.end()) moves[{*source, v}] += settings.state_of(i);
    }
  }
  return moves;
}

std::unique_ptr<Segment> RemapRun::make_segment(const Mapping& mapping, int first)
{
  auto seg           = std::make_unique<Segment>();
  seg->mapping       = mapping;
  seg->first         = first;
  seg->rank          = segments_made_;
  seg->gate          = std::make_shared<SegmentGate>();
  seg->gate->outputs = &outputs_;
  Segment* raw       = seg.get();
  seg->gate->probe   = [this, raw](Operation kind, int k, int j, double start, double end) {
    ++operations_;
    meter_.operation(raw->mapping, raw->rank, raw->first, k, kind, j, end - start);
    if (job_.remap.repair && raw == segments_.back().get()) ledger_.operation(raw->mapping, kind, j, k);
  };
  if (hands_over_) { // two segments may run at once (remap_handover.cpp)
    seg->gate->own_actors = true;
    seg->gate->tag        = segments_made_ == 0 ? "" : fmt::format("s{}-", segments_made_);
    seg->gate->reached    = [this, raw](int j, int node, int k) { station_reached(*raw, j, node, k); };
  }
  ++segments_made_;
  seg->gate->silent_crashes = job_.remap.repair; // the controller turns a crashed host off (RemapRun::turn_off)
  SimulationJob job         = job_;
  job.mapping               = mapping;
  job.policy                = nullptr;
  SimulationSettings run    = run_;
  run.datasets              = job_.settings.datasets - first;
  run.failures              = FailureSettings{}; // the controller runs the crashes (on_crash: remap)
  run.crashes.clear();
  RunInputs inputs = run_inputs(job, run, size_scale_);
  inputs.gate      = seg->gate;
  seg->deployment  = make_deployment(job, run, std::move(inputs)); // InputError: the mapping is refused
  return seg;
}

void RemapRun::deploy_now(std::unique_ptr<Segment> segment)
{
  ledger_.clear();
  crashed_ = false;
  loss_    = CrashLoss{std::numeric_limits<int>::max(), 0};
  segment->deployment->deploy();
  segments_.push_back(std::move(segment));
  // a processor of the new mapping that crashed since the decision (its crash not detected yet): it does nothing
  const double now = sg4::Engine::get_clock();
  for (int u : segments_.back()->mapping.processors())
    if (dead_at_[static_cast<std::size_t>(u)] <= now) crash_in_running(u, now);
}

double RemapRun::next_step()
{
  // SimGrid's run_until moves the clock to its date even when every actor waits for ever (it detects a deadlock only
  // without a date): steps in which no operation ended are counted, and after many the engine runs to its end, where
  // SimGrid sees the deadlock and the run ends without a verdict (an error), never in an endless loop.
  idle_steps_      = operations_ == operations_seen_ && outputs_.size() == outputs_seen_ ? idle_steps_ + 1 : 0;
  operations_seen_ = operations_;
  outputs_seen_    = outputs_.size();
  if (idle_steps_ > max_idle_steps) return -1;
  const double now = sg4::Engine::get_clock();
  double next      = now + job_.remap.check;
  if (double own = job_.policy->next_date(now); own > now) next = std::min(next, own);
  if (next_crash_ < schedule_.size()) next = std::min(next, std::max(now, schedule_[next_crash_].time));
  for (const auto& [u, date] : undetected_)
    next = std::min(next, std::max(now, date));
  return next;
}

void RemapRun::decide(Deployment&)
{
  meter_.close_windows(outputs_);
  const double now = sg4::Engine::get_clock();
  if (failed_) return;
  crashes_until(now);
  detect(now);
  if (switching_ || crashed_) return; // a drain or a repair is in progress: no decision until the new mapping runs
  Segment& running                              = *segments_.back();
  const std::vector<WindowMeasurement>& windows = meter_.windows();
  RemapView view;
  view.now                              = sg4::Engine::get_clock();
  view.platform                         = &job_.platform;
  view.mapping                          = &running.mapping;
  view.windows                          = &windows;
  view.new_windows                      = windows.size() - seen_;
  view.next_dataset                     = running.first + running.gate->fed;
  view.datasets                         = job_.settings.datasets;
  view.dead                             = &detected_;
  seen_                                 = windows.size();
  std::optional<RemapDecision> decision = job_.policy->decide(view);
  if (!decision || same_mapping(decision->mapping, running.mapping)) return;
  // nothing fed yet (the first data set is on its way), or every data set fed: nothing left to re-map
  if (running.gate->fed <= 0 || running.first + drain_limit(running) >= job_.settings.datasets) return;
  if (job_.remap.cost == RemapCost::handover || (decision->free && hands_over_))
    start_handover(running, *decision);
  else
    start_drain(running, *decision);
}

int RemapRun::drain_limit(const Segment& running) const
{
  // P_in stops: the data sets it offered are in flight. Under active replication P_in hands data set k to every
  // replica before it offers k + 1, and the fastest may already have output k: P_out then waits for k + 1, which
  // the segment still runs.
  const int output = static_cast<int>(outputs_.size()) - running.first;
  return std::max(running.gate->fed, output + 1);
}

RemapStart RemapRun::begin_remap(Segment& running, const RemapDecision& decision)
{
  running.gate->limit = drain_limit(running); // P_in feeds the running mapping the data sets < k* only
  RemapStart start;
  RemapRecord& record = start.record;
  record.time         = sg4::Engine::get_clock();
  record.dataset      = running.first + running.gate->limit;
  record.reason       = decision.reason;
  record.from         = to_text(running.mapping, job_.platform);
  record.to           = to_text(decision.mapping, job_.platform);
  start.moves = state_moves(running.mapping, decision.mapping, job_.pipeline.n(), job_.remap, &start.moved, dead_at_,
                            record.time);
  if (decision.free) start.moves.clear(); // no state moved, no restart
  for (const auto& [pair, bytes] : start.moves)
    record.bytes += bytes;
  meter_.mark_remap(record.dataset);
  undisturbed_.push_back(meter_.last_undisturbed_period());
  return start;
}

void RemapRun::start_drain(Segment& running, const RemapDecision& decision)
{
  RemapStart start = begin_remap(running, decision);
  pending_         = make_segment(decision.mapping, start.record.dataset);
  remaps_.push_back(start.record);
  switching_           = true;
  const bool restart   = start.moved && !decision.free;
  const auto moves     = std::move(start.moves);
  running.gate->on_end = [this, index = remaps_.size() - 1, moves, restart] {
    hand_over(index, moves, restart, pending_);
  };
}

void RemapRun::hand_over(std::size_t index, std::map<std::pair<int, int>, double> moves, bool restart,
                         std::unique_ptr<Segment>& next)
{
  handing_over_        = true;
  RemapRecord& record  = remaps_[index];
  const double drained = sg4::Engine::get_clock();
  // the data sets the old segment did not output and the new one does not run are lost (a crash): each keeps its
  // place in outputs_ (a placeholder, left out of the result) so that a data set's index stays its output's
  record.lost = next->first - static_cast<int>(outputs_.size());
  for (int k = static_cast<int>(outputs_.size()); k < next->first; ++k) {
    lost_positions_.push_back(k);
    outputs_.push_back(drained);
  }
  lost_ += std::max(record.lost, 0);
  record.drain = drained - record.time;
  std::vector<sg4::CommPtr> comms;
  for (const auto& [pair, bytes] : moves) {
    if (bytes <= 0) continue;
    sg4::Host* from = sg4::Host::by_name(job_.platform.node_name(pair.first));
    sg4::Host* to   = sg4::Host::by_name(job_.platform.node_name(pair.second));
    if (!from->is_on() || !to->is_on()) continue; // a processor crashed since the decision: nothing to move
    comms.push_back(sg4::Comm::sendto_async(from, to, static_cast<std::uint64_t>(std::llround(bytes * size_scale_))));
  }
  for (const sg4::CommPtr& c : comms)
    try {
      c->wait();
    } catch (const simgrid::NetworkFailureException&) { // its source or destination crashed meanwhile: a lost state
    }
  record.transfer = sg4::Engine::get_clock() - drained;
  if (restart && job_.remap.restart > 0) sg4::this_actor::sleep_for(job_.remap.restart);
  record.restart = sg4::Engine::get_clock() - drained - record.transfer;
  switching_     = false;
  handing_over_  = false;
  deploy_now(std::move(next));
}

namespace {
/// The periods before the first crash and after the last one, as Replication::outcome, over the whole run's outputs
/// (-1 without crashes or with fewer than 4 outputs on a side).
void set_crash_periods(FailureOutcome& f, const std::vector<double>& outputs, int cooldown)
{
  f.period_before = f.period_after = -1;
  if (f.crashes.empty()) return;
  std::vector<double> before, after;
  for (double t : outputs) {
    if (t < f.crashes.front().time) before.push_back(t);
    if (t > f.crashes.back().time) after.push_back(t);
  }
  auto period_of = [](const std::vector<double>& times, int tail) {
    const int n = static_cast<int>(times.size());
    return n < 4 ? -1.0 : measured_period(times, n / 2, std::min(tail, n / 4), 1);
  };
  f.period_before = period_of(before, 0);
  f.period_after  = period_of(after, cooldown);
}

/// Each re-map's fill and downtime, from the output of its first data set on the new mapping (when it was output).
/// A handover's fill is t_out(k*) - t_out(k* - 1): its transfers and restarts overlap the old mapping's last data sets.
void finish_remap_records(std::vector<RemapRecord>& remaps, const std::vector<double>& outputs,
                          const std::vector<double>& undisturbed, const std::vector<std::size_t>& handovers)
{
  for (std::size_t i = 0; i < remaps.size(); ++i) {
    RemapRecord& rec = remaps[i];
    if (rec.dataset >= static_cast<int>(outputs.size())) continue;
    const double out    = outputs[static_cast<std::size_t>(rec.dataset)];
    const bool handover = std::ranges::find(handovers, i) != handovers.end();
    rec.fill            = out - (rec.time + rec.drain + (handover ? 0 : rec.transfer + rec.restart));
    rec.downtime        = out - rec.time - undisturbed[i];
  }
}
} // namespace

SimulationResult RemapRun::result()
{
  meter_.close_windows(outputs_);
  SimulationResult r;
  const SimulationResult last = segments_.back()->deployment->result();
  std::map<std::string, ProcessorUsage> busy;
  for (const auto& seg : segments_) {
    SimulationResult part = seg.get() == segments_.back().get() ? last : seg->deployment->result();
    for (const ProcessorUsage& u : part.usage) {
      ProcessorUsage& b = busy.try_emplace(u.host, ProcessorUsage{u.host, 0, 0, 0}).first->second;
      b.compute += u.compute * part.makespan; // back to seconds: a part's fractions are of its own makespan
      b.send += u.send * part.makespan;
      b.receive += u.receive * part.makespan;
    }
    for (TraceEvent e : part.trace) {
      e.dataset += seg->first;
      r.trace.push_back(std::move(e));
    }
  }
  std::vector<bool> lost(outputs_.size(), false);
  for (int k : lost_positions_)
    lost[static_cast<std::size_t>(k)] = true;
  for (std::size_t k = 0; k < outputs_.size(); ++k)
    if (!lost[k]) r.output_times.push_back(outputs_[k]);
  r.failures           = last.failures;
  r.failures.delivered = static_cast<int>(r.output_times.size());
  r.failures.crashes.assign(schedule_.begin(), schedule_.begin() + static_cast<std::ptrdiff_t>(next_crash_));
  set_crash_periods(r.failures, r.output_times, run_.effective_cooldown());
  r.seed     = run_.seed;
  r.network  = run_.network;
  r.makespan = r.output_times.empty() ? 0 : r.output_times.back();
  if (failed_) {
    r.failures.verdict         = Verdict::failed;
    r.failures.failure_time    = failed_at_;
    const Mapping& m           = segments_.back()->mapping;
    const std::vector<int>& d  = segments_.back()->dead;
    r.failures.failed_interval = d.empty() || m.intervals_of(d.front()).empty() ? 0 : m.intervals_of(d.front()).front();
    r.makespan                 = failed_at_;
  }
  r.period = measured_period(r.output_times, run_.effective_warmup(), run_.effective_cooldown(), 1);
  for (auto& [host, u] : busy) {
    if (r.makespan > 0) {
      u.compute /= r.makespan;
      u.send /= r.makespan;
      u.receive /= r.makespan;
    }
    r.usage.push_back(u);
  }
  finish_remap_records(remaps_, outputs_, undisturbed_, handovers_);
  r.remaps           = remaps_;
  r.remap_windows    = static_cast<int>(meter_.windows().size());
  r.datasets_lost    = lost_;
  r.crashes_repaired = repaired_;
  return r;
}

SimulationResult run_remapping(const SimulationJob& job, const SimulationSettings& run, const PreparedEngine& engine)
{
  RemapRun controller(job, run, engine.size_scale);
  controller.start();
  run_engine(controller.first(), controller); // decide() does not use it: the controller holds its own segments
  SimulationResult result = controller.result();
  result.config           = engine.args;
  return result;
}

} // namespace detail
} // namespace pipesim

// The re-mapping controller: segments, drains, measurements (remap_controller.hpp).
#include "simulator/remap_controller.hpp"

#include "base/input_error.hpp"
#include "simulator/controller.hpp"
#include "simulator/deployment.hpp"
#include "simulator/remap_measure.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <simgrid/s4u.hpp>

namespace sg4 = simgrid::s4u;

namespace pipesim {

void check_remap_job(const SimulationJob& job)
{
  const SimulationSettings& s = job.settings;
  const ExecutionKind kind    = execution_kind(job);
  if (kind != ExecutionKind::one_port && kind != ExecutionKind::multi_port)
    throw InputError::keyed("dynamic",
                            fmt::format("re-mapping runs pipelines (one-port or multi-port), not {}", to_string(kind)));
  if (s.failures.enabled() || !s.crashes.empty())
    throw InputError::keyed("dynamic", "a re-mapping policy runs without failures (simulation.failures); repair after "
                                       "crashes (dynamic.on_crash: remap) is not built yet");
  if (s.precision > 0)
    throw InputError::keyed("dynamic", "a re-mapping run simulates simulation.datasets data sets; simulation.precision "
                                       "with a re-mapping policy is not built yet");
  if (!job.variability.deterministic())
    throw InputError::keyed("dynamic", "random operation times (pipeline.variability) with a re-mapping policy are "
                                       "not built yet (each segment would draw its own times)");
  if (job.remap.cost == RemapCost::handover)
    throw InputError::keyed("dynamic.cost", "handover", "not built yet (only 'drain' re-maps; docs/dynamic.md)");
  if (job.remap.window < 1) throw InputError::keyed("dynamic.window", job.remap.window, "expected >= 1");
  if (!(job.remap.check > 0) || !std::isfinite(job.remap.check))
    throw InputError::keyed("dynamic.check", job.remap.check, "expected a finite time > 0 (seconds)");
  if (!job.remap.state.empty() && static_cast<int>(job.remap.state.size()) != job.pipeline.n())
    throw InputError::keyed("dynamic.state",
                            fmt::format("{} sizes for {} stages (expected one per stage, or one number)",
                                        job.remap.state.size(), job.pipeline.n()));
}

namespace detail {

namespace {
/// One deployment of one mapping over the data sets [first, N) (it ends earlier when a drain lowers its limit).
struct Segment {
  Mapping mapping;
  int first = 0;
  std::shared_ptr<SegmentGate> gate;
  std::unique_ptr<Deployment> deployment;
};

/// The state transfers of a re-map: per (old node, new node) the bytes of the stages moving between them. A stage
/// moves to every processor that holds it in the new mapping and did not in the old one, from the first replica
/// that held it.
std::map<std::pair<int, int>, double> state_moves(const Mapping& from, const Mapping& to, int n,
                                                  const RemapSettings& settings, bool* moved)
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
      moves[{old_nodes.front(), v}] += settings.state_of(i);
    }
  }
  return moves;
}

class RemapRun final : public Controller {
public:
  RemapRun(const SimulationJob& job, const SimulationSettings& run, double size_scale)
      : job_(job), run_(run), size_scale_(size_scale), meter_(job.pipeline, job.platform, job.remap.window)
  {
    run_.progress = ProgressMode::off; // one progress line per segment would mislead
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
  void start_drain(Segment& running, const RemapDecision& decision);
  void hand_over(std::size_t record, std::map<std::pair<int, int>, double> moves, bool restart,
                 std::unique_ptr<Segment>& next);

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
};

std::unique_ptr<Segment> RemapRun::make_segment(const Mapping& mapping, int first)
{
  auto seg           = std::make_unique<Segment>();
  seg->mapping       = mapping;
  seg->first         = first;
  seg->gate          = std::make_shared<SegmentGate>();
  seg->gate->outputs = &outputs_;
  Segment* raw       = seg.get();
  seg->gate->probe   = [this, raw](Operation kind, int k, int j, double start, double end) {
    ++operations_;
    meter_.operation(raw->mapping, raw->first + k, kind, j, end - start);
  };
  SimulationJob job      = job_;
  job.mapping            = mapping;
  job.policy             = nullptr;
  SimulationSettings run = run_;
  run.datasets           = job_.settings.datasets - first;
  RunInputs inputs       = run_inputs(job, run, size_scale_);
  inputs.gate            = seg->gate;
  seg->deployment        = make_deployment(job, run, std::move(inputs)); // InputError: the mapping is refused
  return seg;
}

void RemapRun::deploy_now(std::unique_ptr<Segment> segment)
{
  segment->deployment->deploy();
  segments_.push_back(std::move(segment));
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
  return next;
}

void RemapRun::decide(Deployment&)
{
  meter_.close_windows(outputs_);
  if (switching_) return; // a drain is in progress: no decision until the new mapping runs
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
  seen_                                 = windows.size();
  std::optional<RemapDecision> decision = job_.policy->decide(view);
  if (!decision || same_mapping(decision->mapping, running.mapping)) return;
  // nothing fed yet (the first data set is on its way), or every data set fed: nothing left to re-map
  if (running.gate->fed <= 0 || running.first + drain_limit(running) >= job_.settings.datasets) return;
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

void RemapRun::start_drain(Segment& running, const RemapDecision& decision)
{
  running.gate->limit = drain_limit(running);
  const int kstar     = running.first + running.gate->limit;
  RemapRecord record;
  record.time    = sg4::Engine::get_clock();
  record.dataset = kstar;
  record.reason  = decision.reason;
  record.from    = to_text(running.mapping, job_.platform);
  record.to      = to_text(decision.mapping, job_.platform);
  bool moved     = false;
  auto moves     = state_moves(running.mapping, decision.mapping, job_.pipeline.n(), job_.remap, &moved);
  if (decision.free) moves.clear();
  for (const auto& [pair, bytes] : moves)
    record.bytes += bytes;
  pending_ = make_segment(decision.mapping, kstar);
  meter_.mark_remap(kstar);
  undisturbed_.push_back(meter_.last_undisturbed_period());
  remaps_.push_back(record);
  switching_           = true;
  const bool restart   = moved && !decision.free;
  running.gate->on_end = [this, index = remaps_.size() - 1, moves, restart] {
    hand_over(index, moves, restart, pending_);
  };
}

void RemapRun::hand_over(std::size_t index, std::map<std::pair<int, int>, double> moves, bool restart,
                         std::unique_ptr<Segment>& next)
{
  RemapRecord& record  = remaps_[index];
  const double drained = sg4::Engine::get_clock();
  record.drain         = drained - record.time;
  std::vector<sg4::CommPtr> comms;
  for (const auto& [pair, bytes] : moves) {
    if (bytes <= 0) continue;
    sg4::Host* from = sg4::Host::by_name(job_.platform.node_name(pair.first));
    sg4::Host* to   = sg4::Host::by_name(job_.platform.node_name(pair.second));
    comms.push_back(sg4::Comm::sendto_async(from, to, static_cast<std::uint64_t>(std::llround(bytes * size_scale_))));
  }
  for (const sg4::CommPtr& c : comms)
    c->wait();
  record.transfer = sg4::Engine::get_clock() - drained;
  if (restart && job_.remap.restart > 0) sg4::this_actor::sleep_for(job_.remap.restart);
  record.restart = sg4::Engine::get_clock() - drained - record.transfer;
  switching_     = false;
  deploy_now(std::move(next));
}

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
  r.output_times       = outputs_;
  r.failures           = last.failures;
  r.failures.delivered = static_cast<int>(outputs_.size());
  r.seed               = run_.seed;
  r.network            = run_.network;
  r.makespan           = outputs_.empty() ? 0 : outputs_.back();
  r.period             = measured_period(outputs_, run_.effective_warmup(), run_.effective_cooldown(), 1);
  for (auto& [host, u] : busy) {
    if (r.makespan > 0) {
      u.compute /= r.makespan;
      u.send /= r.makespan;
      u.receive /= r.makespan;
    }
    r.usage.push_back(u);
  }
  for (std::size_t i = 0; i < remaps_.size(); ++i) {
    RemapRecord& rec = remaps_[i];
    if (rec.dataset >= static_cast<int>(outputs_.size())) continue;
    const double out = outputs_[static_cast<std::size_t>(rec.dataset)];
    rec.fill         = out - (rec.time + rec.drain + rec.transfer + rec.restart);
    rec.downtime     = out - rec.time - undisturbed_[i];
  }
  r.remaps        = remaps_;
  r.remap_windows = static_cast<int>(meter_.windows().size());
  return r;
}
} // namespace

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

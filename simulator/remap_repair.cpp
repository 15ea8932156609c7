// Repair after crashes in a re-mapping run (DESIGN.md §3.5, §3.12, `on_crash: remap`; docs/dynamic.md, "Repair after
// crashes"): fail-silent crashes, the data sets lost with them, detection after d, the re-map on the survivors.
#include "simulator/remap_run.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <simgrid/s4u.hpp>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace pipesim::detail {

void RemapRun::crashes_until(double now)
{
  for (; next_crash_ < schedule_.size() && schedule_[next_crash_].time <= now; ++next_crash_) {
    const Crash& c = schedule_[next_crash_];
    auto u         = job_.platform.find(c.host);
    if (!u || *u >= job_.platform.p() || dead_at_[static_cast<std::size_t>(*u)] <= now) continue;
    dead_at_[static_cast<std::size_t>(*u)] = c.time;
    undetected_.emplace_back(*u, std::max(c.time, 0.0) + job_.remap.detect);
    turn_off(*u);
    if (!handing_over_ && mapping_uses(segments_.back()->mapping, *u)) crash_in_running(*u, now);
  }
}

void RemapRun::turn_off(int u) const
{
  // fail-silent (DESIGN.md §3.5): the processor stops, its actors and its transfers in progress with it, as in a run
  // without re-mapping (Replication::inject); its peers do not notice and wait for it (SegmentGate::silent_crashes).
  // Not a suspension of its actors: SimGrid 3.32 schedules a suspended actor twice when a peer ends one of its
  // transfers (a cancel, a kill at the segment's end), and the simulation crashes (docs/dynamic.md). From an actor,
  // as the injector does: the failed transfers end before the killed actors unwind.
  sg4::Host* host = sg4::Host::by_name(job_.platform.node_name(u));
  if (sg4::Actor::is_maestro())
    sg4::Actor::create("pipesim-crash", sg4::Host::by_name(job_.platform.in_name()), [host] { host->turn_off(); });
  else
    host->turn_off();
}

void RemapRun::crash_in_running(int u, double now)
{
  (void)now;
  Segment& running = *segments_.back();
  running.dead.push_back(u);
  const CrashLoss l = ledger_.loss(running.mapping, u);
  loss_.first       = std::min(loss_.first, l.first);
  loss_.end         = std::max(loss_.end, l.end);
  crashed_          = true; // its host is off since the crash (crashes_until): the segment runs on without it
  if (running.repairing) end_segment_at(running, loss_.first); // a later crash of a segment already being repaired
}

void RemapRun::detect(double now)
{
  for (auto it = undetected_.begin(); it != undetected_.end();) {
    if (it->second > now) {
      ++it;
      continue;
    }
    detected_.push_back(it->first);
    it = undetected_.erase(it);
  }
  if (!crashed_ || handing_over_) return;
  Segment& running = *segments_.back();
  if (running.repairing) return;
  if (std::ranges::none_of(running.dead, [&](int u) { return std::ranges::find(detected_, u) != detected_.end(); }))
    return;
  if (switching_) { // a policy's drain is on its way: it deploys its mapping, the data sets from loss_.first are lost
    running.repairing = true;
    end_segment_at(running, loss_.first);
    return;
  }
  repair(running, now);
}

std::string RemapRun::crash_reason(double now) const
{
  std::string names;
  for (int u : segments_.back()->dead)
    names += (names.empty() ? "" : ", ") + job_.platform.node_name(u);
  return fmt::format("crash of {} detected at {:.6g} s", names, now);
}

void RemapRun::repair(Segment& running, double now)
{
  running.repairing = true;
  RemapView view;
  view.now                              = now;
  view.platform                         = &job_.platform;
  view.mapping                          = &running.mapping;
  view.windows                          = &meter_.windows();
  view.new_windows                      = meter_.windows().size() - seen_;
  view.next_dataset                     = running.first + loss_.end;
  view.datasets                         = job_.settings.datasets;
  view.dead                             = &detected_;
  seen_                                 = meter_.windows().size();
  std::optional<RemapDecision> decision = job_.policy->repair(view);
  const int kstar                       = running.first + loss_.end;
  if (decision && std::ranges::any_of(detected_, [&](int u) { return mapping_uses(decision->mapping, u); }))
    throw std::logic_error("a re-mapping policy repaired a crash with a mapping on a dead processor");
  if (!decision || kstar >= job_.settings.datasets) {
    if (!decision) {
      failed_    = true; // no mapping on the survivors: the run fails, as without repair (DESIGN.md §3.5)
      failed_at_ = now;
    }
    running.gate->on_end = [this] { // every data set left is lost (or the run failed): nothing to deploy
      handing_over_ = true;
      for (int k = static_cast<int>(outputs_.size()); !failed_ && k < job_.settings.datasets; ++k) {
        lost_positions_.push_back(k);
        outputs_.push_back(sg4::Engine::get_clock());
        ++lost_;
      }
    };
    if (!failed_) repaired_ += static_cast<int>(running.dead.size());
    end_segment_at(running, loss_.first);
    return;
  }
  RemapRecord record;
  record.time    = now;
  record.dataset = kstar;
  record.reason  = crash_reason(now);
  record.from    = to_text(running.mapping, job_.platform);
  record.to      = to_text(decision->mapping, job_.platform);
  bool moved     = false;
  auto moves = state_moves(running.mapping, decision->mapping, job_.pipeline.n(), job_.remap, &moved, dead_at_, now);
  for (const auto& [pair, bytes] : moves)
    record.bytes += bytes;
  pending_ = make_segment(decision->mapping, kstar);
  meter_.mark_remap(kstar);
  undisturbed_.push_back(meter_.last_undisturbed_period());
  remaps_.push_back(record);
  switching_ = true;
  repaired_ += static_cast<int>(running.dead.size());
  running.gate->on_end = [this, index = remaps_.size() - 1, moves, moved] { hand_over(index, moves, moved, pending_); };
  end_segment_at(running, loss_.first);
}

void RemapRun::end_segment_at(Segment& running, int limit)
{
  running.gate->limit = std::min(running.gate->limit, limit);
  const int done      = static_cast<int>(outputs_.size()) - running.first;
  if (done < running.gate->limit || running.stopping) return; // P_out ends it after its next outputs
  running.stopping = true; // P_out waits for a data set that never comes: end the segment from an actor
  sg4::Actor::create("pipesim-repair", sg4::Host::by_name(job_.platform.in_name()),
                     [gate = running.gate] { gate->stop(); });
}

} // namespace pipesim::detail

// Re-mapping by handover (DESIGN.md §3.12, docs/dynamic.md "Handover"): the old mapping finishes the data sets before
// k* while the new one, deployed at the decision, starts each of its stations on k* once the old stations it depends
// on have finished theirs, its moved state has arrived and it paid its restart. No global stop.
#include "model/deal.hpp"
#include "simulator/remap_run.hpp"

#include <algorithm>
#include <cmath>
#include <simgrid/s4u.hpp>

namespace sg4 = simgrid::s4u;

namespace pipesim::detail {

int RemapRun::station_progress(const Segment& segment, int j, int node) const
{
  if (auto it = segment.progress.find({j, node}); it != segment.progress.end()) return it->second;
  // nothing reported yet: a dealt replica's data sets start at its index (deal: replica k mod R), others' at 0
  const Interval& in = segment.mapping.interval(j);
  if (!is_dealt(in)) return 0;
  for (std::size_t r = 0; r < in.replicas.size(); ++r)
    if (in.replicas[r].front() == node) return static_cast<int>(r);
  return 0;
}

void RemapRun::station_reached(Segment& segment, int j, int node, int k)
{
  int& done         = segment.progress.try_emplace({j, node}, 0).first->second;
  const bool passed = done < segment.gate->limit && k >= segment.gate->limit;
  done              = std::max(done, k);
  if (passed) // a handover's helpers wait for it (a semaphore counts the wake-ups: none is lost)
    for (const sg4::SemaphorePtr& w : segment.watchers)
      w->release();
}

std::unique_ptr<StationGate> RemapRun::station_gate(const Segment& old, const Mapping& next, int j, int node, bool free)
{
  auto g             = std::make_unique<StationGate>();
  g->j               = j;
  g->node            = node;
  const Interval& in = next.interval(j);
  // (a) every old station that holds one of its stages (their data sets < k* come first: states, P_in's and P_out's
  // order) or that runs on its processor (one-port: a processor computes for one segment at a time)
  for (int oj = 0; oj < old.mapping.m(); ++oj) {
    const Interval& o  = old.mapping.interval(oj);
    const bool overlap = o.first <= in.last && in.first <= o.last;
    for (const ProcessorGroup& group : o.replicas)
      if (overlap || group.front() == node) g->after.emplace_back(oj, group.front());
  }
  // (b) each stage it did not hold: its state S_i from the old interval's first replica, once that one is done
  for (int i = in.first; i <= in.last; ++i) {
    int oj = 0;
    while (!(old.mapping.interval(oj).first <= i && i <= old.mapping.interval(oj).last))
      ++oj;
    const Interval& o = old.mapping.interval(oj);
    if (std::ranges::any_of(o.replicas,
                            [&](const ProcessorGroup& group) { return std::ranges::find(group, node) != group.end(); }))
      continue;
    if (free) continue; // clairvoyant: no state, no restart
    g->restart                  = true;
    const std::pair<int, int> s = {oj, o.replicas.front().front()};
    auto move = std::ranges::find_if(g->moves, [&](const StationGate::Move& m) { return m.source == s; });
    if (move == g->moves.end()) move = g->moves.insert(g->moves.end(), StationGate::Move{s, 0, -1, nullptr});
    move->bytes += job_.remap.state_of(i);
  }
  g->wake  = sg4::Semaphore::create(0);
  g->start = sg4::Semaphore::create(0);
  return g;
}

void RemapRun::open_station(Segment& old, StationGate& g)
{
  const int limit = old.gate->limit;
  auto done       = [&](const std::pair<int, int>& s) { return station_progress(old, s.first, s.second) >= limit; };
  for (;;) {
    for (StationGate::Move& m : g.moves) // each state leaves as soon as its old station is done
      if (m.start < 0 && done(m.source)) {
        m.start = sg4::Engine::get_clock();
        if (m.bytes > 0)
          m.comm = sg4::Comm::sendto_async(sg4::Host::by_name(job_.platform.node_name(m.source.second)),
                                           sg4::Host::by_name(job_.platform.node_name(g.node)),
                                           static_cast<std::uint64_t>(std::llround(m.bytes * size_scale_)));
      }
    if (std::ranges::all_of(g.after, done)) break;
    g.wake->acquire();
  }
  RemapRecord& record = remaps_.back(); // no decision while a handover is in progress
  for (const StationGate::Move& m : g.moves)
    if (m.comm) {
      m.comm->wait();
      record.transfer = std::max(record.transfer, m.comm->get_finish_time() - m.start);
    }
  if (g.restart && job_.remap.restart > 0) {
    sg4::this_actor::sleep_for(job_.remap.restart);
    record.restart = job_.remap.restart;
  }
  g.start->release();
  handover_step_done();
}

void RemapRun::handover_step_done()
{
  if (--handover_left_ == 0) switching_ = false; // the old segment ended and every new station started
}

void RemapRun::start_handover(Segment& running, const RemapDecision& decision)
{
  const RemapRecord record      = begin_remap(running, decision).record; // k*, as a drain
  std::unique_ptr<Segment> next = make_segment(decision.mapping, record.dataset);
  handovers_.push_back(remaps_.size());
  remaps_.push_back(record);
  switching_ = true;
  station_gates_.clear();
  running.watchers.clear();
  std::map<std::pair<int, int>, sg4::SemaphorePtr> starts;
  for (int j = 0; j < decision.mapping.m(); ++j)
    for (const ProcessorGroup& group : decision.mapping.interval(j).replicas) {
      station_gates_.push_back(station_gate(running, decision.mapping, j, group.front(), decision.free));
      running.watchers.push_back(station_gates_.back()->wake);
      starts[{j, group.front()}] = station_gates_.back()->start;
    }
  handover_left_         = static_cast<int>(station_gates_.size()) + 1;
  next->gate->wait_start = [starts](int j, int node) { starts.at({j, node})->acquire(); };
  running.gate->on_end   = [this, old = &running, index = remaps_.size() - 1] { // in the old P_out, its actors killed
    remaps_[index].drain = sg4::Engine::get_clock() - remaps_[index].time;
    // every data set < k* is output, so every old station is done, even one killed before it could tell (or killed
    // while it woke the helpers: its last simcalls are dropped), so every helper is woken again
    for (int j = 0; j < old->mapping.m(); ++j)
      for (const ProcessorGroup& group : old->mapping.interval(j).replicas) {
          int& done = old->progress.try_emplace({j, group.front()}, 0).first->second;
          done      = std::max(done, old->gate->limit);
      }
    for (const sg4::SemaphorePtr& w : old->watchers)
      w->release();
    handover_step_done();
  };
  deploy_now(std::move(next));
  sg4::Host* io = sg4::Host::by_name(job_.platform.in_name());
  for (const auto& g : station_gates_)
    sg4::Actor::create("pipesim-handover", io, [this, old = &running, gate = g.get()] { open_station(*old, *gate); });
}

} // namespace pipesim::detail

// Timed event graph of the multi-port execution with allotted bandwidths: receive, compute and send overlap
// through bounded buffers (the simulator's multi-port actors).
#include "model/multiport_event_graph.hpp"

#include "base/input_error.hpp"
#include "model/allotment.hpp"
#include "model/deal.hpp"
#include "model/oneport_plan.hpp"

#include <fmt/format.h>

namespace pipesim {

namespace {

void require_one_interval_per_processor(const Mapping& mapping, const Platform& platform)
{
  for (int u : mapping.processors())
    if (auto held = mapping.intervals_of(u); held.size() > 1)
      throw InputError::keyed(interval_key(held[1]), platform.node_name(u),
                              fmt::format("multi-port event graph: this processor also holds mapping[{}]; intervals "
                                          "on one processor share its CPU (SimGrid's fair sharing), which no event "
                                          "graph models",
                                          held[0]));
}

/// What a station (interval j on one processor) does with its i-th data set of the round.
struct Entry {
  int dataset  = 0;
  int receive  = -1; // transfer (plan index)
  double flops = 0;
  int first    = 0; // stages computed
  int last     = 0;
  std::vector<int> sends; // transfers (plan index); empty when the station does not send
};

/// The transitions of one station, indexed by its data sets of the round; an index below 0 is in an earlier round.
struct Station {
  std::vector<Entry> entries;
  std::vector<int> compute, handover, send_begin; // transitions
  /// (transition, tokens) of activity `ts` for the station's data set i, i >= -k n for some k.
  std::pair<int, int> at(const std::vector<int>& ts, int i) const
  {
    int n      = static_cast<int>(ts.size());
    int rounds = i >= 0 ? 0 : (-i + n - 1) / n;
    return {ts[static_cast<std::size_t>(i + rounds * n)], rounds};
  }
};

std::vector<Entry> entries_of(const OnePortPlan::Program& program, const Mapping& mapping)
{
  std::vector<Entry> out;
  for (const auto& step : program.steps) {
    if (out.empty() || out.back().dataset != step.dataset) out.push_back(Entry{step.dataset, -1, 0, 0, 0, {}});
    Entry& e = out.back();
    if (step.kind == OnePortPlan::Step::Kind::receive) e.receive = step.transfer;
    if (step.kind == OnePortPlan::Step::Kind::compute) {
      e.flops = step.flops;
      e.first = mapping.interval(step.interval).first;
      e.last  = mapping.interval(step.interval).last;
    }
    if (step.kind == OnePortPlan::Step::Kind::send) e.sends.push_back(step.transfer);
  }
  return out;
}

/// Adds the transitions and places of the multi-port execution of a plan to a graph.
class Builder {
public:
  Builder(const Platform& platform, const OnePortPlan& plan, int buffer)
      : platform_(platform), plan_(plan), buffer_(buffer)
  {
    g_.datasets_per_round = plan.datasets;
  }

  /// One transition per transfer: c_{u,v} + its allotted time (bytes at the rate bytes / time, which the simulator
  /// sets: a drawn size X then takes X / rate).
  void add_transfers()
  {
    auto times = allotted_transfer_times(plan_, platform_);
    std::vector<bool> delivery(plan_.transfers.size(), false);
    for (int t : plan_.to_out)
      delivery[static_cast<std::size_t>(t)] = true;
    for (std::size_t t = 0; t < plan_.transfers.size(); ++t) {
      const auto& tr    = plan_.transfers[t];
      const double rate = times[t] > 0 ? tr.bytes / times[t] : unbounded;
      const double c    = platform_.latency(tr.from, tr.to);
      transfer_.push_back(
          g_.add_transition(fmt::format("T[{}->{}] S{}{}", name(tr.from), name(tr.to), tr.stage, data_set(tr.dataset)),
                            c + times[t], tr.dataset, delivery[t], EventGraph::Cost::size(tr.stage - 1, c, rate)));
    }
  }

  /// The station of a processor holding one interval: its receiver, computer and sender (see the header).
  void add_station(const OnePortPlan::Program& program, const Mapping& mapping)
  {
    Station s{entries_of(program, mapping), {}, {}, {}};
    const int u = program.processor;
    for (const Entry& e : s.entries) {
      s.compute.push_back(g_.add_transition(fmt::format("C[{}]{}", name(u), data_set(e.dataset)),
                                            e.flops / platform_.speed(u), e.dataset, false,
                                            EventGraph::Cost::work(e.first, e.last, platform_.speed(u))));
      s.handover.push_back(g_.add_transition(fmt::format("H[{}]{}", name(u), data_set(e.dataset)), 0, e.dataset));
      if (!e.sends.empty())
        s.send_begin.push_back(g_.add_transition(fmt::format("S[{}]{}", name(u), data_set(e.dataset)), 0, e.dataset));
    }
    const int n = static_cast<int>(s.entries.size());
    for (int i = 0; i < n; ++i) {
      const Entry& e    = s.entries[static_cast<std::size_t>(i)];
      const Entry& prev = s.entries[static_cast<std::size_t>((i + n - 1) % n)];
      const int wrap    = i == 0 ? 1 : 0; // tokens of a place from data set i-1
      const auto ui     = static_cast<std::size_t>(i);
      if (e.receive >= 0) {
        if (prev.receive >= 0) g_.add_place(tr(prev.receive), tr(e.receive), wrap); // one receive at a time
        place(s.at(s.handover, i - buffer_ - 1), tr(e.receive)); // an input slot: computing i - buffer has started
        g_.add_place(tr(e.receive), s.compute[ui], 0);
      }
      place(s.at(s.handover, i - 1), s.compute[ui]);
      g_.add_place(s.compute[ui], s.handover[ui], 0);
      if (s.send_begin.empty()) continue;
      place(s.at(s.send_begin, i - buffer_), s.handover[ui]); // an output slot: the sender began i - buffer
      g_.add_place(s.handover[ui], s.send_begin[ui], 0);
      for (int t : prev.sends) // every transfer of i-1 has ended
        g_.add_place(tr(t), s.send_begin[ui], wrap);
      for (int t : e.sends)
        g_.add_place(s.send_begin[ui], tr(t), 0);
    }
  }

  /// P_in sends data set k+1 to an active I_1 once every replica took k (a dealt I_1: nothing, replica by replica).
  void add_input(const Mapping& mapping)
  {
    if (is_dealt(mapping.interval(0))) return;
    for (int k = 0; k < plan_.datasets; ++k) {
      int next = (k + 1) % plan_.datasets;
      for (int a : plan_.from_in[static_cast<std::size_t>(k)])
        for (int b : plan_.from_in[static_cast<std::size_t>(next)])
          g_.add_place(tr(a), tr(b), k + 1 == plan_.datasets ? 1 : 0);
    }
  }

  EventGraph take() { return std::move(g_); }

private:
  const std::string& name(int u) const { return platform_.node_name(u); }
  std::string data_set(int k) const { return plan_.datasets > 1 ? fmt::format(" k={}", k) : std::string(); }
  int tr(int t) const { return transfer_[static_cast<std::size_t>(t)]; }
  void place(std::pair<int, int> from, int to) { g_.add_place(from.first, to, from.second); }

  const Platform& platform_;
  const OnePortPlan& plan_;
  int buffer_ = 1;
  EventGraph g_;
  std::vector<int> transfer_; // transition of each plan transfer
};

} // namespace

EventGraph build_multiport_event_graph(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                       int buffer, const std::vector<int>& senders)
{
  if (buffer < 1) throw InputError::keyed("simulation.buffer", buffer, "expected at least one data set");
  OnePortPlan plan = plan_oneport(pipeline, mapping, platform.in(), platform.out(), senders);
  require_one_interval_per_processor(mapping, platform);
  Builder builder(platform, plan, buffer);
  builder.add_transfers();
  for (const auto& program : plan.programs) // one station per processor
    builder.add_station(program, mapping);
  builder.add_input(mapping);
  return builder.take();
}

} // namespace pipesim

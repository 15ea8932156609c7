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
      throw InputError(fmt::format("multi-port event graph: processor {} holds intervals {} and {}; intervals on one "
                                   "processor share its CPU (SimGrid's fair sharing), which no event graph models",
                                   platform.node_name(u), held[0] + 1, held[1] + 1));
}

/// What a station (interval j on one processor) does with its i-th data set of the round.
struct Entry {
  int dataset  = 0;
  int receive  = -1; // transfer (plan index)
  double flops = 0;
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

std::vector<Entry> entries_of(const OnePortPlan::Program& program)
{
  std::vector<Entry> out;
  for (const auto& step : program.steps) {
    if (out.empty() || out.back().dataset != step.dataset) out.push_back(Entry{step.dataset, -1, 0, {}});
    Entry& e = out.back();
    if (step.kind == OnePortPlan::Step::Kind::receive) e.receive = step.transfer;
    if (step.kind == OnePortPlan::Step::Kind::compute) e.flops = step.flops;
    if (step.kind == OnePortPlan::Step::Kind::send) e.sends.push_back(step.transfer);
  }
  return out;
}

} // namespace

EventGraph build_multiport_event_graph(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                       int buffer, const std::vector<int>& senders)
{
  if (buffer < 1) throw InputError(fmt::format("multi-port event graph: buffer = {}: at least one data set", buffer));
  OnePortPlan plan = plan_oneport(pipeline, mapping, platform.in(), platform.out(), senders);
  require_one_interval_per_processor(mapping, platform);
  auto times = allotted_transfer_times(plan, platform);
  EventGraph g;
  g.datasets_per_round = plan.datasets;
  auto name            = [&](int u) { return platform.node_name(u); };
  auto data_set        = [&](int k) { return plan.datasets > 1 ? fmt::format(" k={}", k) : std::string(); };
  std::vector<bool> delivery(plan.transfers.size(), false);
  for (int t : plan.to_out)
    delivery[static_cast<std::size_t>(t)] = true;
  std::vector<int> transfer; // transition of each plan transfer
  for (std::size_t t = 0; t < plan.transfers.size(); ++t) {
    const auto& tr = plan.transfers[t];
    transfer.push_back(
        g.add_transition(fmt::format("T[{}->{}] S{}{}", name(tr.from), name(tr.to), tr.stage, data_set(tr.dataset)),
                         platform.latency(tr.from, tr.to) + times[t], tr.dataset, delivery[t]));
  }
  auto tr = [&](int t) { return transfer[static_cast<std::size_t>(t)]; };
  for (const auto& program : plan.programs) {
    Station s{entries_of(program), {}, {}, {}};
    const int u = program.processor;
    for (const Entry& e : s.entries) {
      s.compute.push_back(g.add_transition(fmt::format("C[{}]{}", name(u), data_set(e.dataset)),
                                           e.flops / platform.speed(u), e.dataset));
      s.handover.push_back(g.add_transition(fmt::format("H[{}]{}", name(u), data_set(e.dataset)), 0, e.dataset));
      if (!e.sends.empty())
        s.send_begin.push_back(g.add_transition(fmt::format("S[{}]{}", name(u), data_set(e.dataset)), 0, e.dataset));
    }
    const bool sends = !s.send_begin.empty();
    auto place       = [&](std::pair<int, int> from, int to) { g.add_place(from.first, to, from.second); };
    for (int i = 0; i < static_cast<int>(s.entries.size()); ++i) {
      const Entry& e    = s.entries[static_cast<std::size_t>(i)];
      const Entry& prev = s.entries[static_cast<std::size_t>((i + static_cast<int>(s.entries.size()) - 1) %
                                                             static_cast<int>(s.entries.size()))];
      const int wrap    = i == 0 ? 1 : 0; // tokens of a place from data set i-1
      const auto ui     = static_cast<std::size_t>(i);
      if (e.receive >= 0) {
        if (prev.receive >= 0) g.add_place(tr(prev.receive), tr(e.receive), wrap); // one receive at a time
        place(s.at(s.handover, i - buffer - 1), tr(e.receive)); // an input slot: computing i - buffer has started
        g.add_place(tr(e.receive), s.compute[ui], 0);
      }
      place(s.at(s.handover, i - 1), s.compute[ui]);
      g.add_place(s.compute[ui], s.handover[ui], 0);
      if (!sends) continue;
      place(s.at(s.send_begin, i - buffer), s.handover[ui]); // an output slot: the sender began i - buffer
      g.add_place(s.handover[ui], s.send_begin[ui], 0);
      for (int t : prev.sends) // every transfer of i-1 has ended
        g.add_place(tr(t), s.send_begin[ui], wrap);
      for (int t : e.sends)
        g.add_place(s.send_begin[ui], tr(t), 0);
    }
  }
  // P_in: data set k+1 to an active I_1 once every replica took k; a dealt I_1 replica by replica
  if (!is_dealt(mapping.interval(0)))
    for (int k = 0; k < plan.datasets; ++k) {
      int next = (k + 1) % plan.datasets;
      for (int a : plan.from_in[static_cast<std::size_t>(k)])
        for (int b : plan.from_in[static_cast<std::size_t>(next)])
          g.add_place(tr(a), tr(b), k + 1 == plan.datasets ? 1 : 0);
    }
  return g;
}

} // namespace pipesim

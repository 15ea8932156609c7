// Timed event graph of a one-port execution, its max-plus schedule and output times (the solver: max_cycle_ratio.cpp).
#include "model/event_graph.hpp"

#include "base/input_error.hpp"
#include "model/deal.hpp"
#include "model/oneport_plan.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <stdexcept>

namespace pipesim {

int EventGraph::add_transition(std::string label, double duration, int dataset, bool output, Cost cost)
{
  transitions.push_back(Transition{std::move(label), duration, dataset, output, cost});
  return static_cast<int>(transitions.size()) - 1;
}

void EventGraph::add_place(int from, int to, int tokens) { places.push_back(Place{from, to, tokens}); }

EventGraph build_oneport_event_graph(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                     const std::vector<int>& senders)
{
  OnePortPlan plan = plan_oneport(pipeline, mapping, platform.in(), platform.out(), senders);
  EventGraph g;
  g.datasets_per_round = plan.datasets;
  auto name            = [&](int u) { return platform.node_name(u); };
  auto data_set        = [&](int k) { return plan.datasets > 1 ? fmt::format(" k={}", k) : std::string(); };
  // A transfer is one transition shared by the programs of both of its ends (it occupies both, DESIGN.md §3.1).
  std::vector<int> transfer_transition;
  std::vector<bool> delivery(plan.transfers.size(), false);
  for (int t : plan.to_out)
    delivery[static_cast<std::size_t>(t)] = true;
  for (std::size_t t = 0; t < plan.transfers.size(); ++t) {
    const auto& tr = plan.transfers[t];
    transfer_transition.push_back(g.add_transition(
        fmt::format("T[{}->{}] S{}{}", name(tr.from), name(tr.to), tr.stage, data_set(tr.dataset)),
        platform.transfer_time(tr.from, tr.to, tr.bytes), tr.dataset, delivery[t],
        EventGraph::Cost::size(tr.stage - 1, platform.latency(tr.from, tr.to), platform.bandwidth(tr.from, tr.to))));
  }
  for (const auto& program : plan.programs) {
    std::vector<int> order;
    for (const auto& step : program.steps) {
      if (step.kind != OnePortPlan::Step::Kind::compute) {
        order.push_back(transfer_transition[static_cast<std::size_t>(step.transfer)]);
        continue;
      }
      const Interval& in = mapping.interval(step.interval);
      order.push_back(g.add_transition(
          fmt::format("C[{}] S{}-{}{}", name(program.processor), in.first, in.last, data_set(step.dataset)),
          step.flops / platform.speed(program.processor), step.dataset, false,
          EventGraph::Cost::work(in.first, in.last, platform.speed(program.processor))));
    }
    for (std::size_t k = 0; k + 1 < order.size(); ++k)
      g.add_place(order[k], order[k + 1], 0);
    g.add_place(order.back(), order.front(), 1); // the next round starts after this one
  }
  // P_in offers data set k+1 to an actively replicated I_1 once every replica has taken k (docs/semantics.md); a
  // dealt I_1 is fed replica by replica, as fast as each takes its data sets. P_out takes every delivery at once.
  if (!is_dealt(mapping.interval(0)))
    for (int k = 0; k < plan.datasets; ++k) {
      int next   = (k + 1) % plan.datasets;
      int tokens = k + 1 == plan.datasets ? 1 : 0;
      for (int a : plan.from_in[static_cast<std::size_t>(k)])
        for (int b : plan.from_in[static_cast<std::size_t>(next)])
          g.add_place(transfer_transition[static_cast<std::size_t>(a)],
                      transfer_transition[static_cast<std::size_t>(b)], tokens);
    }
  return g;
}

std::optional<std::vector<int>> token_free_order(const EventGraph& graph)
{
  const std::size_t n = graph.transitions.size();
  std::vector<std::vector<int>> zero_out(n);
  std::vector<int> indegree(n, 0);
  for (const auto& p : graph.places)
    if (p.tokens == 0) {
      zero_out[static_cast<std::size_t>(p.from)].push_back(p.to);
      ++indegree[static_cast<std::size_t>(p.to)];
    }
  std::vector<int> order; // Kahn's algorithm: the transitions no token-free place enters, then what they release
  for (std::size_t v = 0; v < n; ++v)
    if (indegree[v] == 0) order.push_back(static_cast<int>(v));
  for (std::size_t k = 0; k < order.size(); ++k)
    for (int w : zero_out[static_cast<std::size_t>(order[k])])
      if (--indegree[static_cast<std::size_t>(w)] == 0) order.push_back(w);
  if (order.size() < n) return std::nullopt; // the rest lies on or after a token-free cycle
  return order;
}

std::vector<std::vector<double>> event_graph_schedule(const EventGraph& g, int rounds)
{
  const std::size_t n                         = g.transitions.size();
  const std::optional<std::vector<int>> order = token_free_order(g);
  if (!order) throw std::logic_error("event graph: deadlock (token-free cycle)");
  std::vector<std::vector<const EventGraph::Place*>> in_places(n);
  for (const auto& p : g.places)
    in_places[static_cast<std::size_t>(p.to)].push_back(&p);
  std::vector<std::vector<double>> start(static_cast<std::size_t>(rounds), std::vector<double>(n, 0.0));
  for (int r = 0; r < rounds; ++r)
    for (int v : *order) {
      double t = 0;
      for (const auto* p : in_places[static_cast<std::size_t>(v)]) {
        int from_round = r - p->tokens;
        if (from_round >= 0)
          t = std::max(t, start[static_cast<std::size_t>(from_round)][static_cast<std::size_t>(p->from)] +
                              g.transitions[static_cast<std::size_t>(p->from)].duration);
      }
      start[static_cast<std::size_t>(r)][static_cast<std::size_t>(v)] = t;
    }
  return start;
}

std::vector<double> event_graph_output_times(const EventGraph& g, int datasets)
{
  const int per_round = g.datasets_per_round;
  const int rounds    = (datasets + per_round - 1) / per_round;
  auto start          = event_graph_schedule(g, rounds);
  std::map<int, double> by_dataset;
  for (int r = 0; r < rounds; ++r)
    for (std::size_t t = 0; t < g.transitions.size(); ++t)
      if (g.transitions[t].output) {
        int k = r * per_round + g.transitions[t].dataset;
        if (k < datasets) by_dataset[k] = start[static_cast<std::size_t>(r)][t] + g.transitions[t].duration;
      }
  // order is preserved at P_out (DESIGN.md §3.7): data set k counts as output once 0..k have all arrived
  std::vector<double> out;
  for (const auto& kv : by_dataset)
    out.push_back(out.empty() ? kv.second : std::max(out.back(), kv.second));
  return out;
}

} // namespace pipesim

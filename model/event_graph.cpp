// Timed event graph of a one-port execution and its maximum cycle ratio (DESIGN.md §3.6).
#include "model/event_graph.hpp"

#include "base/input_error.hpp"
#include "model/oneport_plan.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/howard_cycle_ratio.hpp>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <stdexcept>

namespace pipesim {

int EventGraph::add_transition(std::string label, double duration, int dataset, bool output)
{
  transitions.push_back(Transition{std::move(label), duration, dataset, output});
  return static_cast<int>(transitions.size()) - 1;
}

void EventGraph::add_place(int from, int to, int tokens) { places.push_back(Place{from, to, tokens}); }

EventGraph build_oneport_event_graph(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                     const std::vector<int>& senders)
{
  OnePortPlan plan = plan_oneport(pipeline, mapping, platform.in(), platform.out(), senders);
  EventGraph g;
  auto name = [&](int u) { return platform.node_name(u); };
  // A transfer is one transition shared by the programs of both of its ends (it occupies both, DESIGN.md §3.1).
  std::vector<int> transfer_transition;
  for (std::size_t t = 0; t < plan.transfers.size(); ++t) {
    const auto& tr = plan.transfers[t];
    transfer_transition.push_back(g.add_transition(fmt::format("T[{}->{}] S{}", name(tr.from), name(tr.to), tr.stage),
                                                   platform.transfer_time(tr.from, tr.to, tr.bytes), 0,
                                                   static_cast<int>(t) == plan.to_out));
  }
  for (const auto& program : plan.programs) {
    std::vector<int> order;
    for (const auto& step : program.steps) {
      if (step.kind != OnePortPlan::Step::Kind::compute) {
        order.push_back(transfer_transition[static_cast<std::size_t>(step.transfer)]);
        continue;
      }
      const Interval& in = mapping.interval(step.interval);
      order.push_back(g.add_transition(fmt::format("C[{}] S{}-{}", name(program.processor), in.first, in.last),
                                       step.flops / platform.speed(program.processor)));
    }
    for (std::size_t k = 0; k + 1 < order.size(); ++k)
      g.add_place(order[k], order[k + 1], 0);
    g.add_place(order.back(), order.front(), 1); // data set k+1 starts after data set k
  }
  // P_in offers data set k+1 once every replica of I_1 has taken k; P_out receives in order.
  for (int a : plan.from_in)
    for (int b : plan.from_in)
      g.add_place(transfer_transition[static_cast<std::size_t>(a)], transfer_transition[static_cast<std::size_t>(b)],
                  1);
  int out = transfer_transition[static_cast<std::size_t>(plan.to_out)];
  g.add_place(out, out, 1);
  return g;
}

namespace {

/// A cycle of places with no token, or empty.
std::vector<int> token_free_cycle(const EventGraph& g)
{
  const int n = static_cast<int>(g.transitions.size());
  std::vector<std::vector<int>> out(static_cast<std::size_t>(n));
  for (const auto& p : g.places)
    if (p.tokens == 0) out[static_cast<std::size_t>(p.from)].push_back(p.to);
  std::vector<int> state(static_cast<std::size_t>(n), 0), parent(static_cast<std::size_t>(n), -1);
  for (int s = 0; s < n; ++s) {
    if (state[static_cast<std::size_t>(s)] != 0) continue;
    std::vector<std::pair<int, std::size_t>> stack{{s, 0}};
    state[static_cast<std::size_t>(s)] = 1;
    while (!stack.empty()) {
      auto& [v, i]     = stack.back();
      const auto& next = out[static_cast<std::size_t>(v)];
      if (i == next.size()) {
        state[static_cast<std::size_t>(v)] = 2;
        stack.pop_back();
        continue;
      }
      int w = next[i++];
      if (state[static_cast<std::size_t>(w)] == 1) { // back edge: cycle w -> ... -> v -> w
        std::vector<int> cycle;
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
          cycle.push_back(it->first);
          if (it->first == w) break;
        }
        std::reverse(cycle.begin(), cycle.end());
        return cycle;
      }
      if (state[static_cast<std::size_t>(w)] == 0) {
        state[static_cast<std::size_t>(w)] = 1;
        stack.emplace_back(w, 0);
      }
    }
  }
  return {};
}

/// Tolerance for Howard's policy improvement on the normalised graph (durations scaled to at most 1).
struct RelativeTraits {
  using value_type = double;
  static double infinity() { return std::numeric_limits<double>::infinity(); }
  static double epsilon() { return -1e-12; }
};

/// Ratio of a cycle given as transitions (consecutive places chosen with the fewest tokens among parallel ones
/// is not needed: the cycle is given by places).
double ratio_of(const EventGraph& g, const std::vector<int>& places)
{
  double time = 0;
  int tokens  = 0;
  for (int p : places) {
    time += g.transitions[static_cast<std::size_t>(g.places[static_cast<std::size_t>(p)].from)].duration;
    tokens += g.places[static_cast<std::size_t>(p)].tokens;
  }
  return time / tokens;
}

/// A cycle (as places) whose ratio exceeds lambda, found by Bellman-Ford on weights duration - lambda * tokens.
std::vector<int> better_cycle(const EventGraph& g, double lambda)
{
  const std::size_t n = g.transitions.size();
  std::vector<double> dist(n, 0.0);
  std::vector<int> via(n, -1); // place used to reach the vertex
  int changed = -1;
  for (std::size_t round = 0; round <= n; ++round) {
    changed = -1;
    for (std::size_t p = 0; p < g.places.size(); ++p) {
      const auto& pl = g.places[p];
      double w       = g.transitions[static_cast<std::size_t>(pl.from)].duration - lambda * pl.tokens;
      double cand    = dist[static_cast<std::size_t>(pl.from)] + w;
      double& d      = dist[static_cast<std::size_t>(pl.to)];
      if (cand > d + 1e-12 * std::max(1.0, std::fabs(d))) {
        d                                    = cand;
        via[static_cast<std::size_t>(pl.to)] = static_cast<int>(p);
        changed                              = pl.to;
      }
    }
    if (changed < 0) return {};
  }
  int v = changed;
  for (std::size_t k = 0; k < n; ++k)
    v = g.places[static_cast<std::size_t>(via[static_cast<std::size_t>(v)])].from;
  std::vector<int> cycle;
  int x = v;
  do {
    int p = via[static_cast<std::size_t>(x)];
    cycle.push_back(p);
    x = g.places[static_cast<std::size_t>(p)].from;
  } while (x != v && cycle.size() <= n);
  std::reverse(cycle.begin(), cycle.end());
  return cycle;
}

} // namespace

CycleRatioResult max_cycle_ratio(const EventGraph& g)
{
  CycleRatioResult result;
  if (auto cycle = token_free_cycle(g); !cycle.empty()) {
    result.deadlock       = true;
    result.critical_cycle = cycle;
    return result;
  }
  using Graph = boost::adjacency_list<
      boost::vecS, boost::vecS, boost::directedS, boost::no_property,
      boost::property<boost::edge_weight_t, double,
                      boost::property<boost::edge_weight2_t, double, boost::property<boost::edge_index_t, int>>>>;
  double scale = 0;
  for (const auto& t : g.transitions)
    scale = std::max(scale, t.duration);
  if (scale <= 0) scale = 1;
  Graph bg(g.transitions.size());
  for (std::size_t p = 0; p < g.places.size(); ++p) {
    const auto& pl = g.places[p];
    auto e         = boost::add_edge(static_cast<std::size_t>(pl.from), static_cast<std::size_t>(pl.to), bg).first;
    boost::put(boost::edge_weight, bg, e, g.transitions[static_cast<std::size_t>(pl.from)].duration / scale);
    boost::put(boost::edge_weight2, bg, e, static_cast<double>(pl.tokens));
    boost::put(boost::edge_index, bg, e, static_cast<int>(p));
  }
  std::vector<boost::graph_traits<Graph>::edge_descriptor> critical;
  boost::maximum_cycle_ratio(bg, boost::get(boost::vertex_index, bg), boost::get(boost::edge_weight, bg),
                             boost::get(boost::edge_weight2, bg), &critical, RelativeTraits());
  std::vector<int> places;
  for (const auto& e : critical)
    places.push_back(boost::get(boost::edge_index, bg, e));
  // Exact value from the critical cycle itself, then repair while a cycle with a larger ratio exists (Boost stops
  // after 100 policy rounds or within its tolerance).
  double lambda = places.empty() ? 0 : ratio_of(g, places);
  for (int guard = 0; guard < 10000; ++guard) {
    auto better = better_cycle(g, lambda * (1 + 1e-13));
    if (better.empty()) break;
    double r = ratio_of(g, better);
    if (!(r > lambda)) break;
    lambda = r;
    places = better;
  }
  result.period = lambda / g.datasets_per_round;
  for (int p : places)
    result.critical_cycle.push_back(g.places[static_cast<std::size_t>(p)].from);
  return result;
}

std::string CycleRatioResult::describe(const EventGraph& graph) const
{
  std::string out = deadlock ? "token-free cycle: " : "critical cycle: ";
  for (std::size_t k = 0; k < critical_cycle.size(); ++k)
    out += (k ? " -> " : "") + graph.transitions[static_cast<std::size_t>(critical_cycle[k])].label;
  return out;
}

std::vector<std::vector<double>> event_graph_schedule(const EventGraph& g, int rounds)
{
  if (!token_free_cycle(g).empty()) throw std::logic_error("event graph: deadlock (token-free cycle)");
  const std::size_t n = g.transitions.size();
  // topological order of the token-free places
  std::vector<std::vector<int>> zero_out(n);
  std::vector<int> indegree(n, 0);
  std::vector<std::vector<const EventGraph::Place*>> in_places(n);
  for (const auto& p : g.places) {
    in_places[static_cast<std::size_t>(p.to)].push_back(&p);
    if (p.tokens == 0) {
      zero_out[static_cast<std::size_t>(p.from)].push_back(p.to);
      ++indegree[static_cast<std::size_t>(p.to)];
    }
  }
  std::vector<int> order;
  for (std::size_t v = 0; v < n; ++v)
    if (indegree[v] == 0) order.push_back(static_cast<int>(v));
  for (std::size_t k = 0; k < order.size(); ++k)
    for (int w : zero_out[static_cast<std::size_t>(order[k])])
      if (--indegree[static_cast<std::size_t>(w)] == 0) order.push_back(w);
  std::vector<std::vector<double>> start(static_cast<std::size_t>(rounds), std::vector<double>(n, 0.0));
  for (int r = 0; r < rounds; ++r)
    for (int v : order) {
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
  std::vector<double> out;
  for (const auto& kv : by_dataset)
    out.push_back(kv.second);
  return out;
}

} // namespace pipesim

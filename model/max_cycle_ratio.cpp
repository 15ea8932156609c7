// Maximum cycle ratio of a timed event graph (DESIGN.md §3.6): Boost.Graph's Howard policy iteration with a
// tolerance fitted to the graph, then an exact check that repairs its answer.
#include "model/event_graph.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/howard_cycle_ratio.hpp>
#include <cmath>
#include <limits>

namespace pipesim {

namespace {

/// Tolerance of Howard's policy improvement (Boost reads it from static traits, hence the thread-local value set per
/// call). Boost's own default, an absolute -0.005, is wrong for times in seconds. Our graphs are normalised
/// (durations at most 1), but the potentials Howard computes are sums along paths as long as the graph, up to the
/// sum S of the durations, and carry rounding errors of many ulps of S: a tolerance below that noise makes every round
/// "improve" on noise until Boost's 100-round cap (an unrolled deal graph with L = 5,040, S ~ 5,000, spun for the full
/// 100 rounds with -1e-12 and -1e-11, and stopped after 9-14 rounds from -1e-10 on). So the tolerance is 1e-13 S
/// (at least 1e-12); the exact check below catches what it lets through.
struct HowardTraits {
  using value_type = double;
  static double infinity() { return std::numeric_limits<double>::infinity(); }
  static double epsilon() { return -tolerance; }
  static thread_local double tolerance;
};
thread_local double HowardTraits::tolerance = 1e-12;

/// Ratio of a cycle given as places.
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

/// A cycle (as places) of the predecessor graph of a Bellman-Ford search, or empty. `via[v]` is the place that
/// last improved v (-1: none).
std::vector<int> predecessor_cycle(const EventGraph& g, const std::vector<int>& via)
{
  const std::size_t n = via.size();
  std::vector<int> mark(n, -1); // walk that visited the vertex
  for (std::size_t s = 0; s < n; ++s) {
    int v = static_cast<int>(s);
    while (v >= 0 && mark[static_cast<std::size_t>(v)] < 0) {
      mark[static_cast<std::size_t>(v)] = static_cast<int>(s);
      int p                             = via[static_cast<std::size_t>(v)];
      v                                 = p < 0 ? -1 : g.places[static_cast<std::size_t>(p)].from;
    }
    if (v < 0 || mark[static_cast<std::size_t>(v)] != static_cast<int>(s)) continue;
    std::vector<int> cycle; // v is on a cycle of this walk
    int x = v;
    do {
      int p = via[static_cast<std::size_t>(x)];
      cycle.push_back(p);
      x = g.places[static_cast<std::size_t>(p)].from;
    } while (x != v);
    std::reverse(cycle.begin(), cycle.end());
    return cycle;
  }
  return {};
}

/// A cycle (as places) whose ratio exceeds lambda: Bellman-Ford (longest paths) on the weights duration - lambda *
/// tokens, from 0 everywhere. With no such cycle it settles, usually in a few passes (places are listed nearly in
/// program order). With one, the predecessor graph soon holds a cycle, and every cycle of it is such a cycle (an
/// improvement is strict): it is looked for after each pass, so the search does not run its n passes of O(E).
std::vector<int> better_cycle(const EventGraph& g, double lambda)
{
  const std::size_t n = g.transitions.size();
  std::vector<double> dist(n, 0.0);
  std::vector<int> via(n, -1); // place that last improved the vertex
  for (std::size_t round = 0; round <= n; ++round) {
    bool changed = false;
    for (std::size_t p = 0; p < g.places.size(); ++p) {
      const auto& pl = g.places[p];
      double w       = g.transitions[static_cast<std::size_t>(pl.from)].duration - lambda * pl.tokens;
      double cand    = dist[static_cast<std::size_t>(pl.from)] + w;
      double& d      = dist[static_cast<std::size_t>(pl.to)];
      if (cand > d + 1e-12 * std::max(1.0, std::fabs(d))) {
        d                                    = cand;
        via[static_cast<std::size_t>(pl.to)] = static_cast<int>(p);
        changed                              = true;
      }
    }
    if (!changed) return {};
    if (auto cycle = predecessor_cycle(g, via); !cycle.empty()) return cycle;
  }
  return predecessor_cycle(g, via);
}

/// Boost's Howard on the graph with durations scaled to at most 1: the places of the critical cycle it returns.
std::vector<int> howard_cycle(const EventGraph& g)
{
  using Graph = boost::adjacency_list<
      boost::vecS, boost::vecS, boost::directedS, boost::no_property,
      boost::property<boost::edge_weight_t, double,
                      boost::property<boost::edge_weight2_t, double, boost::property<boost::edge_index_t, int>>>>;
  double scale = 0;
  double sum   = 0;
  for (const auto& t : g.transitions) {
    scale = std::max(scale, t.duration);
    sum += t.duration;
  }
  if (scale <= 0) scale = 1;
  HowardTraits::tolerance = std::max(1e-12, 1e-13 * sum / scale);
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
                             boost::get(boost::edge_weight2, bg), &critical, HowardTraits());
  std::vector<int> places;
  for (const auto& e : critical)
    places.push_back(boost::get(boost::edge_index, bg, e));
  return places;
}

} // namespace

std::vector<int> token_free_cycle(const EventGraph& g)
{
  const int n = static_cast<int>(g.transitions.size());
  std::vector<std::vector<int>> out(static_cast<std::size_t>(n));
  for (const auto& p : g.places)
    if (p.tokens == 0) out[static_cast<std::size_t>(p.from)].push_back(p.to);
  std::vector<int> state(static_cast<std::size_t>(n), 0);
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

CycleRatioResult max_cycle_ratio(const EventGraph& g)
{
  CycleRatioResult result;
  if (auto cycle = token_free_cycle(g); !cycle.empty()) {
    result.deadlock       = true;
    result.critical_cycle = cycle;
    return result;
  }
  std::vector<int> places = howard_cycle(g);
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

} // namespace pipesim

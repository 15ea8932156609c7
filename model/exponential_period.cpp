// Stationary throughput of the marking chain by Gauss-Seidel, and the N.B.U.E. bracket.
#include "model/exponential_period.hpp"

#include "model/marking_chain.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <numeric>
#include <tuple>

namespace pipesim {

namespace {

/// The chain with in-edges, for Gauss-Seidel: pi_j = sum_{i -> j} pi_i rate / q_j.
struct Balance {
  std::vector<long long> in_begin;
  std::vector<int> source;
  std::vector<double> rate;
  std::vector<double> out_rate; // q_j, self-loops left out

  explicit Balance(const MarkingChain& c)
  {
    const auto s = static_cast<std::size_t>(c.states);
    std::vector<long long> count(s + 1, 0);
    out_rate.assign(s, 0.0);
    for (std::size_t i = 0; i < s; ++i)
      for (auto e = static_cast<std::size_t>(c.out_begin[i]); e < static_cast<std::size_t>(c.out_begin[i + 1]); ++e)
        if (static_cast<std::size_t>(c.target[e]) != i) {
          ++count[static_cast<std::size_t>(c.target[e]) + 1];
          out_rate[i] += c.rate[static_cast<std::size_t>(c.transition[e])];
        }
    std::partial_sum(count.begin(), count.end(), count.begin());
    in_begin = count;
    source.resize(static_cast<std::size_t>(count[s]));
    rate.resize(static_cast<std::size_t>(count[s]));
    for (std::size_t i = 0; i < s; ++i)
      for (auto e = static_cast<std::size_t>(c.out_begin[i]); e < static_cast<std::size_t>(c.out_begin[i + 1]); ++e)
        if (auto j = static_cast<std::size_t>(c.target[e]); j != i) {
          auto at    = static_cast<std::size_t>(count[j]++);
          source[at] = static_cast<int>(i);
          rate[at]   = c.rate[static_cast<std::size_t>(c.transition[e])];
        }
  }
  void sweep(std::vector<double>& pi) const
  {
    double total = 0;
    for (std::size_t j = 0; j < pi.size(); ++j) {
      double in = 0;
      for (auto e = static_cast<std::size_t>(in_begin[j]); e < static_cast<std::size_t>(in_begin[j + 1]); ++e)
        in += pi[static_cast<std::size_t>(source[e])] * rate[e];
      pi[j] = in / out_rate[j];
      total += pi[j];
    }
    for (double& p : pi)
      p /= total;
  }
};

/// Throughput of each timed transition under pi.
std::vector<double> throughputs(const MarkingChain& c, const std::vector<double>& pi)
{
  std::vector<double> x(c.rate.size(), 0.0);
  for (std::size_t i = 0; i < pi.size(); ++i)
    for (auto e = static_cast<std::size_t>(c.out_begin[i]); e < static_cast<std::size_t>(c.out_begin[i + 1]); ++e)
      x[static_cast<std::size_t>(c.transition[e])] += pi[i] * c.rate[static_cast<std::size_t>(c.transition[e])];
  return x;
}

/// Gauss-Seidel until the throughput of `tau` (through the states listed in `enabled`) has converged: its relative
/// change delta_k, with the contraction rho = delta_k / delta_{k-1} (geometric mean of the last 5), bounds the error
/// left by delta_k rho / (1 - rho).
int solve(const Balance& balance, const MarkingChain& c, int tau, const ExponentialOptions& o, std::vector<double>& pi)
{
  std::vector<int> enabled;
  for (std::size_t i = 0; i + 1 < c.out_begin.size(); ++i)
    for (auto e = c.out_begin[i]; e < c.out_begin[i + 1]; ++e)
      if (c.transition[static_cast<std::size_t>(e)] == tau) enabled.push_back(static_cast<int>(i));
  auto x_of = [&] {
    double x = 0;
    for (int i : enabled)
      x += pi[static_cast<std::size_t>(i)];
    return x * c.rate[static_cast<std::size_t>(tau)];
  };
  std::vector<double> deltas;
  double x = x_of();
  for (int sweep = 1; sweep <= o.max_sweeps; ++sweep) {
    balance.sweep(pi);
    const double y     = x_of();
    const double delta = std::abs(y - x) / y;
    x                  = y;
    deltas.push_back(delta);
    if (delta == 0) return sweep;
    if (deltas.size() < 6) continue;
    const double rho = std::pow(delta / deltas[deltas.size() - 6], 0.2);
    if (rho < 1 && delta * rho / (1 - rho) < o.tolerance) return sweep;
  }
  return -1;
}

/// A random draw (a law that is not constant, a positive mean) that feeds two transitions, as "w_2 of data set 0 of the
/// round (C[P1] S2, C[P2] S2)", or nothing.
std::optional<std::string> shared_draw(const EventGraph& graph, const Variability& v)
{
  using Kind = EventGraph::Cost::Kind;
  std::map<std::tuple<Kind, int, int>, int> user; // (quantity, index, data set of the round) -> first transition
  auto use = [&](const EventGraph::Transition& t, Kind kind, int i) -> std::optional<std::string> {
    const bool work = kind == Kind::work;
    if ((work ? v.work_law(i) : v.size_law(i)).constant() || (work ? v.means().work(i) : v.means().data(i)) == 0)
      return std::nullopt;
    auto [it, added] = user.try_emplace({kind, i, t.dataset}, static_cast<int>(&t - graph.transitions.data()));
    if (added) return std::nullopt;
    return fmt::format("{}_{} of a data set feeds {} and {}", work ? "w" : "delta", i,
                       graph.transitions[static_cast<std::size_t>(it->second)].label, t.label);
  };
  for (const auto& t : graph.transitions) {
    if (t.duration == 0 || t.cost.kind == Kind::none) continue;
    for (int i = t.cost.first; i <= t.cost.last; ++i)
      if (auto why = use(t, t.cost.kind, i)) return why;
  }
  return std::nullopt;
}

} // namespace

std::string ExponentialPeriod::to_string() const
{
  if (!period) return fmt::format("none ({}; {} states)", reason, states);
  return fmt::format("{:.12g} ({} states, {} sweeps)", *period, states, sweeps);
}

ExponentialPeriod exponential_period(const EventGraph& graph, const ExponentialOptions& options)
{
  ExponentialPeriod result;
  const MarkingChain chain = explore_markings(graph, options.max_states);
  result.states            = chain.states;
  result.edges             = static_cast<long long>(chain.target.size());
  if (!chain.complete) {
    result.reason = chain.reason;
    return result;
  }
  auto tau = std::find_if(chain.rate.begin(), chain.rate.end(), [](double r) { return r > 0; });
  if (tau == chain.rate.end()) { // every transition takes no time: the stream goes at infinite speed
    result.period = 0.0;
    result.reason = "every transition lasts 0";
    return result;
  }
  std::vector<double> pi(static_cast<std::size_t>(chain.states), 1.0 / static_cast<double>(chain.states));
  const Balance balance(chain);
  result.sweeps = solve(balance, chain, static_cast<int>(tau - chain.rate.begin()), options, pi);
  if (result.sweeps < 0) {
    result.sweeps = options.max_sweeps;
    result.reason =
        fmt::format("Gauss-Seidel did not converge to {} in {} sweeps", options.tolerance, options.max_sweeps);
    return result;
  }
  auto x       = throughputs(chain, pi);
  double x_tau = x[static_cast<std::size_t>(tau - chain.rate.begin())];
  for (std::size_t t = 0; t < x.size(); ++t)
    if (chain.rate[t] > 0) result.spread = std::max(result.spread, std::abs(x[t] - x_tau) / x_tau);
  result.period = 1.0 / (x_tau * graph.datasets_per_round);
  return result;
}

std::optional<std::string> exponential_mismatch(const EventGraph& graph, const Variability& v)
{
  using Kind = EventGraph::Cost::Kind;
  for (const auto& t : graph.transitions) {
    if (t.duration == 0) continue;
    const auto& c = t.cost;
    if (c.kind == Kind::none) return fmt::format("{} has a fixed duration", t.label);
    if (c.fixed > 0) return fmt::format("{} has a latency of {} s", t.label, c.fixed);
    if (c.kind == Kind::size && v.size_law(c.first).law() != Law::exponential)
      return fmt::format("{}: delta_{} is {}", t.label, c.first, v.size_law(c.first).to_string());
    int drawn = -1;
    for (int i = c.first; c.kind == Kind::work && i <= c.last; ++i) {
      if (v.means().work(i) == 0) continue;
      if (drawn >= 0) return fmt::format("{} computes w_{} + w_{}: a sum of draws", t.label, drawn, i);
      drawn = i;
      if (v.work_law(i).law() != Law::exponential)
        return fmt::format("{}: w_{} is {}", t.label, i, v.work_law(i).to_string());
    }
  }
  return shared_draw(graph, v);
}

NbueBracket nbue_bracket(const EventGraph& graph, const Variability& v, double lower,
                         const ExponentialPeriod& exponential)
{
  NbueBracket b;
  b.lower           = lower;
  const auto shared = shared_draw(graph, v);
  b.independent     = !shared;
  if (auto bad = v.first_not_nbue()) {
    b.reason = fmt::format("{} is not N.B.U.E.", *bad);
    return b;
  }
  b.applies = true;
  b.reason  = "every law is N.B.U.E. (Algorithmica 2014 §5)";
  if (shared) b.reason += fmt::format("; outside the theorem's independence: {}", *shared);
  b.upper = exponential.period;
  if (!exponential.period) b.reason += fmt::format("; no upper bound: {}", exponential.reason);
  return b;
}

NbueBracket nbue_bracket(const EventGraph& graph, const Variability& v, const ExponentialOptions& options)
{
  const auto ratio = max_cycle_ratio(graph);
  if (ratio.deadlock) {
    NbueBracket b;
    b.reason = "the event graph has a cycle without tokens (deadlock)";
    return b;
  }
  if (v.first_not_nbue()) return nbue_bracket(graph, v, ratio.period, ExponentialPeriod{});
  return nbue_bracket(graph, v, ratio.period, exponential_period(graph, options));
}

std::string NbueBracket::to_string() const
{
  std::string up = upper ? fmt::format("{:.10g}", *upper) : "?";
  return fmt::format("{:.10g} <= period <= {} ({})", lower, up, applies ? reason : "does not apply: " + reason);
}

} // namespace pipesim

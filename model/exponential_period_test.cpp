// The exponential period (chain of markings) against the closed form of a 2-stage blocking line and against an
// independent chain of the blocking line written from its description (n = 3..5); the chain's refusals.
#include "model/exponential_period.hpp"

#include "model/event_graph.hpp"
#include "model/marking_chain.hpp"
#include "model/multiport_event_graph.hpp"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <vector>

using namespace pipesim;

namespace {

/// A one-to-one line: stage i on processor P_i of speed 1, w_i = 1 / mu_i, messages of size 0 (transfers take no
/// time), no latency.
struct ExponentialLine {
  Pipeline pipeline;
  Platform platform;
  Mapping mapping;
  explicit ExponentialLine(const std::vector<double>& mu)
  {
    std::vector<Processor> procs;
    std::vector<std::pair<int, int>> intervals;
    std::vector<int> alloc;
    for (std::size_t i = 0; i < mu.size(); ++i) {
      pipeline.w.push_back(1 / mu[i]);
      procs.push_back(Processor{"P" + std::to_string(i + 1)});
      intervals.push_back({static_cast<int>(i) + 1, static_cast<int>(i) + 1});
      alloc.push_back(static_cast<int>(i));
    }
    pipeline.delta.assign(mu.size() + 1, 0.0);
    platform = Platform(procs, "in", "out", 1.0, 0.0);
    mapping  = make_interval_mapping(intervals, alloc);
  }
};

/// Period of the line with a zero-buffer blocking-after-service chain built from the line's description, not from the
/// event graph: each stage is idle (0: waiting for its input), computing (1) or blocked (2: done, waiting until the
/// next stage is idle; a rendezvous, pipesim's one-port transfer of 0 bytes). P_in feeds stage 1 as soon as it is
/// idle, P_out takes stage n's output at once. Solved densely (Gaussian elimination with partial pivoting).
double blocking_line_period(const std::vector<double>& mu)
{
  const std::size_t n = mu.size();
  using State         = std::vector<int>;
  auto settle         = [&](State s) {
    for (bool changed = true; changed;) {
      changed = false;
      if (s[n - 1] == 2) s[n - 1] = 0, changed = true; // P_out takes it
      for (std::size_t i = 0; i + 1 < n; ++i)
        if (s[i] == 2 && s[i + 1] == 0) s[i] = 0, s[i + 1] = 1, changed = true; // transfer, next starts computing
      if (s[0] == 0) s[0] = 1, changed = true;                                  // P_in feeds stage 1
    }
    return s;
  };
  std::map<State, int> index;
  std::vector<State> states{settle(State(n, 0))};
  index[states[0]] = 0;
  std::vector<std::vector<double>> q(1, std::vector<double>(1, 0.0));
  for (std::size_t a = 0; a < states.size(); ++a)
    for (std::size_t i = 0; i < n; ++i) {
      if (states[a][i] != 1) continue;
      State next = states[a];
      next[i]    = 2;
      next       = settle(next);
      if (!index.count(next)) {
        index[next] = static_cast<int>(states.size());
        states.push_back(next);
        for (auto& row : q)
          row.push_back(0.0);
        q.push_back(std::vector<double>(states.size(), 0.0));
      }
      auto b = static_cast<std::size_t>(index[next]);
      q[a][b] += mu[i];
      q[a][a] -= mu[i];
    }
  // pi Q = 0 and sum pi = 1: solve Q^T pi = 0 with the last equation replaced by the normalisation
  const std::size_t s = states.size();
  std::vector<std::vector<double>> a(s, std::vector<double>(s + 1, 0.0));
  for (std::size_t r = 0; r < s; ++r)
    for (std::size_t c = 0; c < s; ++c)
      a[r][c] = r + 1 == s ? 1.0 : q[c][r];
  a[s - 1][s] = 1.0;
  for (std::size_t c = 0; c < s; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < s; ++r)
      if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
    std::swap(a[c], a[pivot]);
    for (std::size_t r = 0; r < s; ++r)
      if (r != c) {
        double f = a[r][c] / a[c][c];
        for (std::size_t k = c; k <= s; ++k)
          a[r][k] -= f * a[c][k];
      }
  }
  double throughput = 0; // stage n completes at rate mu_n while computing
  for (std::size_t r = 0; r < s; ++r)
    if (states[r][n - 1] == 1) throughput += a[r][s] / a[r][r] * mu[n - 1];
  return 1 / throughput;
}

ExponentialPeriod line_period(const std::vector<double>& mu)
{
  ExponentialLine line(mu);
  return exponential_period(build_oneport_event_graph(line.pipeline, line.platform, line.mapping));
}

} // namespace

TEST(ExponentialPeriod, TwoStageLineMatchesTheClosedForm)
{
  // Two stages, rates mu1 (stage 1) and mu2 (stage 2), zero-size rendezvous transfers. P_in always has the next data
  // set, so stage 1 is never idle; P_out is always ready, so stage 2 is never blocked. Three states (stage 1, stage 2):
  //   A = (computing, idle), B = (computing, computing), C = (blocked, computing).
  //   A -mu1-> B (stage 1 hands over at once and starts the next data set);
  //   B -mu1-> C, B -mu2-> A; C -mu2-> B (stage 2 delivers, takes the blocked data set, stage 1 restarts).
  // Balance: pi_A mu1 = pi_B mu2, pi_C mu2 = pi_B mu1, so with x = pi_B: pi_A = x mu2/mu1, pi_C = x mu1/mu2 and
  // x = mu1 mu2 / (mu1^2 + mu1 mu2 + mu2^2). Throughput = mu2 (pi_B + pi_C) = x (mu1 + mu2)
  //   = mu1 mu2 (mu1 + mu2) / (mu1^2 + mu1 mu2 + mu2^2)   (issue 33's closed form; 2/3 mu when mu1 = mu2 = mu).
  for (auto [mu1, mu2] : {std::pair{1.0, 1.0}, {1.0, 2.5}, {3.0, 0.4}, {0.01, 0.013}}) {
    auto e = line_period({mu1, mu2});
    ASSERT_TRUE(e.period) << e.reason;
    const double x = mu1 * mu2 * (mu1 + mu2) / (mu1 * mu1 + mu1 * mu2 + mu2 * mu2);
    EXPECT_NEAR(*e.period, 1 / x, 1e-9 / x) << mu1 << " " << mu2;
    EXPECT_EQ(e.states, 3);
    EXPECT_LT(e.spread, 1e-9);
  }
}

TEST(ExponentialPeriod, LinesOfThreeToFiveStagesMatchAnIndependentChain)
{
  const std::vector<double> rates{1.0, 1.7, 0.6, 2.3, 1.1};
  for (std::size_t n = 2; n <= 5; ++n) {
    std::vector<double> mu(rates.begin(), rates.begin() + static_cast<std::ptrdiff_t>(n));
    auto e          = line_period(mu);
    double expected = blocking_line_period(mu);
    ASSERT_TRUE(e.period) << e.reason;
    EXPECT_NEAR(*e.period, expected, 1e-9 * expected) << "n = " << n;
  }
  // equal rates: the throughput falls with the length (issue 33: 2/3 with 2 stages, about 0.56 with 3)
  EXPECT_NEAR(1 / *line_period({1, 1}).period, 2.0 / 3, 1e-12);
  EXPECT_NEAR(1 / *line_period({1, 1, 1}).period, 22.0 / 39, 1e-12); // exact rational solve of the 8-state chain
  EXPECT_NEAR(*line_period({1, 1, 1}).period, blocking_line_period({1, 1, 1}), 1e-12);
}

TEST(ExponentialPeriod, RefusesAboveTheStateLimitAndSaysWhy)
{
  ExponentialLine line({1, 1, 1, 1, 1});
  auto g = build_oneport_event_graph(line.pipeline, line.platform, line.mapping);
  ExponentialOptions options;
  options.max_states = 10;
  auto e             = exponential_period(g, options);
  EXPECT_FALSE(e.period);
  EXPECT_THAT(e.reason, testing::HasSubstr("more than 10 reachable markings"));
}

TEST(ExponentialPeriod, RefusesDeadlocksAndGraphsThatAreNotStronglyConnected)
{
  EventGraph dead;
  int a = dead.add_transition("a", 1);
  int b = dead.add_transition("b", 1);
  dead.add_place(a, b, 0);
  dead.add_place(b, a, 0);
  EXPECT_THAT(exponential_period(dead).reason, testing::HasSubstr("deadlock"));
  EventGraph open;
  a = open.add_transition("a", 1);
  b = open.add_transition("b", 1);
  open.add_place(a, a, 1);
  open.add_place(b, b, 1);
  open.add_place(a, b, 0);
  EXPECT_THAT(exponential_period(open).reason, testing::HasSubstr("not strongly connected"));
}

TEST(ExponentialPeriod, SingleCycleIsTheSumOfItsMeans)
{
  // One token circling a -> b -> c: exponential or not, one round takes the sum of the means.
  EventGraph g;
  int a = g.add_transition("a", 1);
  int b = g.add_transition("b", 2);
  int c = g.add_transition("c", 0);
  g.add_place(a, b, 0);
  g.add_place(b, c, 0);
  g.add_place(c, a, 1);
  auto e = exponential_period(g);
  ASSERT_TRUE(e.period);
  EXPECT_NEAR(*e.period, 3, 1e-12);
  EXPECT_EQ(e.states, 2);
}

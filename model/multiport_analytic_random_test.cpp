// Seeded randomised cross-checks of bbr10 eq. (1) against Algorithm 1 over failure configurations and
// elections, and of Algorithm 1 against a literal evaluation of the §5 MILP constraints.
#include "model/analytic.hpp"
#include "model/test_fixtures.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace pipesim;

namespace {

/// Random instance with finite or unbounded cards (so that every term of eq. (1) binds somewhere) and, for odd
/// seeds, link latencies.
fixtures::RandomInstance random_instance(Rng& rng, std::uint64_t seed, int n, int p)
{
  auto inst = fixtures::random_platform_and_pipeline(rng, n, p, seed % 2 == 1);
  for (int u = 0; u < p; ++u) {
    auto& pr   = inst.platform.processor(u);
    pr.nic_in  = rng.uniform01() < 0.3 ? unbounded : rng.uniform(2, 40);
    pr.nic_out = rng.uniform01() < 0.3 ? unbounded : rng.uniform(2, 40);
  }
  return inst;
}

std::vector<int> alloc(const Mapping& mapping, int j)
{
  std::vector<int> out;
  for (const auto& group : mapping.interval(j).replicas)
    out.push_back(group.front());
  return out;
}

FailureConfiguration only(const Platform& platform, const Mapping& mapping,
                          const std::vector<std::pair<int, int>>& keep)
{
  auto config = FailureConfiguration::all_alive(platform);
  for (auto [j, u] : keep) // keep u alone in interval j
    for (int v : alloc(mapping, j))
      config.alive[static_cast<std::size_t>(v)] = v == u;
  return config;
}

double tol(double x) { return 1e-12 * std::max(1.0, x); }

} // namespace

TEST(MultiportRandom, AllAliveNeverExceedsEq1)
{
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    Rng rng(seed);
    auto inst = random_instance(rng, seed, static_cast<int>(rng.integer(1, 6)), static_cast<int>(rng.integer(2, 8)));
    fixtures::random_replicated_mapping(rng, inst);
    double eq1 = bbr10_eq1_period(inst.pipeline, inst.platform, inst.mapping);
    EXPECT_LE(bbr10_interval_period_all_alive(inst.pipeline, inst.platform, inst.mapping), eq1 + tol(eq1))
        << "seed " << seed << ": " << inst.describe();
  }
}

TEST(MultiportRandom, SingleSurvivorsReachEq1TermByTerm)
{
  // For each interval I_j and each u in alloc(d_j): with u the only survivor of I_j, and v the only survivor of
  // I_{j-1} (so v sends), every other processor alive: the period never exceeds eq. (1), and the maximum over v of
  // u's cycle-time is eq. (1)'s term for u. So the maximum over survivors is eq. (1)'s term for I_j.
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    Rng rng(seed);
    auto inst = random_instance(rng, seed, static_cast<int>(rng.integer(1, 6)), static_cast<int>(rng.integer(2, 9)));
    fixtures::random_replicated_mapping(rng, inst);
    const auto& [pl, pf, mp] = std::tie(inst.pipeline, inst.platform, inst.mapping);
    double eq1               = bbr10_eq1_period(pl, pf, mp);
    double worst             = 0;
    for (int j = 0; j < mp.m(); ++j) {
      double interval_term = 0, best_over_survivors = 0;
      for (int u : alloc(mp, j)) {
        double term = bbr10_eq1_cycle_time(pl, pf, mp, j, u);
        double ct_u = 0;
        for (int v : j == 0 ? std::vector<int>{-1} : alloc(mp, j - 1)) {
          auto config = j == 0 ? only(pf, mp, {{j, u}}) : only(pf, mp, {{j, u}, {j - 1, v}});
          auto e      = first_alive_election(mp, config);
          double per  = bbr10_period(pl, pf, mp, config, e);
          EXPECT_LE(per, eq1 + tol(eq1)) << "seed " << seed << " j " << j << " u " << u << ": " << inst.describe();
          ct_u  = std::max(ct_u, bbr10_cycle_time(pl, pf, mp, config, e, u));
          worst = std::max(worst, per);
        }
        EXPECT_NEAR(ct_u, term, tol(term)) << "seed " << seed << " j " << j << " u " << u << ": " << inst.describe();
        interval_term       = std::max(interval_term, term);
        best_over_survivors = std::max(best_over_survivors, ct_u);
      }
      EXPECT_NEAR(best_over_survivors, interval_term, tol(interval_term)) << "seed " << seed << " j " << j;
    }
    EXPECT_NEAR(worst, eq1, tol(eq1)) << "seed " << seed << ": " << inst.describe();
  }
}

TEST(MultiportRandom, Eq1IsTheWorstCaseOverEveryConfigurationAndElection)
{
  // Exhaustive on tiny instances: every failure configuration in which each interval keeps a replica, every
  // election: the period never exceeds eq. (1), and the first-alive election reaches it in some configuration.
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    Rng rng(seed);
    auto inst = random_instance(rng, seed, static_cast<int>(rng.integer(1, 4)), static_cast<int>(rng.integer(2, 6)));
    fixtures::random_replicated_mapping(rng, inst);
    const auto& [pl, pf, mp] = std::tie(inst.pipeline, inst.platform, inst.mapping);
    double eq1 = bbr10_eq1_period(pl, pf, mp), worst_first_alive = 0;
    for (unsigned mask = 0; mask < (1u << pf.p()); ++mask) {
      FailureConfiguration config;
      for (int u = 0; u < pf.p(); ++u)
        config.alive.push_back((mask >> u) & 1u);
      if (!every_interval_survives(mp, config)) continue;
      worst_first_alive =
          std::max(worst_first_alive, bbr10_period(pl, pf, mp, config, first_alive_election(mp, config)));
      // every election: odometer over the alive replicas of each interval
      std::vector<std::vector<int>> choices;
      for (int j = 0; j < mp.m(); ++j) {
        choices.emplace_back();
        for (int u : alloc(mp, j))
          if (config.is_alive(u)) choices.back().push_back(u);
      }
      std::vector<std::size_t> digit(choices.size(), 0);
      for (bool more = true; more;) {
        Election e;
        for (std::size_t j = 0; j < choices.size(); ++j)
          e.sender.push_back(choices[j][digit[j]]);
        EXPECT_LE(bbr10_period(pl, pf, mp, config, e), eq1 + tol(eq1)) << "seed " << seed << " mask " << mask;
        more = false;
        for (std::size_t j = 0; j < digit.size() && !more; ++j)
          if (++digit[j] < choices[j].size())
            more = true;
          else
            digit[j] = 0;
      }
    }
    EXPECT_NEAR(worst_first_alive, eq1, tol(eq1)) << "seed " << seed << ": " << inst.describe();
  }
}

namespace {

/// A literal evaluation of bbr10 §5's MILP constraints for fixed elections x (per stage, not per interval), with
/// the latency c added once per transfer. Returns each processor's smallest P that satisfies its constraints.
std::vector<double> milp_cycle_times(const Pipeline& pl, const Platform& pf, const Mapping& mp,
                                     const FailureConfiguration& config, const Election& election)
{
  int n  = pl.n();
  auto N = static_cast<std::size_t>(pf.nodes());
  std::vector<std::vector<int>> Delta(static_cast<std::size_t>(n + 2), std::vector<int>(N, 0)); // Delta_{i,u}
  std::vector<std::vector<int>> x(static_cast<std::size_t>(n + 1), std::vector<int>(N, 0));     // x_{i,u}
  Delta[0][static_cast<std::size_t>(pf.in())]                                = 1;
  Delta[static_cast<std::size_t>(n + 1)][static_cast<std::size_t>(pf.out())] = 1;
  x[0][static_cast<std::size_t>(pf.in())]                                    = 1;
  for (int j = 0; j < mp.m(); ++j)
    for (int i = mp.interval(j).first; i <= mp.interval(j).last; ++i) {
      for (int u : alloc(mp, j))
        Delta[static_cast<std::size_t>(i)][static_cast<std::size_t>(u)] = config.is_alive(u) ? 1 : 0;
      x[static_cast<std::size_t>(i)][static_cast<std::size_t>(election.sender[static_cast<std::size_t>(j)])] = 1;
    }
  auto D  = [&](int i, int u) { return Delta[static_cast<std::size_t>(i)][static_cast<std::size_t>(u)]; };
  auto X  = [&](int i, int u) { return x[static_cast<std::size_t>(i)][static_cast<std::size_t>(u)]; };
  auto on = [&](int u) { return u >= pf.p() || config.is_alive(u); };
  std::vector<double> ct(static_cast<std::size_t>(pf.p()), 0.0);
  auto bump = [&](int u, double value) {
    if (u < pf.p()) ct[static_cast<std::size_t>(u)] = std::max(ct[static_cast<std::size_t>(u)], value);
  };
  // Bytes flow after the latency: a link pays c once plus its load; a card the largest latency of its transfers
  // plus its load (docs/semantics.md, "Multi-port formulas").
  std::vector<double> in_bytes(static_cast<std::size_t>(pf.nodes()), 0.0), out_bytes = in_bytes, in_lat = in_bytes,
                                                                           out_lat = in_bytes;
  for (int u = 0; u < pf.nodes(); ++u) {
    if (!on(u)) continue;
    for (int v = 0; v < pf.nodes(); ++v) {
      if (v == u || !on(v)) continue;
      double bytes = 0; // sum_i delta_i Delta_{i+1,v} (1 - Delta_{i,v}) x_{i,u}: what u sends v
      for (int i = 0; i <= n; ++i)
        if (D(i + 1, v) * (1 - D(i, v)) * X(i, u) == 1) bytes += pl.data(i);
      if (bytes == 0 && !(u == pf.in() && D(1, v) == 1)) continue;
      double link = pf.latency(u, v) + bytes / pf.bandwidth(u, v);
      bump(u, link); // u's outgoing constraint on u->v
      bump(v, link); // v's incoming constraint on the same link
      out_bytes[static_cast<std::size_t>(u)] += bytes;
      in_bytes[static_cast<std::size_t>(v)] += bytes;
      out_lat[static_cast<std::size_t>(u)] = std::max(out_lat[static_cast<std::size_t>(u)], pf.latency(u, v));
      in_lat[static_cast<std::size_t>(v)]  = std::max(in_lat[static_cast<std::size_t>(v)], pf.latency(u, v));
    }
  }
  for (int u = 0; u < pf.p(); ++u) {
    if (!on(u)) continue;
    double work = 0;
    for (int i = 1; i <= n; ++i)
      work += pl.work(i) * D(i, u); // sum_i w_i Delta_{i,u} / s_u <= P
    const Processor& pr = pf.processor(u);
    auto k              = static_cast<std::size_t>(u);
    bump(u, std::max({work / pr.speed, in_lat[k] + in_bytes[k] / pr.nic_in, out_lat[k] + out_bytes[k] / pr.nic_out}));
  }
  return ct;
}

/// A random mapping with active replication whose replica sets are arbitrary (bbr10's subsets, and overlapping
/// sets beyond them): m intervals, each on 1..3 distinct random processors.
Mapping random_replicated_general(Rng& rng, int n, int p)
{
  Mapping mp;
  int first = 1;
  while (first <= n) {
    int last = static_cast<int>(rng.integer(first, n));
    Interval in{first, last, {}, Replication::active};
    std::vector<int> procs;
    for (int u = 0; u < p; ++u)
      procs.push_back(u);
    auto r = rng.integer(1, std::min(3, p));
    for (long long k = 0; k < r; ++k) {
      auto pick = static_cast<std::size_t>(rng.integer(k, p - 1));
      std::swap(procs[static_cast<std::size_t>(k)], procs[pick]);
      in.replicas.push_back({procs[static_cast<std::size_t>(k)]});
    }
    mp.intervals.push_back(in);
    first = last + 1;
  }
  return mp;
}

} // namespace

TEST(MultiportRandom, Algorithm1MatchesTheMilpConstraints)
{
  int compared = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    Rng rng(seed);
    int n        = static_cast<int>(rng.integer(1, 7));
    int p        = static_cast<int>(rng.integer(1, 6));
    auto inst    = random_instance(rng, seed, n, p);
    inst.mapping = random_replicated_general(rng, n, p);
    validate(inst.mapping, inst.pipeline, inst.platform);
    const auto& [pl, pf, mp] = std::tie(inst.pipeline, inst.platform, inst.mapping);
    for (int trial = 0; trial < 5; ++trial) {
      FailureConfiguration config;
      for (int u = 0; u < p; ++u)
        config.alive.push_back(trial == 0 || rng.uniform01() < 0.7);
      if (!every_interval_survives(mp, config)) continue;
      Election e; // a random alive replica per interval
      for (int j = 0; j < mp.m(); ++j) {
        std::vector<int> alive;
        for (int u : alloc(mp, j))
          if (config.is_alive(u)) alive.push_back(u);
        e.sender.push_back(alive[static_cast<std::size_t>(rng.integer(0, static_cast<long long>(alive.size()) - 1))]);
      }
      auto reference = milp_cycle_times(pl, pf, mp, config, e);
      auto terms     = bbr10_cycle_time_terms(pl, pf, mp, config, e);
      for (int u = 0; u < p; ++u) {
        double ref = reference[static_cast<std::size_t>(u)];
        EXPECT_NEAR(terms[static_cast<std::size_t>(u)].cycle_time(), ref, tol(ref))
            << "seed " << seed << " trial " << trial << " P" << u + 1 << ": " << inst.describe();
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 1000);
}

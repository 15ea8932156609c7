#include "mappers/bbr10/all_alive_period.hpp"

#include "model/bbr10/best.hpp"
#include "model/test_fixtures.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

/// Intervals cut at random, each on 1..3 distinct random processors; intervals may share processors (bbr10
/// footnote 2).
void random_stage_sets(Rng& rng, fixtures::RandomInstance& inst)
{
  int n = inst.pipeline.n(), p = inst.platform.p();
  inst.mapping.intervals.clear();
  for (int first = 1; first <= n;) {
    int last = static_cast<int>(rng.integer(first, n));
    Interval in;
    in.first       = first;
    in.last        = last;
    in.replication = Replication::active;
    std::vector<int> procs;
    for (int k = static_cast<int>(rng.integer(1, std::min(3, p))); static_cast<int>(procs.size()) < k;) {
      int u = static_cast<int>(rng.integer(0, p - 1));
      if (std::find(procs.begin(), procs.end(), u) == procs.end()) procs.push_back(u);
    }
    std::sort(procs.begin(), procs.end());
    for (int u : procs)
      in.replicas.push_back({u});
    inst.mapping.intervals.push_back(std::move(in));
    first = last + 1;
  }
}

TEST(Bbr10AllAlivePeriod, IsTheBestElectionWithEveryProcessorAliveOnCompleteMappings)
{
  // Same elections, same periods (bbr10_period, Algorithm 1) and same cycle-times as bbr10_best_election on 300
  // seeded random mappings: overlapping replica sets, disjoint subsets, with and without latencies.
  Rng rng(36);
  for (int trial = 0; trial < 300; ++trial) {
    int n = static_cast<int>(rng.integer(1, 7)), p = static_cast<int>(rng.integer(1, 8));
    auto inst = fixtures::random_multiport_instance(rng, n, p, trial % 2 == 1);
    if (trial % 3 == 0)
      fixtures::random_replicated_general_mapping(rng, inst);
    else
      random_stage_sets(rng, inst);
    auto all            = FailureConfiguration::all_alive(inst.platform);
    std::uint64_t seed  = static_cast<std::uint64_t>(trial) + 1;
    ElectionChoice best = bbr10_best_election(inst.pipeline, inst.platform, inst.mapping, all, seed);
    AllAlivePeriod ours = bbr10_all_alive_period(inst.pipeline, inst.platform, inst.mapping, seed);
    std::string what    = fmt::format("trial {}: {}", trial, inst.describe());
    EXPECT_NEAR(ours.period, best.period, 1e-12 * best.period) << what;
    EXPECT_EQ(ours.election.sender, best.election.sender) << what;
    EXPECT_EQ(ours.method, *best.method) << what;
    auto terms = bbr10_cycle_time_terms(inst.pipeline, inst.platform, inst.mapping, all, best.election);
    for (int u = 0; u < p; ++u)
      EXPECT_NEAR(ours.cycle_time[static_cast<std::size_t>(u)], terms[static_cast<std::size_t>(u)].cycle_time(),
                  1e-12 * best.period)
          << what << " P" << u + 1;
  }
}

TEST(Bbr10AllAlivePeriod, AnIntervalWithoutProcessorNeitherSendsNorReceives)
{
  // w = (2, 3, 4), delta = (1, 2, 3, 4), speeds 100, cards 10, links 10. I1 = [1] on P1, I2 = [2] not mapped yet,
  // I3 = [3] on P2 and P3.
  // - P1: compute 2 / 100, input 1 / 10 (link and card); I2 has no replica, so it sends nothing: 0.1 (sending
  //   delta_1 = 2 would have cost 2 / 10).
  // - P2, P3: compute 0.04; delta_2 = 3 still loads their input cards, 3 / 10, on no link; the elected one sends
  //   delta_3 = 4 to P_out, 4 / 10. Period 0.4; no election for I2.
  std::vector<Processor> procs;
  for (int u = 1; u <= 3; ++u)
    procs.push_back(Processor{fmt::format("P{}", u), 100, 0.1, 10, 10});
  Platform platform(procs, "in", "out", 10, 0);
  Pipeline pipeline{{2, 3, 4}, {1, 2, 3, 4}};
  Mapping mapping;
  mapping.intervals  = {Interval{1, 1, {{0}}, Replication::active}, Interval{2, 2, {}, Replication::active},
                        Interval{3, 3, {{1}, {2}}, Replication::active}};
  AllAlivePeriod out = bbr10_all_alive_period(pipeline, platform, mapping, 1);
  EXPECT_NEAR(out.period, 0.4, 1e-12);
  ASSERT_EQ(out.election.sender.size(), 3U);
  EXPECT_EQ(out.election.sender[0], 0);
  EXPECT_EQ(out.election.sender[1], -1);
  int sender = out.election.sender[2], other = 3 - sender;
  EXPECT_NEAR(out.cycle_time[0], 0.1, 1e-12);
  EXPECT_NEAR(out.cycle_time[static_cast<std::size_t>(sender)], 0.4, 1e-12);
  EXPECT_NEAR(out.cycle_time[static_cast<std::size_t>(other)], 0.3, 1e-12);
}

} // namespace
} // namespace pipesim

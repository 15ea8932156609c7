// Analytic formulas on the papers' worked examples and hand-computed cases.
#include "base/input_error.hpp"
#include "model/analysis.hpp"
#include "model/analytic.hpp"
#include "model/event_graph.hpp"
#include "model/test_fixtures.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace pipesim;

TEST(Analytic, Eq6GeneralMappingPeriodIsSeven)
{
  fixtures::Eq6Example ex;
  EXPECT_EQ(classify(ex.mapping), MappingRule::general);
  // br07 eq. (6): 10/10 + 1/1 + 1/1 + 10/10 + 1/1 + 1/1 + 10/10 = 7
  EXPECT_DOUBLE_EQ(br07_eq45_period(ex.pipeline, ex.platform, ex.mapping), 7.0);
  // eq. (3): P1 pays 1 + 1 + 1 (S1) + 1 + 1 + 1 (S3) = 6; P2 pays 1 + 1 + 1 = 3
  EXPECT_DOUBLE_EQ(br07_eq3_async_bound(ex.pipeline, ex.platform, ex.mapping), 6.0);
  auto s = analyze_oneport(ex.pipeline, ex.platform, ex.mapping);
  EXPECT_EQ(s.formula, "seed000-eq4-5");
  EXPECT_DOUBLE_EQ(s.period, 7.0);
  EXPECT_DOUBLE_EQ(s.latency, 7.0); // one data set goes once around P1's cycle
}

TEST(Analytic, Eq6AlternativesAreAtLeastTen)
{
  // The text: S2 on P1 gives >= 10; S1 (or S3) on P2 gives >= 10 because b_{0,2} = 1.
  fixtures::Eq6Example ex;
  Mapping all_p1 = make_interval_mapping({{1, 3}}, {0});
  EXPECT_GE(br07_eq2_period(ex.pipeline, ex.platform, all_p1), 10.0);
  Mapping s1_p2 = make_interval_mapping({{1, 1}, {2, 3}}, {1, 0});
  EXPECT_GE(br07_eq2_period(ex.pipeline, ex.platform, s1_p2), 10.0);
}

TEST(Analytic, Eq2HandComputed)
{
  // 3 stages on a communication-homogeneous platform, b = 10:
  // w = [10, 20, 5], delta = [10, 10, 10, 10], speeds P1 = 10, P2 = 20.
  // Mapping [1]:P1 [2-3]:P2.
  //   I_1 on P1: 10/10 + 10/10 + 10/10 = 3
  //   I_2 on P2: 10/10 + 25/20 + 10/10 = 3.25
  Pipeline pl{{10, 20, 5}, {10, 10, 10, 10}};
  Platform pf({{"P1", 10.0}, {"P2", 20.0}}, "in", "out", 10.0);
  Mapping mp = make_interval_mapping({{1, 1}, {2, 3}}, {0, 1});
  EXPECT_EQ(classify(mp), MappingRule::interval);
  EXPECT_DOUBLE_EQ(br07_eq2_period(pl, pf, mp), 3.25);
  // latency: 1 + 1 + 1 + 1.25 + 1 = 5.25
  EXPECT_DOUBLE_EQ(interval_latency(pl, pf, mp), 5.25);
  // with latency c = 0.5 on every link, each of the 3 transfers of I_2's cycle... I_2 pays 2 transfers: 4.25
  Platform lat({{"P1", 10.0}, {"P2", 20.0}}, "in", "out", 10.0, 0.5);
  EXPECT_DOUBLE_EQ(br07_eq2_period(pl, lat, mp), 4.25);
}

TEST(Analytic, ActiveReplicationOnePort)
{
  // w = [10, 10], delta = [10, 20, 10], b = 10 everywhere; I_1 = [1] on {P1, P2}, I_2 = [2] on {P3, P4}.
  // speeds P1 = 10, P2 = 5, P3 = 10, P4 = 10.
  // P1 (elected): 1 + 1 + 2 + 2 (two sends of 20 bytes) = 6; P2: 1 + 2 = 3;
  // P3 (elected): 2 + 1 + 1 = 4; P4: 2 + 1 = 3. Period 6.
  Pipeline pl{{10, 10}, {10, 20, 10}};
  Platform pf({{"P1", 10.0}, {"P2", 5.0}, {"P3", 10.0}, {"P4", 10.0}}, "in", "out", 10.0);
  Mapping mp;
  mp.intervals = {Interval{1, 1, {{0}, {1}}, Replication::active}, Interval{2, 2, {{2}, {3}}, Replication::active}};
  EXPECT_DOUBLE_EQ(oneport_active_period(pl, pf, mp), 6.0);
  auto s = analyze_oneport(pl, pf, mp);
  EXPECT_EQ(s.formula, "oneport-active");
  EXPECT_DOUBLE_EQ(s.period, 6.0);
  // latency: in->P1 1, compute 1, send to P3 2, compute P3 1, send to out 1 = 6
  EXPECT_DOUBLE_EQ(s.latency, 6.0);
}

TEST(Analytic, FailureProbabilityBbr10Section2)
{
  // bbr10 §2: 3 intervals x 4 replicas, f = 0.15: F_int = 1 - (1 - 0.15^4)^3 = 0.0015 (rounded);
  // general: 2 subsets x 6 replicas: F_gen = 1 - (1 - 0.15^6)^2 = 0.000023 (rounded).
  std::vector<Processor> procs;
  for (int u = 0; u < 12; ++u)
    procs.push_back(Processor{"P" + std::to_string(u + 1), 1.0, 0.15});
  Platform pf(procs, "in", "out");
  Mapping interval_mapping;
  for (int j = 0; j < 3; ++j) {
    Interval in{j + 1, j + 1, {}, Replication::active};
    for (int r = 0; r < 4; ++r)
      in.replicas.push_back({4 * j + r});
    interval_mapping.intervals.push_back(in);
  }
  double f_int = bbr10_eq2_failure_probability(pf, interval_mapping);
  EXPECT_NEAR(f_int, 1 - std::pow(1 - std::pow(0.15, 4), 3), 1e-15);
  EXPECT_NEAR(f_int, 0.0015, 0.00005);
  Mapping general; // {S1, S3} on P1..P6, {S2} on P7..P12
  for (int j = 0; j < 3; ++j) {
    Interval in{j + 1, j + 1, {}, Replication::active};
    for (int r = 0; r < 6; ++r)
      in.replicas.push_back({(j == 1 ? 6 : 0) + r});
    general.intervals.push_back(in);
  }
  EXPECT_EQ(subsets(general).intervals.size(), 2u);
  double f_gen = bbr10_eq2_failure_probability(pf, general);
  EXPECT_NEAR(f_gen, 1 - std::pow(1 - std::pow(0.15, 6), 2), 1e-15);
  EXPECT_NEAR(f_gen, 0.000023, 0.0000005);
}

TEST(Analytic, FailureProbabilityOverlappingSetsByInclusionExclusion)
{
  // I_1 on {A, B}, I_2 on {B, C}: fails iff (A and B fail) or (B and C fail) = fA fB + fB fC - fA fB fC
  Platform pf({{"A", 1, 0.1}, {"B", 1, 0.2}, {"C", 1, 0.3}}, "in", "out");
  Mapping mp;
  mp.intervals = {Interval{1, 1, {{0}, {1}}, Replication::active}, Interval{2, 2, {{1}, {2}}, Replication::active}};
  EXPECT_NEAR(bbr10_eq2_failure_probability(pf, mp), 0.1 * 0.2 + 0.2 * 0.3 - 0.1 * 0.2 * 0.3, 1e-15);
}

TEST(Analytic, RefusesWhatItDoesNotModel)
{
  fixtures::Eq6Example ex;
  EXPECT_THROW(br07_eq2_period(ex.pipeline, ex.platform, ex.mapping), InputError); // general mapping
  Mapping group = make_interval_mapping({{1, 3}}, {0});
  group.intervals[0].replicas[0].push_back(1); // a data-parallel group
  EXPECT_THROW(analyze_oneport(ex.pipeline, ex.platform, group), InputError);
}

TEST(Analytic, DealGoesToTheEventGraph)
{
  // S1-S3 dealt over P1 (s = 1) and P2 (s = 10) of the eq. (6) platform; the replicas are independent (P_in feeds
  // each, P_out takes everything): P1 receives 10/10 = 1, computes 12/1 = 12, sends 10/10 = 1: 14 per data set; P2
  // receives 10/1 = 10, computes 12/10 = 1.2, sends 10/1 = 10: 21.2. In order, the period is max / 2 = 10.6.
  fixtures::Eq6Example ex;
  Mapping deal = make_interval_mapping({{1, 3}}, {0});
  deal.intervals[0].replicas.push_back({1});
  deal.intervals[0].replication = Replication::deal;
  auto s                        = analyze_oneport(ex.pipeline, ex.platform, deal);
  EXPECT_EQ(s.formula, "event-graph");
  EXPECT_NEAR(s.period, 10.6, 1e-12);
  EXPECT_NEAR(s.latency, 14, 1e-12); // data set 0 on P1
  // a dealt interval is not fault tolerant: either crash fails the run
  ex.platform.processor(0).failure_probability = 0.1;
  ex.platform.processor(1).failure_probability = 0.2;
  EXPECT_NEAR(bbr10_eq2_failure_probability(ex.platform, deal), 1 - 0.9 * 0.8, 1e-15);
}

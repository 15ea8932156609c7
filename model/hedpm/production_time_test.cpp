// Tests of HeDPM's model on mappings (hedpm eqs. (1)-(2)): hand-computed deal replicas, the pairing of dealt
// neighbours, exact means, and the mappings it refuses.
#include "model/hedpm/production_time.hpp"

#include "base/input_error.hpp"

#include "model/test_fixtures.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>

namespace pipesim {
namespace {

Platform platform_of(const std::vector<double>& speeds, double b = 1.0, double c = 0.0)
{
  std::vector<Processor> processors;
  for (std::size_t u = 0; u < speeds.size(); ++u)
    processors.push_back(Processor{"P" + std::to_string(u + 1), speeds[u]});
  return Platform(processors, "in", "out", b, c);
}

using fixtures::interval;

/// w = (4, 3, 2), delta = (1, 2, 3, 4), s = (2, 4, 5), every link b = 1 and c = 0 except b(in, P2) = 2,
/// b(P1, P3) = 4, b(P2, P3) = 2, b(P3, out) = 4. Mapping [1] on P1|P2 (deal), [2-3] on P3.
/// I_1 (R = 2, from P_in, to P3): t(P1) = 1/1 + 4/2 + 2/4 = 3.5, t(P2) = 1/2 + 4/4 + 2/2 = 2.5, T_1 = 3.5 / 2 = 1.75.
/// I_2 receives from both replicas (gcd(2, 1) = 1): in = (2/4 + 2/2) / 2 = 0.75; W = 5 on s = 5: 1; out = 4/4 = 1:
/// T_2 = 2.75, the production time.
TEST(HedpmProductionTime, HandComputedDealReplicas)
{
  Pipeline pipeline{{4, 3, 2}, {1, 2, 3, 4}};
  Platform platform = platform_of({2, 4, 5});
  platform.set_link(platform.in(), 1, 2, 0);
  platform.set_link(0, 2, 4, 0);
  platform.set_link(1, 2, 2, 0);
  platform.set_link(2, platform.out(), 4, 0);
  Mapping mapping{{interval(1, 1, {0, 1}), interval(2, 3, {2})}};
  HedpmPrediction prediction = hedpm_predict(pipeline, platform, mapping);
  ASSERT_EQ(prediction.intervals.size(), 2u);
  EXPECT_THAT(prediction.intervals[0].replica_times, testing::ElementsAre(3.5, 2.5));
  EXPECT_EQ(prediction.intervals[0].time, 1.75);
  EXPECT_THAT(prediction.intervals[1].replica_times, testing::ElementsAre(2.75));
  EXPECT_EQ(prediction.intervals[1].time, 2.75);
  EXPECT_EQ(prediction.production_time, 2.75);
  EXPECT_EQ(prediction.bottleneck, 1);
  EXPECT_EQ(hedpm_production_time(pipeline, platform, mapping), 2.75);
}

TEST(HedpmProductionTime, DealtNeighboursMeetByResidue)
{
  // I_{j-1} on (A, B) = (P1, P2), I_j on (C, D, E, F) = (P3..P6): gcd(2, 4) = 2, so data set k goes from replica
  // k mod 2 to replica k mod 4: C and E receive from A only, D and F from B only; A sends to C and E.
  Platform platform = platform_of({1, 1, 1, 1, 1, 1});
  for (int v = 2; v < 6; ++v) {
    platform.set_link(0, v, 1.0 + v, 0); // A -> v: bytes / (1 + v)
    platform.set_link(1, v, 10.0 + v, 0);
  }
  const std::vector<int> prev{0, 1};
  const std::vector<int> self{2, 3, 4, 5};
  EXPECT_EQ(hedpm_in_time(platform, prev, self, 0, 12), 12 / 3.0);                              // C from A
  EXPECT_EQ(hedpm_in_time(platform, prev, self, 1, 12), 12 / 13.0);                             // D from B
  EXPECT_EQ(hedpm_in_time(platform, prev, self, 2, 12), 12 / 5.0);                              // E from A
  EXPECT_EQ(hedpm_out_time(platform, prev, 0, self, 12), 12 / 5.0 + (12 / 3.0 - 12 / 5.0) / 2); // A: E and C
  // gcd(3, 4) = 1: every replica meets every neighbour replica.
  const std::vector<int> three{2, 3, 4};
  EXPECT_EQ(hedpm_out_time(platform, std::vector<int>{0}, 0, three, 12),
            hedpm_mean(std::vector<double>{12 / 3.0, 12 / 4.0, 12 / 5.0}));
}

TEST(HedpmProductionTime, MeansAreExactOnEqualValuesAndIgnoreOrder)
{
  // 0.1 + 0.1 + 0.1 is not 0.3 in floating point; the mean of equal values must still be the value.
  EXPECT_EQ(hedpm_mean(std::vector<double>{0.1, 0.1, 0.1}), 0.1);
  EXPECT_EQ(hedpm_mean(std::vector<double>{0.1, 0.7, 0.3}), hedpm_mean(std::vector<double>{0.7, 0.3, 0.1}));
  EXPECT_DOUBLE_EQ(hedpm_mean(std::vector<double>{1, 2, 6}), 3.0);
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(hedpm_mean(std::vector<double>{1, inf}), inf);
  // Uniform links: the in-term of a replica fed by three dealt replicas is the transfer itself, bit for bit.
  Platform platform = platform_of({1, 1, 1, 1}, 3.0, 0.1);
  EXPECT_EQ(hedpm_in_time(platform, std::vector<int>{0, 1, 2}, std::vector<int>{3}, 0, 0.7),
            platform.transfer_time(0, 3, 0.7));
}

TEST(HedpmProductionTime, GatheredIntervalsAddTheirWorkAndMayBeDealt)
{
  // [1-2] on P1|P2 (deal), b = 2, c = 0.5: t(u) = (0.5 + 1/2) + 6/s_u + (0.5 + 3/2) = 3 + 6/s_u; s = (3, 1):
  // t = (5, 9), T = 9 / 2 = 4.5.
  Pipeline pipeline{{2, 4}, {1, 5, 3}};
  Platform platform = platform_of({3, 1}, 2.0, 0.5);
  Mapping mapping{{interval(1, 2, {0, 1})}};
  HedpmPrediction prediction = hedpm_predict(pipeline, platform, mapping);
  EXPECT_THAT(prediction.intervals[0].replica_times, testing::ElementsAre(5.0, 9.0));
  EXPECT_EQ(prediction.production_time, 4.5);
}

TEST(HedpmProductionTime, RefusesWhatTheModelDoesNotCover)
{
  Pipeline pipeline{{1, 1, 1}, {1, 1, 1, 1}};
  Platform platform = platform_of({1, 1, 1});
  auto message      = [&](const Mapping& mapping) {
    try {
      hedpm_predict(pipeline, platform, mapping);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(message(Mapping{{interval(1, 3, {0, 1}, Replication::active)}}),
              testing::HasSubstr("key 'mapping[0].replication': value 'active': HeDPM's model (seed 002 eq. (1)) "
                                 "replicates for throughput (deal); stages 1-3 have 2 replicas"));
  Mapping groups{{Interval{1, 3, {{0, 1}}, Replication::deal}}};
  EXPECT_THAT(message(groups), testing::HasSubstr("data-parallel"));
  Mapping general{{interval(1, 1, {0}), interval(2, 2, {1}), interval(3, 3, {0})}};
  EXPECT_THAT(message(general), testing::HasSubstr("interval mappings; this mapping is general"));
  // One replica with the default (active) replication is an ordinary interval.
  EXPECT_EQ(message(Mapping{{interval(1, 3, {0}, Replication::active)}}), "no error");
}

} // namespace
} // namespace pipesim

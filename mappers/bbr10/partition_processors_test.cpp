#include "mappers/bbr10/partition_processors.hpp"

#include "mappers/bbr10/reliability_fixtures.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

TEST(Bbr10PartitionProcessors, SetsByDecreasingSpeedThenStagesToTheSmallestPeriod)
{
  // two_stage_problem(1.5) with speeds (2, 2, 2, 4): by speed P4, P1, P2, P3. q = 2: target sqrt(0.0024) = 0.049;
  // set 0 = P4 (0.4), P1 (0.04 <= target); set 1 = P2 (0.2), P3 (0.06; no processor left). Stages by workload (tie:
  // S1 first): S1 -> set 0 (period 1: P1 computes 2 / 2) or set 1 (1): tie, set 0; S2 -> set 0 gives 2 / 2 = 2 >
  // 1.5 for P1, set 1 gives 1: set 1. Fusion: only P4 holds both (0.4): kept.
  Problem problem   = fixtures::two_stage_problem(1.5);
  SubsetState state = bbr10_partition_processors(problem, StageOrder::workload, 2);
  ASSERT_TRUE(state.complete());
  EXPECT_EQ(to_text(state.mapping(), problem.platform), "[1]:P1|P4 [2]:P2|P3");
  // q = 1: one set of all four; the stages cannot both go to it (P1 would compute 2): incomplete
  EXPECT_FALSE(bbr10_partition_processors(problem, StageOrder::output_data, 1).complete());
}

TEST(Bbr10PartitionProcessors, Section2FindsFigure3)
{
  // bbr10 §2 at P_max = 1, q = 2: P7..P12 (speed 55) then P1..P6; target 0.15^6 each: set 0 = P7..P12, set 1 =
  // P1..P6. Stages by work: S2 (50) -> set 0 (50/55), S3 (23) and S1 (17) -> set 1 (40/45 = 0.89; set 0 would give
  // 73/55 > 1): Figure 3's mapping, CT_1 = 0.95.
  Problem problem   = fixtures::section2_problem(1.0);
  SubsetState state = bbr10_partition_processors(problem, StageOrder::workload, 2);
  EXPECT_EQ(to_text(state.mapping(), problem.platform),
            "[1]:P1|P2|P3|P4|P5|P6 [2]:P7|P8|P9|P10|P11|P12 [3]:P1|P2|P3|P4|P5|P6");
  EXPECT_NEAR(state.period_bound(), 0.95, 1e-12);
}

} // namespace
} // namespace pipesim

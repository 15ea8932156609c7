// bbr10 §5 MILP (CBC): the hand examples, the exhaustive election, and never above a heuristic.
#include "mappers/bbr10/election_milp.hpp"
#include "model/bbr10/election_table.hpp"
#include "model/bbr10/exhaustive.hpp"
#include "model/bbr10/max_bout.hpp"
#include "model/bbr10/min_comm.hpp"
#include "model/bbr10/min_nb_procs.hpp"
#include "model/bbr10/random_election.hpp"
#include "model/bbr10/worst_case_period.hpp"
#include "model/test_fixtures.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

TEST(Bbr10Milp, HandExamples)
{
  // fixtures::ElectionExample: 2/3 (MinComm's split, see model/bbr10/min_comm_test.cpp); best = MILP.
  fixtures::ElectionExample ex;
  auto all  = FailureConfiguration::all_alive(ex.platform);
  auto milp = bbr10_milp_election(ex.pipeline, ex.platform, ex.mapping, all);
  EXPECT_EQ(milp.status, SolveStatus::optimal);
  EXPECT_DOUBLE_EQ(milp.choice.period, 2.0 / 3);
  EXPECT_NEAR(milp.cbc_period, 2.0 / 3, 1e-9);
  EXPECT_DOUBLE_EQ(bbr10_best_election(ex.pipeline, ex.platform, ex.mapping, all).period, milp.choice.period);
  // bbr10 §2: 50/55 (all alive), 0.95 when P1 is the lone survivor of {S_1, S_3}.
  fixtures::Bbr10Section2 s2;
  Mapping mp = s2.general();
  auto all2  = FailureConfiguration::all_alive(s2.platform);
  auto m2    = bbr10_milp_election(s2.pipeline, s2.platform, mp, all2);
  EXPECT_EQ(m2.status, SolveStatus::optimal);
  EXPECT_DOUBLE_EQ(m2.choice.period, 50.0 / 55);
  EXPECT_DOUBLE_EQ(bbr10_best_election(s2.pipeline, s2.platform, mp, all2).period, m2.choice.period);
  auto lone = fixtures::crashed(s2.platform, {1, 2, 3, 4, 5});
  EXPECT_DOUBLE_EQ(bbr10_milp_election(s2.pipeline, s2.platform, mp, lone).choice.period, 0.95);
}

TEST(Bbr10Milp, EqualsTheExhaustiveElectionAndNoHeuristicBeatsIt)
{
  // Seeded random general mappings with replication (cards in [1, 10]), half with latencies; random surviving
  // failure configurations. The MILP's election, evaluated by Algorithm 1, must equal the exhaustive minimum.
  Rng rng(2010);
  for (int t = 0; t < 150; ++t) {
    int n     = static_cast<int>(rng.integer(2, 6));
    int p     = static_cast<int>(rng.integer(2, 8));
    auto inst = fixtures::random_platform_and_pipeline(rng, n, p, t % 2 == 1);
    fixtures::random_replicated_general_mapping(rng, inst);
    FailureConfiguration config = fixtures::random_surviving_configuration(rng, inst);
    const auto& pl              = inst.pipeline;
    const auto& pf              = inst.platform;
    const auto& mp              = inst.mapping;
    auto milp                   = bbr10_milp_election(pl, pf, mp, config);
    ASSERT_EQ(milp.status, SolveStatus::optimal) << inst.describe();
    double exact = bbr10_exhaustive_election(pl, pf, mp, config).period;
    ASSERT_NEAR(milp.choice.period, exact, 1e-9 * exact) << inst.describe();
    double floor = milp.choice.period * (1 - 1e-9);
    for (const Election& e :
         {bbr10_random_election(pl, pf, mp, config, 7), bbr10_max_bout_election(pl, pf, mp, config),
          bbr10_min_comm_election(pl, pf, mp, config), bbr10_min_nb_procs_election(pl, pf, mp, config),
          bbr10_best_election(pl, pf, mp, config).election})
      ASSERT_GE(bbr10_period(pl, pf, mp, config, e), floor) << inst.describe();
  }
}

TEST(Bbr10Milp, WorstCaseWithTheMilpEqualsTheExhaustiveWorstCase)
{
  Rng rng(5);
  for (int t = 0; t < 10; ++t) {
    auto inst = fixtures::random_platform_and_pipeline(rng, 4, 5, t % 2 == 1);
    fixtures::random_replicated_general_mapping(rng, inst);
    WorstCaseOptions milp, exhaustive;
    milp.elect                = bbr10_milp_election_function(60);
    milp.elect_is_exact       = true;
    exhaustive.elect          = bbr10_election(ElectionPolicy::exhaustive);
    exhaustive.elect_is_exact = true;
    double a                  = bbr10_worst_case_period(inst.pipeline, inst.platform, inst.mapping, milp).period;
    double b                  = bbr10_worst_case_period(inst.pipeline, inst.platform, inst.mapping, exhaustive).period;
    ASSERT_NEAR(a, b, 1e-9 * b) << inst.describe();
  }
}

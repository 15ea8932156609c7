// The best of the four elections (bbr10 §7.1) against the exhaustive election on the hand examples.
#include "model/bbr10/best.hpp"
#include "model/bbr10/exhaustive.hpp"
#include "model/test_fixtures.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

TEST(Bbr10Best, MatchesTheExhaustiveElectionOnTheHandExamples)
{
  // fixtures::ElectionExample: MaxBout 1, MinComm and MinNbProcs 2/3 (see their tests); exhaustive 2/3.
  fixtures::ElectionExample ex;
  auto all  = FailureConfiguration::all_alive(ex.platform);
  auto best = bbr10_best_election(ex.pipeline, ex.platform, ex.mapping, all);
  EXPECT_DOUBLE_EQ(best.period, 2.0 / 3);
  EXPECT_DOUBLE_EQ(best.period, bbr10_exhaustive_election(ex.pipeline, ex.platform, ex.mapping, all).period);
  EXPECT_DOUBLE_EQ(bbr10_period(ex.pipeline, ex.platform, ex.mapping, all, best.election), best.period);
  // bbr10 §2: 50/55 (Figure 3's election; MaxBout alone gives 0.95).
  fixtures::Bbr10Section2 s2;
  Mapping mp = s2.general();
  auto all2  = FailureConfiguration::all_alive(s2.platform);
  auto b2    = bbr10_best_election(s2.pipeline, s2.platform, mp, all2);
  EXPECT_DOUBLE_EQ(b2.period, 50.0 / 55);
  EXPECT_DOUBLE_EQ(b2.period, bbr10_exhaustive_election(s2.pipeline, s2.platform, mp, all2).period);
  EXPECT_NE(b2.method, ElectionPolicy::max_bout);
}

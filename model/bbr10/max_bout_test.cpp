// MaxBout (bbr10 Algorithm 3) on hand-checked instances.
#include "model/bbr10/max_bout.hpp"
#include "model/test_fixtures.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

TEST(Bbr10MaxBout, ElectsTheBiggestCardEvenWhenItOverloadsIt)
{
  // fixtures::ElectionExample: P1 (Bout 20) wins I_1 and I_3, P3 is alone in I_2. P1 sends delta_1 = 10 to P3 and
  // delta_3 = 10 to P_out: card 20/20 = 1 (links 10/100, compute 2/100). The optimum splits them: 2/3.
  fixtures::ElectionExample ex;
  auto all = FailureConfiguration::all_alive(ex.platform);
  auto e   = bbr10_max_bout_election(ex.pipeline, ex.platform, ex.mapping, all);
  EXPECT_EQ(e.sender, (std::vector<int>{0, 2, 0}));
  EXPECT_DOUBLE_EQ(bbr10_period(ex.pipeline, ex.platform, ex.mapping, all, e), 1.0);
  // P1 crashed: P2 (Bout 15) sends both, 20/15.
  auto no_p1 = fixtures::crashed(ex.platform, {0});
  e          = bbr10_max_bout_election(ex.pipeline, ex.platform, ex.mapping, no_p1);
  EXPECT_EQ(e.sender, (std::vector<int>{1, 2, 1}));
  EXPECT_DOUBLE_EQ(bbr10_period(ex.pipeline, ex.platform, ex.mapping, no_p1, e), 20.0 / 15);
}

TEST(Bbr10MaxBout, Bbr10Section2TiesElectTheFirstReplica)
{
  // bbr10 §2: every Bout of the {S_1, S_3} subset is 20, so P1 sends both: CT_1 = (3*6+1)/20 = 0.95.
  fixtures::Bbr10Section2 ex;
  Mapping mp = ex.general();
  auto all   = FailureConfiguration::all_alive(ex.platform);
  auto e     = bbr10_max_bout_election(ex.pipeline, ex.platform, mp, all);
  EXPECT_EQ(e.sender, (std::vector<int>{0, 6, 0}));
  EXPECT_DOUBLE_EQ(bbr10_period(ex.pipeline, ex.platform, mp, all, e), 0.95);
}

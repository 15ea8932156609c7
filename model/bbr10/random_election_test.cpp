// Random election (bbr10 Algorithm 2): alive replicas only, reproducible from its seed.
#include "base/input_error.hpp"
#include "model/bbr10/random_election.hpp"
#include "model/test_fixtures.hpp"

#include <gtest/gtest.h>
#include <set>

using namespace pipesim;

TEST(Bbr10Random, ElectsAliveReplicasReproducibly)
{
  // fixtures::ElectionExample: the four elections of I_1 x I_3 give 1 ({P1, P1}), 2/3 (split) or 4/3 ({P2, P2}).
  fixtures::ElectionExample ex;
  auto all = FailureConfiguration::all_alive(ex.platform);
  std::set<std::vector<int>> seen;
  for (std::uint64_t seed = 1; seed <= 64; ++seed) {
    auto e = bbr10_random_election(ex.pipeline, ex.platform, ex.mapping, all, seed);
    EXPECT_EQ(e.sender, bbr10_random_election(ex.pipeline, ex.platform, ex.mapping, all, seed).sender);
    EXPECT_EQ(e.sender[1], 2); // P3 is the only replica of I_2
    double period = bbr10_period(ex.pipeline, ex.platform, ex.mapping, all, e);
    EXPECT_TRUE(period == 1.0 || period == 2.0 / 3 || period == 20.0 / 15) << period;
    seen.insert(e.sender);
  }
  EXPECT_EQ(seen.size(), 4u); // every election is drawn
  // Crashed replicas are never elected.
  auto no_p2 = fixtures::crashed(ex.platform, {1});
  for (std::uint64_t seed = 1; seed <= 16; ++seed)
    EXPECT_EQ(bbr10_random_election(ex.pipeline, ex.platform, ex.mapping, no_p2, seed).sender,
              (std::vector<int>{0, 2, 0}));
  EXPECT_THROW(bbr10_random_election(ex.pipeline, ex.platform, ex.mapping, fixtures::crashed(ex.platform, {0, 1}), 1),
               InputError);
}

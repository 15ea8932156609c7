// The exhaustive election: the minimum over every election, checked by hand and against every heuristic.
#include "base/input_error.hpp"
#include "model/bbr10/best.hpp"
#include "model/bbr10/exhaustive.hpp"
#include "model/bbr10/max_bout.hpp"
#include "model/bbr10/min_comm.hpp"
#include "model/bbr10/min_nb_procs.hpp"
#include "model/bbr10/random_election.hpp"
#include "model/test_fixtures.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

TEST(Bbr10Exhaustive, HandExample)
{
  // fixtures::ElectionExample, the four elections of (I_1, I_3): (P1, P1) 1, (P2, P1) 2/3, (P1, P2) 2/3,
  // (P2, P2) 20/15. The odometer visits (P1, P1) then (P2, P1): the first minimum.
  fixtures::ElectionExample ex;
  auto all = FailureConfiguration::all_alive(ex.platform);
  EXPECT_EQ(bbr10_election_count(ex.pipeline, ex.platform, ex.mapping, all), 4);
  auto best = bbr10_exhaustive_election(ex.pipeline, ex.platform, ex.mapping, all);
  EXPECT_EQ(best.election.sender, (std::vector<int>{1, 2, 0}));
  EXPECT_DOUBLE_EQ(best.period, 2.0 / 3);
  EXPECT_THROW(bbr10_exhaustive_election(ex.pipeline, ex.platform, ex.mapping, all, 3), InputError);
}

TEST(Bbr10Exhaustive, NoHeuristicBeatsIt)
{
  // Seeded random general mappings with replication; random surviving failure configurations.
  Rng rng(404);
  for (int t = 0; t < 300; ++t) {
    int n     = static_cast<int>(rng.integer(2, 6));
    int p     = static_cast<int>(rng.integer(2, 8));
    auto inst = fixtures::random_platform_and_pipeline(rng, n, p, t % 2 == 1);
    fixtures::random_replicated_general_mapping(rng, inst);
    FailureConfiguration config = fixtures::random_surviving_configuration(rng, inst);
    const auto& pl              = inst.pipeline;
    const auto& pf              = inst.platform;
    const auto& mp              = inst.mapping;
    double exact                = bbr10_exhaustive_election(pl, pf, mp, config).period;
    for (const Election& e :
         {bbr10_random_election(pl, pf, mp, config, 7), bbr10_max_bout_election(pl, pf, mp, config),
          bbr10_min_comm_election(pl, pf, mp, config), bbr10_min_nb_procs_election(pl, pf, mp, config),
          bbr10_best_election(pl, pf, mp, config).election})
      ASSERT_GE(bbr10_period(pl, pf, mp, config, e), exact) << inst.describe();
  }
}

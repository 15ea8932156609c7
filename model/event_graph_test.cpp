// Event-graph period against the closed formulas, and the cycle-ratio solver on hand-made graphs.
#include "model/analytic.hpp"
#include "model/event_graph.hpp"
#include "model/test_fixtures.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace pipesim;

TEST(EventGraph, Eq6ExampleGivesSeven)
{
  fixtures::Eq6Example ex;
  auto g = build_oneport_event_graph(ex.pipeline, ex.platform, ex.mapping);
  auto r = max_cycle_ratio(g);
  ASSERT_FALSE(r.deadlock);
  EXPECT_NEAR(r.period, 7.0, 1e-12);
  auto out = event_graph_output_times(g, 4);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_NEAR(out[0], 7.0, 1e-12);
  EXPECT_NEAR(out[3] - out[2], 7.0, 1e-12);
}

TEST(EventGraph, CycleRatioOfHandMadeGraph)
{
  // Two loops sharing a transition: a(2) -> b(3) -> a with one token: ratio 5; b -> c(10) -> b with two tokens:
  // ratio 6.5. Maximum 6.5.
  EventGraph g;
  int a = g.add_transition("a", 2);
  int b = g.add_transition("b", 3);
  int c = g.add_transition("c", 10);
  g.add_place(a, b, 0);
  g.add_place(b, a, 1);
  g.add_place(b, c, 0);
  g.add_place(c, b, 2);
  auto r = max_cycle_ratio(g);
  EXPECT_FALSE(r.deadlock);
  EXPECT_DOUBLE_EQ(r.period, 6.5);
}

TEST(EventGraph, TokenFreeCycleIsADeadlock)
{
  EventGraph g;
  int a = g.add_transition("a", 1);
  int b = g.add_transition("b", 1);
  g.add_place(a, b, 0);
  g.add_place(b, a, 0);
  auto r = max_cycle_ratio(g);
  EXPECT_TRUE(r.deadlock);
  EXPECT_NE(r.describe(g).find("token-free cycle"), std::string::npos);
  EXPECT_THROW(event_graph_schedule(g, 2), std::logic_error);
  EXPECT_FALSE(token_free_order(g).has_value());
}

TEST(EventGraph, TokenFreeOrderPutsEveryTokenFreePlaceForward)
{
  // c -> a -> b without tokens, b -> c with one token (no constraint within a round), d alone. Kahn's algorithm:
  // c and d first (no token-free place enters them; index order), then a (released by c), then b (by a).
  EventGraph g;
  int a = g.add_transition("a", 1);
  int b = g.add_transition("b", 1);
  int c = g.add_transition("c", 1);
  int d = g.add_transition("d", 1);
  g.add_place(c, a, 0);
  g.add_place(a, b, 0);
  g.add_place(b, c, 1);
  EXPECT_EQ(token_free_order(g), (std::vector<int>{c, d, a, b}));
}

TEST(EventGraph, TinyDurationsAreNotLostToBoostTolerance)
{
  // Boost's default tolerance is an absolute 0.005: with durations in microseconds it would return a wrong cycle.
  EventGraph g;
  int a = g.add_transition("a", 1e-6);
  int b = g.add_transition("b", 3e-6);
  g.add_place(a, a, 1);
  g.add_place(b, b, 1);
  g.add_place(a, b, 0);
  g.add_place(b, a, 1);
  auto r = max_cycle_ratio(g);
  EXPECT_DOUBLE_EQ(r.period, 4e-6);
}

TEST(EventGraph, MatchesEq2OnRandomIntervalMappings)
{
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    Rng rng(seed);
    auto inst = fixtures::random_platform_and_pipeline(rng, static_cast<int>(rng.integer(1, 8)),
                                                       static_cast<int>(rng.integer(1, 8)), seed % 2 == 0);
    fixtures::random_interval_mapping(rng, inst);
    auto r     = max_cycle_ratio(build_oneport_event_graph(inst.pipeline, inst.platform, inst.mapping));
    double eq2 = br07_eq2_period(inst.pipeline, inst.platform, inst.mapping);
    ASSERT_NEAR(r.period, eq2, 1e-12 * eq2) << "seed " << seed << ": " << inst.describe();
    auto g         = build_oneport_event_graph(inst.pipeline, inst.platform, inst.mapping);
    auto lat       = event_graph_output_times(g, 1).front();
    double formula = interval_latency(inst.pipeline, inst.platform, inst.mapping);
    ASSERT_NEAR(lat, formula, 1e-12 * formula) << "seed " << seed << ": " << inst.describe();
  }
}

TEST(EventGraph, MatchesActiveReplicationFormulaOnRandomReplicatedMappings)
{
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    Rng rng(seed);
    auto inst = fixtures::random_platform_and_pipeline(rng, static_cast<int>(rng.integer(1, 6)),
                                                       static_cast<int>(rng.integer(2, 10)), seed % 2 == 0);
    fixtures::random_replicated_mapping(rng, inst);
    auto r       = max_cycle_ratio(build_oneport_event_graph(inst.pipeline, inst.platform, inst.mapping));
    double value = oneport_active_period(inst.pipeline, inst.platform, inst.mapping);
    ASSERT_NEAR(r.period, value, 1e-12 * value) << "seed " << seed << ": " << inst.describe();
  }
}

TEST(EventGraph, GeneralMappingsBoundedByEq3AndEq45)
{
  // eq. (4) follows a cycle of the event graph, so the exact period is at least eq. (5); eq. (3) is optimistic.
  int equal = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    Rng rng(seed);
    auto inst = fixtures::random_platform_and_pipeline(rng, static_cast<int>(rng.integer(2, 8)),
                                                       static_cast<int>(rng.integer(1, 4)), false);
    fixtures::random_general_mapping(rng, inst);
    auto r = max_cycle_ratio(build_oneport_event_graph(inst.pipeline, inst.platform, inst.mapping));
    ASSERT_FALSE(r.deadlock) << inst.describe();
    double eq45 = br07_eq45_period(inst.pipeline, inst.platform, inst.mapping);
    double eq3  = br07_eq3_async_bound(inst.pipeline, inst.platform, inst.mapping);
    ASSERT_GE(r.period, eq45 * (1 - 1e-12)) << "seed " << seed << ": " << inst.describe();
    ASSERT_GE(r.period, eq3 * (1 - 1e-12)) << "seed " << seed << ": " << inst.describe();
    equal += std::fabs(r.period - eq45) <= 1e-12 * eq45;
  }
  RecordProperty("eq45_exact_count", equal);
}

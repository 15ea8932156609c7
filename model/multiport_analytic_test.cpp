// bbr10 eq. (1) and Algorithm 1 on hand-computed instances and on the paper's §2 example.
#include "base/input_error.hpp"
#include "model/analytic.hpp"
#include "model/test_fixtures.hpp"

#include <functional>
#include <gtest/gtest.h>

using namespace pipesim;

namespace {

struct Card {
  double speed;
  double bin  = unbounded;
  double bout = unbounded;
};

/// Processors P1..Pk with the given speeds and cards; every link (P_in, P_out included) has bandwidth b, latency c.
Platform make_platform(const std::vector<Card>& cards, double b, double c = 0)
{
  std::vector<Processor> procs;
  for (std::size_t u = 0; u < cards.size(); ++u)
    procs.push_back(Processor{"P" + std::to_string(u + 1), cards[u].speed, 0.0, cards[u].bin, cards[u].bout});
  return Platform(procs, "in", "out", b, c);
}

Interval active_interval(int first, int last, std::vector<int> procs)
{
  Interval in{first, last, {}, Replication::active};
  for (int u : procs)
    in.replicas.push_back({u});
  return in;
}

/// The message of the InputError `f` throws ("" if none).
std::string multiport_message_of(const std::function<void()>& f)
{
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

FailureConfiguration crashed(const Platform& platform, std::vector<int> dead)
{
  auto config = FailureConfiguration::all_alive(platform);
  for (int u : dead)
    config.alive[static_cast<std::size_t>(u)] = false;
  return config;
}

// Two stages: w = (10, 10), delta = (10, 20, 10); I_1 = [1] on {P1}, I_2 = [2] on {P2, P3}; speeds 10.
const Pipeline two_stages{{10, 10}, {10, 20, 10}};
Mapping one_then_two() { return Mapping{{active_interval(1, 1, {0}), active_interval(2, 2, {1, 2})}}; }

} // namespace

TEST(MultiportEq1, CardsBind)
{
  // b = 100 everywhere; Bout_1 = 10, Bin_2 = 4, the other cards unbounded.
  // P1: in 10/100 = 0.1, compute 10/10 = 1, out 20/100 = 0.2, card 2 * 20 / 10 = 4   -> 4 (Bout, two successors)
  // P2: in max(20/100, 20/4) = 5, compute 1, out 10/100 = 0.1, card 10/inf = 0       -> 5 (Bin)
  // P3: in 20/100 = 0.2, compute 1, out 0.1                                            -> 1
  Platform pf = make_platform({{10, unbounded, 10}, {10, 4}, {10}}, 100);
  Mapping mp  = one_then_two();
  auto t1     = bbr10_eq1_terms(two_stages, pf, mp, 0, 0);
  EXPECT_DOUBLE_EQ(t1.out_card, 4.0);
  EXPECT_DOUBLE_EQ(t1.out_link, 0.2);
  EXPECT_DOUBLE_EQ(bbr10_eq1_cycle_time(two_stages, pf, mp, 0, 0), 4.0);
  auto t2 = bbr10_eq1_terms(two_stages, pf, mp, 1, 1);
  EXPECT_DOUBLE_EQ(t2.in_card, 5.0);
  EXPECT_DOUBLE_EQ(t2.in_link, 0.2);
  EXPECT_DOUBLE_EQ(bbr10_eq1_cycle_time(two_stages, pf, mp, 1, 2), 1.0);
  EXPECT_DOUBLE_EQ(bbr10_eq1_period(two_stages, pf, mp), 5.0);
}

TEST(MultiportEq1, LinksBind)
{
  // b = 100 except b_{in,P1} = 2, b_{P1,P3} = 5, b_{P3,out} = 1; cards unbounded.
  // P1: in 10/2 = 5, compute 1, out max(20/100, 20/5) = 4 -> 5
  // P2: in 20/100 = 0.2, compute 1, out 10/100 = 0.1    -> 1
  // P3: in 20/5 = 4, compute 1, out 10/1 = 10             -> 10
  Platform pf = make_platform({{10}, {10}, {10}}, 100);
  pf.set_link(pf.in(), 0, 2, 0);
  pf.set_link(0, 2, 5, 0);
  pf.set_link(2, pf.out(), 1, 0);
  Mapping mp = one_then_two();
  EXPECT_DOUBLE_EQ(bbr10_eq1_cycle_time(two_stages, pf, mp, 0, 0), 5.0);
  EXPECT_DOUBLE_EQ(bbr10_eq1_terms(two_stages, pf, mp, 0, 0).out_link, 4.0);
  EXPECT_DOUBLE_EQ(bbr10_eq1_cycle_time(two_stages, pf, mp, 1, 1), 1.0);
  EXPECT_DOUBLE_EQ(bbr10_eq1_cycle_time(two_stages, pf, mp, 1, 2), 10.0);
  EXPECT_DOUBLE_EQ(bbr10_eq1_period(two_stages, pf, mp), 10.0);
  // Without failures P2 is elected for I_2: P3 receives (4) but does not send to P_out, and P1's 5 is the period.
  // Crash P2: P3 is elected and pays 10/1 = 10, eq. (1)'s worst case.
  EXPECT_DOUBLE_EQ(bbr10_interval_period_all_alive(two_stages, pf, mp), 5.0);
  auto config = crashed(pf, {1});
  EXPECT_DOUBLE_EQ(bbr10_period(two_stages, pf, mp, config, first_alive_election(mp, config)), 10.0);
}

TEST(MultiportEq1, SlowestPredecessorBindsTheInput)
{
  // I_1 = [1] on {P1, P2}, I_2 = [2] on {P3}; b = 100 except b_{P2,P3} = 4; Bin_3 = 10.
  // eq. (1) for P3: delta_1 / min(min(b_{P1,P3}, Bin_3), min(b_{P2,P3}, Bin_3)) = 20 / min(10, 4) = 5.
  // Elected P1 (no failure): 20 / min(100, 10) = 2. Crash P1: P2 sends, 5.
  Platform pf = make_platform({{10}, {10}, {10, 10}}, 100);
  pf.set_link(1, 2, 4, 0);
  Mapping mp{{active_interval(1, 1, {0, 1}), active_interval(2, 2, {2})}};
  EXPECT_DOUBLE_EQ(bbr10_eq1_cycle_time(two_stages, pf, mp, 1, 2), 5.0);
  EXPECT_DOUBLE_EQ(bbr10_eq1_period(two_stages, pf, mp), 5.0);
  EXPECT_DOUBLE_EQ(bbr10_interval_period_all_alive(two_stages, pf, mp), 2.0);
  auto config = crashed(pf, {0});
  EXPECT_DOUBLE_EQ(bbr10_period(two_stages, pf, mp, config, first_alive_election(mp, config)), 5.0);
}

TEST(MultiportEq1, ComputeBinds)
{
  // Links and cards fast (b = 1000); speeds P1 = 2, P2 = 1, P3 = 4.
  // P1: 10/2 = 5; P2: 10/1 = 10; P3: 10/4 = 2.5. The transfers take at most 20/1000.
  Platform pf = make_platform({{2}, {1}, {4}}, 1000);
  Mapping mp  = one_then_two();
  EXPECT_DOUBLE_EQ(bbr10_eq1_terms(two_stages, pf, mp, 1, 1).compute, 10.0);
  EXPECT_DOUBLE_EQ(bbr10_eq1_period(two_stages, pf, mp), 10.0);
  // Compute does not depend on failures: crashing P3 leaves P2 at 10; crashing P2 leaves P3 at 2.5 and P1 at 5.
  auto no_p3 = crashed(pf, {2});
  EXPECT_DOUBLE_EQ(bbr10_period(two_stages, pf, mp, no_p3, first_alive_election(mp, no_p3)), 10.0);
  auto no_p2 = crashed(pf, {1});
  EXPECT_DOUBLE_EQ(bbr10_period(two_stages, pf, mp, no_p2, first_alive_election(mp, no_p2)), 5.0);
}

TEST(MultiportEq1, ReplicatedSuccessorsMultiplyBout)
{
  // I_1 = [1] on {P1}, I_2 = [2] on r replicas; b = 100, Bout_1 = 8, speeds 10.
  // P1's card term: r * delta_1 / Bout_1 = r * 20 / 8 = 2.5 r (link term 20/100 = 0.2, compute 1).
  for (int r = 1; r <= 4; ++r) {
    std::vector<Card> cards{{10, unbounded, 8}};
    std::vector<int> succ;
    for (int k = 0; k < r; ++k) {
      cards.push_back({10});
      succ.push_back(k + 1);
    }
    Platform pf = make_platform(cards, 100);
    Mapping mp{{active_interval(1, 1, {0}), active_interval(2, 2, succ)}};
    EXPECT_DOUBLE_EQ(bbr10_eq1_terms(two_stages, pf, mp, 0, 0).out_card, 2.5 * r) << r << " successors";
    EXPECT_DOUBLE_EQ(bbr10_eq1_period(two_stages, pf, mp), std::max(1.0, 2.5 * r));
    // Algorithm 1 counts only the alive successors: crash all but one, the card term is 2.5 again.
    std::vector<int> dead(succ.begin() + 1, succ.end());
    auto config = crashed(pf, dead);
    EXPECT_DOUBLE_EQ(bbr10_cycle_time(two_stages, pf, mp, config, first_alive_election(mp, config), 0), 2.5);
  }
}

TEST(MultiportEq1, LatencyJoinsEachLinkTerm)
{
  // one_then_two, b = 100, c = 0.5 everywhere, Bin_2 = 8, Bout_1 = 10, speeds 10.
  // Bytes flow after the latency, on links and cards alike (docs/semantics.md, "Multi-port formulas"):
  // P1: in 0.5 + 10/100 = 0.6, compute 1, out link 0.5 + 20/100 = 0.7, card 0.5 + 2 * 20 / 10 = 4.5  -> 4.5
  // P2: in max(0.5 + 20/100, 0.5 + 20/8) = 3, compute 1, out 0.5 + 10/100 = 0.6                      -> 3
  Platform pf = make_platform({{10, unbounded, 10}, {10, 8}, {10}}, 100, 0.5);
  Mapping mp  = one_then_two();
  auto t1     = bbr10_eq1_terms(two_stages, pf, mp, 0, 0);
  EXPECT_DOUBLE_EQ(t1.in_link, 0.6);
  EXPECT_DOUBLE_EQ(t1.out_link, 0.7);
  EXPECT_DOUBLE_EQ(t1.out_card, 4.5);
  auto t2 = bbr10_eq1_terms(two_stages, pf, mp, 1, 1);
  EXPECT_DOUBLE_EQ(t2.in_link, 0.7);
  EXPECT_DOUBLE_EQ(t2.in_card, 3.0);
  EXPECT_DOUBLE_EQ(t2.out_link, 0.6);
  EXPECT_DOUBLE_EQ(bbr10_eq1_period(two_stages, pf, mp), 4.5);
  // Algorithm 1 splits the input the same way, so without failures P2 has the same terms.
  auto all   = FailureConfiguration::all_alive(pf);
  auto terms = bbr10_cycle_time_terms(two_stages, pf, mp, all, first_alive_election(mp, all));
  EXPECT_DOUBLE_EQ(terms[1].in_link, 0.7);
  EXPECT_DOUBLE_EQ(terms[1].in_card, 3.0);
}

TEST(MultiportEq1, CrashAllButTheWorstReplicaReachesEq1)
{
  // Three intervals, b = 10, Bout unbounded except Bout_3 = 5; speeds P1 = 10, P2 = 10, P3 = 2, P4 = 10.
  // w = (10, 10, 10), delta = (10, 10, 10, 10); I_1 = [1] on {P1}, I_2 = [2] on {P2, P3}, I_3 = [3] on {P4}.
  // eq. (1): P1: max(1, 1, 1, 2 * 10 / inf) = 1; P2: max(1, 1, 1, 10/inf) = 1;
  //          P3: max(1, 10/2 = 5, 1, 10/5 = 2) = 5; P4: 1.              -> eq. (1) = 5
  // Crash P2: P3 alone in I_2 is elected, cycle-time 5 = eq. (1). Crash P3: every cycle-time is 1.
  Pipeline pl{{10, 10, 10}, {10, 10, 10, 10}};
  Platform pf = make_platform({{10}, {10}, {2, unbounded, 5}, {10}}, 10);
  Mapping mp{{active_interval(1, 1, {0}), active_interval(2, 2, {1, 2}), active_interval(3, 3, {3})}};
  EXPECT_DOUBLE_EQ(bbr10_eq1_period(pl, pf, mp), 5.0);
  auto no_p2 = crashed(pf, {1});
  auto e     = first_alive_election(mp, no_p2);
  EXPECT_EQ(e.sender, (std::vector<int>{0, 2, 3}));
  auto terms = bbr10_cycle_time_terms(pl, pf, mp, no_p2, e);
  EXPECT_DOUBLE_EQ(terms[2].out_card, 2.0); // P3 elected: it now pays the output to P4
  EXPECT_DOUBLE_EQ(bbr10_period(pl, pf, mp, no_p2, e), bbr10_eq1_cycle_time(pl, pf, mp, 1, 2));
  auto no_p3 = crashed(pf, {2});
  EXPECT_DOUBLE_EQ(bbr10_period(pl, pf, mp, no_p3, first_alive_election(mp, no_p3)), 1.0);
  // Without failures P2 is elected; P3 computes (5) but does not send.
  EXPECT_DOUBLE_EQ(bbr10_interval_period_all_alive(pl, pf, mp), 5.0);
  auto all = FailureConfiguration::all_alive(pf);
  EXPECT_DOUBLE_EQ(bbr10_cycle_time_terms(pl, pf, mp, all, first_alive_election(mp, all))[2].out_card, 0.0);
}

TEST(MultiportAlgorithm1, TwoIntervalsOnOneProcessor)
{
  // General mapping [1]:P1 [2]:P2 [3]:P1 [4]:P2; w = (10, 20, 30, 40), delta = (5, 10, 15, 20, 25); b = 10;
  // speeds P1 = 10, P2 = 30; Bin_1 = 4, Bout_1 = 10, P2's cards unbounded.
  // P1: compute (10 + 30)/10 = 4; in: P_in->P1 5/10 = 0.5, P2->P1 15/10 = 1.5 (different links: max 1.5),
  //     card (5 + 15)/4 = 5; out: P1->P2 carries delta_1 and delta_3: (10 + 20)/10 = 3, card 30/10 = 3 -> 5
  // P2: compute (20 + 40)/30 = 2; in: P1->P2 3 (both transfers on one link); out: P2->P1 1.5, P2->out 2.5 -> 3
  Pipeline pl{{10, 20, 30, 40}, {5, 10, 15, 20, 25}};
  Platform pf = make_platform({{10, 4, 10}, {30}}, 10);
  Mapping mp  = make_interval_mapping({{1, 1}, {2, 2}, {3, 3}, {4, 4}}, {0, 1, 0, 1});
  ASSERT_EQ(classify(mp), MappingRule::general);
  auto all   = FailureConfiguration::all_alive(pf);
  auto e     = first_alive_election(mp, all);
  auto terms = bbr10_cycle_time_terms(pl, pf, mp, all, e);
  EXPECT_DOUBLE_EQ(terms[0].compute, 4.0);
  EXPECT_DOUBLE_EQ(terms[0].in_link, 1.5);
  EXPECT_DOUBLE_EQ(terms[0].in_card, 5.0);
  EXPECT_DOUBLE_EQ(terms[0].out_link, 3.0);
  EXPECT_DOUBLE_EQ(terms[0].out_card, 3.0);
  EXPECT_DOUBLE_EQ(terms[1].compute, 2.0);
  EXPECT_DOUBLE_EQ(terms[1].in_link, 3.0);
  EXPECT_DOUBLE_EQ(terms[1].out_link, 2.5);
  EXPECT_DOUBLE_EQ(bbr10_cycle_time(pl, pf, mp, all, e, 0), 5.0);
  EXPECT_DOUBLE_EQ(bbr10_cycle_time(pl, pf, mp, all, e, 1), 3.0);
  EXPECT_DOUBLE_EQ(bbr10_period(pl, pf, mp, all, e), 5.0);
  // With c = 0.25: P1->P2 carries two transfers that run concurrently, so the link pays c once: 0.25 + 3 = 3.25.
  Platform lat = make_platform({{10, 4, 10}, {30}}, 10, 0.25);
  EXPECT_DOUBLE_EQ(bbr10_cycle_time_terms(pl, lat, mp, all, e)[1].in_link, 3.25);
  // eq. (1) is for interval mappings only.
  EXPECT_THROW(bbr10_eq1_period(pl, pf, mp), InputError);
  EXPECT_THROW(bbr10_interval_period_all_alive(pl, pf, mp), InputError);
}

TEST(MultiportAlgorithm1, OverlappingSetsSendOnlyToProcessorsWithoutTheInterval)
{
  // I_1 = [1] on {P1, P2}, I_2 = [2] on {P1, P3} (sets overlap: beyond bbr10's subsets, follows its MILP).
  // b = 100, Bout = 10 everywhere, speeds 10, two_stages (delta_1 = 20).
  // Elected P2 for I_1: P1 computes I_1 itself, so P2 sends to P3 only: card 20/10 = 2, not 4.
  // Elected P1 for I_1: P1 sends to P3 (20/10 = 2) and, elected for I_2 too, 10 bytes to P_out: 30/10 = 3.
  Platform pf = make_platform({{10, unbounded, 10}, {10, unbounded, 10}, {10, unbounded, 10}}, 100);
  Mapping mp{{active_interval(1, 1, {0, 1}), active_interval(2, 2, {0, 2})}};
  auto all = FailureConfiguration::all_alive(pf);
  auto t   = bbr10_cycle_time_terms(two_stages, pf, mp, all, Election{{1, 0}});
  EXPECT_DOUBLE_EQ(t[1].out_card, 2.0);
  EXPECT_DOUBLE_EQ(t[0].in_card, 0.0); // P_in's delta_0 only, on an unbounded card
  EXPECT_DOUBLE_EQ(t[0].in_link, 10.0 / 100);
  EXPECT_DOUBLE_EQ(t[0].compute, 2.0);
  auto u = bbr10_cycle_time_terms(two_stages, pf, mp, all, Election{{0, 0}});
  EXPECT_DOUBLE_EQ(u[0].out_card, 3.0);
  EXPECT_DOUBLE_EQ(u[1].out_card, 0.0);
}

TEST(MultiportAlgorithm1, RejectsElectionsThatDoNotFit)
{
  Platform pf = make_platform({{10}, {10}, {10}}, 100);
  Mapping mp  = one_then_two();
  auto all    = FailureConfiguration::all_alive(pf);
  EXPECT_NE(multiport_message_of([&] {
              bbr10_period(two_stages, pf, mp, all, Election{{0, 0}});
            }).find("must be an alive replica"),
            std::string::npos);
  auto dead = crashed(pf, {1, 2});
  EXPECT_FALSE(every_interval_survives(mp, dead));
  EXPECT_EQ(first_alive_election(mp, dead).sender, (std::vector<int>{0, -1}));
  EXPECT_NE(multiport_message_of([&] {
              bbr10_period(two_stages, pf, mp, dead, first_alive_election(mp, dead));
            }).find("key 'mapping[1].replicas': seed 004 Algorithm 1: stages 2-2 have no alive replica"),
            std::string::npos);
  EXPECT_NE(multiport_message_of([&] {
              bbr10_period(two_stages, pf, mp, FailureConfiguration{{true}}, Election{{0, 1}});
            })
                .find("key 'simulation.failures': value '1': seed 004 Algorithm 1: a failure configuration of "
                      "this many processors, for a platform of 3"),
            std::string::npos);
  Mapping deal                  = mp;
  deal.intervals[1].replication = Replication::deal;
  EXPECT_THROW(bbr10_eq1_period(two_stages, pf, deal), InputError);
}

namespace {

/// bbr10 §2 (Figures 1-3; the figures are lost, only the text's numbers remain). Known from the text: the
/// CT_1 terms 2/10, 4/10, (2+4)/20, (17+23)/45, 3/10, 1/10, (3*6+1)/20, i.e. delta = (2, 3, 4, 1), w_1 = 17,
/// w_3 = 23, b = 10, and a processor of the {S_1, S_3} subset with speed 45 and cards Bin = Bout = 20; 12
/// processors, f = 0.15; the subsets {S_1, S_3} and {S_2} on 6 processors each; CT = 0.95 for P_1..P_6 and 0.91
/// for P_7..P_12; for the interval mapping (3 x 4 replicas) CT_2..4 = 0.6, CT_5,6 = 0.57, CT_7..10 = 0.91,
/// CT_11,12 = 0.42. Reconstructed (one choice that reproduces every one of these numbers): w_2 = 50; P_1..P_6
/// speed 45, Bin = Bout = 20 except Bin_5 = Bin_6 = 7; P_7..P_12 speed 55, Bin = 20, Bout = 30; the interval
/// mapping S_1 on P_1..P_4, S_2 on P_7..P_10, S_3 on P_5, P_6, P_11, P_12.
using fixtures::Bbr10Section2; // the reconstruction above, shared with the election tests (model/bbr10/)

} // namespace

TEST(MultiportBbr10Section2, GeneralMappingCycleTimeOfP1Is095)
{
  Bbr10Section2 ex;
  Mapping mp = ex.general();
  auto all   = FailureConfiguration::all_alive(ex.platform);
  // P_1 elected for S_1 and S_3, P_7 for S_2 (first alive).
  auto e = first_alive_election(mp, all);
  ASSERT_EQ(e.sender, (std::vector<int>{0, 6, 0}));
  auto t = bbr10_cycle_time_terms(ex.pipeline, ex.platform, mp, all, e)[0];
  EXPECT_DOUBLE_EQ(t.in_link, 4.0 / 10);   // max(2/10 from P_in, 4/10 from P_7): different links
  EXPECT_DOUBLE_EQ(t.in_card, 6.0 / 20);   // (2+4)/20
  EXPECT_DOUBLE_EQ(t.compute, 40.0 / 45);  // (17+23)/45
  EXPECT_DOUBLE_EQ(t.out_link, 3.0 / 10);  // max(3/10 to each S_2 replica, 1/10 to P_out)
  EXPECT_DOUBLE_EQ(t.out_card, 19.0 / 20); // (3*6+1)/20
  EXPECT_DOUBLE_EQ(t.cycle_time(), 0.95);  // the maximum of the terms, not their sum
  // "CT_i = 0.95 if i <= 6": any P_i of the subset elected for both S_1 and S_3 (Bin_5 = 7 gives 6/7 < 0.95).
  for (int u = 0; u < 6; ++u)
    EXPECT_DOUBLE_EQ(bbr10_cycle_time(ex.pipeline, ex.platform, mp, all, Election{{u, 6, u}}, u), 0.95) << u;
  // "CT_i = 0.91 if i >= 7": 50/55 (out: 4/10 per link, 6 * 4 / 30 = 0.8 on the card).
  for (int u = 6; u < 12; ++u)
    EXPECT_NEAR(bbr10_cycle_time(ex.pipeline, ex.platform, mp, all, e, u), 0.91, 0.005) << u;
  EXPECT_DOUBLE_EQ(bbr10_period(ex.pipeline, ex.platform, mp, all, e), 0.95);
}

TEST(MultiportBbr10Section2, ElectingDifferentProcessorsGives09)
{
  // Figure 3: P_1 elected for S_1 and P_2 for S_3: CT_1 = max(0.4, 0.3, 40/45, 3/10, 3*6/20) = 0.9;
  // CT_2 = max(0.4, 0.3, 40/45, 1/10, 1/20) = 40/45. The period is then P_7..P_12's 50/55 = 0.909.
  Bbr10Section2 ex;
  Mapping mp = ex.general();
  auto all   = FailureConfiguration::all_alive(ex.platform);
  Election split{{0, 6, 1}};
  EXPECT_DOUBLE_EQ(bbr10_cycle_time(ex.pipeline, ex.platform, mp, all, split, 0), 0.9);
  EXPECT_DOUBLE_EQ(bbr10_cycle_time(ex.pipeline, ex.platform, mp, all, split, 1), 40.0 / 45);
  EXPECT_DOUBLE_EQ(bbr10_period(ex.pipeline, ex.platform, mp, all, split), 50.0 / 55);
  // But the worst case is not 0.9: when P_2..P_6 crash (F counts this configuration as a success), P_1 is the only
  // possible sender of both S_1 and S_3 and the period is 0.95 whatever the election heuristic does.
  auto lone = crashed(ex.platform, {1, 2, 3, 4, 5});
  EXPECT_DOUBLE_EQ(bbr10_period(ex.pipeline, ex.platform, mp, lone, first_alive_election(mp, lone)), 0.95);
}

TEST(MultiportBbr10Section2, IntervalMappingIsEq1)
{
  // eq. (1) on Figure 2's mapping: S_1 replicas max(2/10, 17/45, 3/10, 4*3/20) = 0.6; S_2 replicas
  // max(3/10, 50/55, 4/10, 4*4/30) = 0.909; P_5, P_6: max(4/min(10, 7), 23/45, 1/10, 1/20) = 0.571;
  // P_11, P_12: max(4/10, 23/55, 1/10, 1/20) = 0.418. Period 0.909 ("0.91"), compute-bound, so every failure
  // configuration that leaves a replica of S_2 reaches it (Figure 2: P_8, P_9, P_10 crashed).
  Bbr10Section2 ex;
  Mapping mp         = ex.interval();
  const Pipeline& pl = ex.pipeline;
  for (int u : {0, 1, 2, 3})
    EXPECT_DOUBLE_EQ(bbr10_eq1_cycle_time(pl, ex.platform, mp, 0, u), 0.6);
  for (int u : {6, 7, 8, 9})
    EXPECT_DOUBLE_EQ(bbr10_eq1_cycle_time(pl, ex.platform, mp, 1, u), 50.0 / 55);
  EXPECT_DOUBLE_EQ(bbr10_eq1_cycle_time(pl, ex.platform, mp, 2, 4), 4.0 / 7);
  EXPECT_DOUBLE_EQ(bbr10_eq1_cycle_time(pl, ex.platform, mp, 2, 10), 23.0 / 55);
  EXPECT_DOUBLE_EQ(bbr10_eq1_period(pl, ex.platform, mp), 50.0 / 55);
  auto fig2 = crashed(ex.platform, {7, 8, 9});
  EXPECT_DOUBLE_EQ(bbr10_period(pl, ex.platform, mp, fig2, first_alive_election(mp, fig2)), 50.0 / 55);
  // bbr10 §2: F_int = 1 - (1 - 0.15^4)^3 ~ 0.0015; F_gen = 1 - (1 - 0.15^6)^2 ~ 0.000023.
  EXPECT_NEAR(bbr10_eq2_failure_probability(ex.platform, mp), 0.0015, 0.00005);
  EXPECT_NEAR(bbr10_eq2_failure_probability(ex.platform, ex.general()), 0.000023, 0.0000005);
}

TEST(MappingSurvives, ADealtIntervalNeedsAllItsReplicas)
{
  // I_1 active on P0, P1; I_2 dealt over P2, P3: the run survives P0's crash, not P2's (its data sets are lost),
  // though every interval keeps a replica. bbr10 eq. (2) as extended to deal counts exactly these failures.
  Platform pf = make_platform({{10}, {10}, {10}, {10}}, 100);
  for (int u = 0; u < 4; ++u)
    pf.processor(u).failure_probability = 0.1 * (u + 1);
  Mapping mp{{fixtures::interval(1, 1, {0, 1}, Replication::active), fixtures::interval(2, 2, {2, 3})}};
  EXPECT_TRUE(mapping_survives(mp, FailureConfiguration::all_alive(pf)));
  EXPECT_TRUE(mapping_survives(mp, crashed(pf, {0})));
  EXPECT_FALSE(mapping_survives(mp, crashed(pf, {0, 1})));
  EXPECT_FALSE(mapping_survives(mp, crashed(pf, {2})));
  EXPECT_TRUE(every_interval_survives(mp, crashed(pf, {2}))); // the active notion: a replica per interval
  // 1 - F = (1 - f0 f1) (1 - f2) (1 - f3) = the probability of the configurations mapping_survives accepts
  double survive = 0;
  for (int mask = 0; mask < 16; ++mask) {
    std::vector<int> dead;
    double p = 1;
    for (int u = 0; u < 4; ++u) {
      bool down = ((mask >> u) & 1) != 0;
      p *= down ? 0.1 * (u + 1) : 1 - 0.1 * (u + 1);
      if (down) dead.push_back(u);
    }
    if (mapping_survives(mp, crashed(pf, dead))) survive += p;
  }
  EXPECT_NEAR(survive, (1 - 0.1 * 0.2) * 0.7 * 0.6, 1e-15);
  EXPECT_NEAR(1 - bbr10_eq2_failure_probability(pf, mp), survive, 1e-15);
}

// The simulator's election policies (simulation.failures.election, docs/semantics.md "Crashes and active
// replication"): at the start and after every crash each interval's sender is the policy's, in both models.
#include "base/input_error.hpp"
#include "base/subprocess.hpp"
#include "model/bbr10/election_table.hpp"
#include "model/event_graph.hpp"
#include "model/multiport_analytic.hpp"
#include "model/test_fixtures.hpp"
#include "simulator/crash_fixtures.hpp"
#include "simulator/simulate.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace pipesim;

namespace {

/// The policy's election (`first` is first-alive).
Election elect(ElectionPolicy policy, const fixtures::RandomInstance& inst, const FailureConfiguration& config,
               std::uint64_t seed = 42)
{
  return bbr10_election(policy, seed)(inst.pipeline, inst.platform, inst.mapping, config);
}

/// The one-port event graph period of the mapping reduced to the alive replicas of `config` with the senders of
/// `election`.
double oneport_period(const fixtures::RandomInstance& inst, const FailureConfiguration& config,
                      const Election& election, bool* deadlock = nullptr)
{
  Mapping reduced = inst.mapping;
  for (auto& in : reduced.intervals)
    std::erase_if(in.replicas, [&](const ProcessorGroup& g) { return !config.is_alive(g.front()); });
  auto cr = max_cycle_ratio(build_oneport_event_graph(inst.pipeline, inst.platform, reduced, election.sender));
  if (deadlock) *deadlock = cr.deadlock;
  return cr.period;
}

/// fixtures::ElectionExample as a RandomInstance (w = (1, 1, 1), delta = (1, 10, 1, 10), speeds 100, b = 100,
/// Bout_1 = 20, Bout_2 = 15; I_1 = [1] on {P1, P2}, I_2 = [2] on {P3}, I_3 = [3] on {P1, P2}), with, when `p4`, a
/// third replica P4 of I_3 whose Bout is 12.
fixtures::RandomInstance election_example(bool p4)
{
  fixtures::ElectionExample ex;
  fixtures::RandomInstance inst{ex.pipeline, ex.platform, ex.mapping};
  if (!p4) return inst;
  inst.platform = Platform({Processor{"P1", 100, 0.1, unbounded, 20}, Processor{"P2", 100, 0.1, unbounded, 15},
                            Processor{"P3", 100, 0.1}, Processor{"P4", 100, 0.1, unbounded, 12}},
                           "in", "out", 100, 0);
  inst.mapping.intervals[2].replicas.push_back({3});
  return inst;
}

using P = ElectionPolicy;
const std::vector<ElectionPolicy> policies{P::first,    P::first_alive,  P::random, P::max_bout,
                                           P::min_comm, P::min_nb_procs, P::best,   P::exhaustive};
} // namespace

TEST(ElectionPolicy, FaultFreeAllottedPeriodIsAlgorithm1OfThePolicysElection)
{
  // fixtures::ElectionExample, every processor alive (model/bbr10/*_test.cpp): first-alive elects (P1, P3, P1), P1
  // sends 10 to P3 and 10 to P_out through Bout = 20: period 1. MinComm elects (P1, P3, P2): P1's card 10/20, P2's
  // 10/15, period 2/3. The simulated allotted multi-port period is Algorithm 1 of each policy's election.
  auto inst = election_example(false);
  auto all  = FailureConfiguration::all_alive(inst.platform);
  EXPECT_EQ(elect(P::first, inst, all).sender, (std::vector<int>{0, 2, 0}));
  EXPECT_EQ(elect(P::min_comm, inst, all).sender, (std::vector<int>{0, 2, 1}));
  EXPECT_DOUBLE_EQ(bbr10_period(inst.pipeline, inst.platform, inst.mapping, all, elect(P::first, inst, all)), 1.0);
  EXPECT_DOUBLE_EQ(bbr10_period(inst.pipeline, inst.platform, inst.mapping, all, elect(P::min_comm, inst, all)),
                   2.0 / 3);
  auto outcomes = run_pool(static_cast<int>(policies.size()), {.jobs = 2}, [&](int i) {
    auto s = fixtures::trace_settings(CommModel::multi_port, Allocation::allotted, 200, {},
                                      policies[static_cast<std::size_t>(i)]);
    return nlohmann::json(simulate_here({inst.pipeline, inst.platform, inst.mapping, s}).run).dump();
  });
  for (std::size_t i = 0; i < policies.size(); ++i) {
    ASSERT_TRUE(outcomes[i].ok()) << policies[i] << ": " << outcomes[i].text;
    auto sim       = nlohmann::json::parse(outcomes[i].text).get<SimulationResult>();
    double formula = bbr10_period(inst.pipeline, inst.platform, inst.mapping, all, elect(policies[i], inst, all));
    EXPECT_NEAR(sim.period, formula, 1e-6) << policies[i];
    EXPECT_EQ(sim.failures.verdict, Verdict::survived) << policies[i];
    EXPECT_EQ(sim.failures.election, policies[i]);
  }
}

TEST(ElectionPolicy, AfterACrashTheSteadyStateIsAlgorithm1OfThePolicysNewElection)
{
  // election_example(true): I_3 also on P4 (Bout 12). All alive, MinComm elects (P1, P3, P2) as without P4: 2/3.
  // P1 crashes: I_1 is forced to P2 (10/15), then I_3 costs P2 20/15 and P4 10/12: P4 takes I_3 from P2,
  // which is still alive (it stops sending I_3 and P4 goes on from the first data set not delivered). Period 10/12,
  // P4's card. first-alive elects (P2, P3, P2) after the crash: 20/15.
  auto inst  = election_example(true);
  auto all   = FailureConfiguration::all_alive(inst.platform);
  auto no_p1 = fixtures::crashed(inst.platform, {0});
  EXPECT_EQ(elect(P::min_comm, inst, all).sender, (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(elect(P::min_comm, inst, no_p1).sender, (std::vector<int>{1, 2, 3}));
  EXPECT_DOUBLE_EQ(bbr10_period(inst.pipeline, inst.platform, inst.mapping, no_p1, elect(P::min_comm, inst, no_p1)),
                   10.0 / 12);
  EXPECT_DOUBLE_EQ(bbr10_period(inst.pipeline, inst.platform, inst.mapping, no_p1, elect(P::first, inst, no_p1)),
                   20.0 / 15);
  struct Case {
    CommModel model;
    ElectionPolicy policy;
  };
  std::vector<Case> cases;
  for (const auto& policy : policies)
    for (CommModel model : {CommModel::multi_port, CommModel::one_port})
      cases.push_back({model, policy});
  auto outcomes = run_pool(static_cast<int>(cases.size()), {.jobs = 2}, [&](int i) {
    const Case& c = cases[static_cast<std::size_t>(i)];
    // the crash near the 100th output: one-port periods are about 0.2 here, multi-port ones about 1
    auto s = fixtures::trace_settings(c.model, Allocation::allotted, 300,
                                      {{"P1", c.model == CommModel::one_port ? 15.0 : 60.0}}, c.policy);
    return nlohmann::json(simulate_here({inst.pipeline, inst.platform, inst.mapping, s}).run).dump();
  });
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c    = cases[i];
    std::string what = fmt::format("{} {}", c.model, c.policy);
    ASSERT_TRUE(outcomes[i].ok()) << what << ": " << outcomes[i].text;
    auto sim = nlohmann::json::parse(outcomes[i].text).get<SimulationResult>();
    EXPECT_EQ(sim.failures.verdict, Verdict::survived) << what;
    ASSERT_EQ(sim.output_times.size(), 300u) << what;
    EXPECT_TRUE(fixtures::strictly_increasing(sim.output_times)) << what;
    Election before = elect(c.policy, inst, all), after = elect(c.policy, inst, no_p1);
    int changed = 0;
    for (std::size_t j = 0; j < before.sender.size(); ++j)
      changed += before.sender[j] != after.sender[j] ? 1 : 0;
    EXPECT_EQ(sim.failures.elections, changed) << what;
    double want_before, want_after;
    if (c.model == CommModel::multi_port) {
      want_before = bbr10_period(inst.pipeline, inst.platform, inst.mapping, all, before);
      want_after  = bbr10_period(inst.pipeline, inst.platform, inst.mapping, no_p1, after);
    } else { // the event graph of the survivors with the policy's senders
      want_before = oneport_period(inst, all, before);
      want_after  = oneport_period(inst, no_p1, after);
    }
    EXPECT_NEAR(sim.failures.period_before, want_before, 1e-6 * want_before) << what;
    EXPECT_NEAR(sim.failures.period_after, want_after, 1e-6 * want_after) << what;
  }
}

TEST(ElectionPolicy, RandomCrashSchedulesEndWithAVerdictAndDeliverEveryDataSetOnceInOrder)
{
  // Random crash schedules on random replicated mappings (interval and general), one-port and multi-port (fair and
  // allotted), each policy in turn. Policies other than first-alive re-elect senders that are still alive, so the
  // handover (docs/semantics.md, "Crashes") runs often. Every run ends with a verdict; a survived run delivered the
  // N data sets once each, in order (P_out throws on an index out of order); a run fails exactly when some interval
  // loses every replica (the crashes fall in the first 30% of the fault-free run, while every interval has work).
  struct Case {
    fixtures::RandomInstance inst;
    SimulationSettings settings;
    bool should_survive = true;
    bool handover       = false; // some crash moves an interval away from a sender that is still alive
  };
#ifdef PIPESIM_SANITIZE
  const std::uint64_t count = 120; // ASan makes each simulation ~10 times slower: 15 schedules per policy
#else
  const std::uint64_t count = 480; // 60 per policy
#endif
  std::vector<Case> cases;
  for (std::uint64_t seed = 1; seed <= count; ++seed) {
    Rng rng(seed * 104729);
    auto inst = fixtures::random_platform_and_pipeline(rng, static_cast<int>(rng.integer(2, 6)),
                                                       static_cast<int>(rng.integer(4, 9)), seed % 3 == 0);
    if (seed % 4 < 2) {
      fixtures::random_replicated_mapping(rng, inst);
      fixtures::random_cards(rng, inst.platform);
    } else {
      fixtures::random_replicated_general_mapping(rng, inst); // with cards
    }
    ElectionPolicy policy = policies[seed % policies.size()];
    CommModel model       = (seed / policies.size()) % 2 == 0 ? CommModel::one_port : CommModel::multi_port;
    auto all              = FailureConfiguration::all_alive(inst.platform);
    Election first        = elect(policy, inst, all, seed);
    double period         = bbr10_period(inst.pipeline, inst.platform, inst.mapping, all, first);
    if (model == CommModel::one_port) {
      bool deadlock      = false;
      double event_graph = oneport_period(inst, all, first, &deadlock);
      if (deadlock)
        model = CommModel::multi_port; // a general mapping whose one-port programs deadlock: not this test's subject
      else
        period = event_graph;
    }
    int datasets          = 20;
    double horizon        = period * datasets * 0.3;
    Allocation allocation = seed % 3 == 1 ? Allocation::fair : Allocation::allotted;
    // up to 24 schedules for this instance: the first with a handover, when the policy can make one (not first,
    // first-alive or max-bout: their sender stays elected while it lives)
    Case c;
    for (int attempt = 0; attempt < 24 && !c.handover; ++attempt) {
      std::vector<Crash> crashes;
      auto config = all;
      for (int u : inst.mapping.processors())
        if (rng.uniform01() < 0.35) {
          crashes.push_back({inst.platform.node_name(u), rng.uniform(0, horizon)});
          config.alive[static_cast<std::size_t>(u)] = false;
        }
      std::ranges::sort(crashes, {}, &Crash::time);
      c               = Case{inst, fixtures::trace_settings(model, allocation, datasets, crashes, policy), true, false};
      c.settings.seed = seed;
      c.should_survive = every_interval_survives(inst.mapping, config);
      auto now         = all;
      for (const Crash& crash : crashes) { // the policy's elections along the schedule (random: seeded like the run)
        Election old                                                         = elect(policy, inst, now, seed);
        now.alive[static_cast<std::size_t>(*inst.platform.find(crash.host))] = false;
        if (!every_interval_survives(inst.mapping, now)) break;
        Election next = elect(policy, inst, now, seed);
        for (std::size_t j = 0; j < old.sender.size(); ++j)
          c.handover = c.handover || (next.sender[j] != old.sender[j] && now.is_alive(old.sender[j]));
      }
    }
    cases.push_back(std::move(c));
  }
  auto outcomes = run_pool(static_cast<int>(cases.size()), {.jobs = 2}, [&](int i) {
    const Case& c = cases[static_cast<std::size_t>(i)];
    return nlohmann::json(simulate_here({c.inst.pipeline, c.inst.platform, c.inst.mapping, c.settings}).run).dump();
  });
  int survived = 0, failed = 0, handovers = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    std::string what =
        fmt::format("case {} {} {} {} seed {}: {}; crashes:", i + 1, c.settings.model, c.settings.allocation,
                    c.settings.failures.election, c.settings.seed, c.inst.describe());
    for (const Crash& crash : c.settings.crashes)
      what += " " + crash.host + " at " + std::to_string(crash.time);
    ASSERT_TRUE(outcomes[i].ok()) << what << ": " << outcomes[i].text;
    auto sim = nlohmann::json::parse(outcomes[i].text).get<SimulationResult>();
    EXPECT_EQ(sim.failures.election, c.settings.failures.election) << what;
    handovers += c.handover ? 1 : 0;
    // the crashes that happened before the run ended: a `fair` run can beat Algorithm 1's period and end before a
    // crash of the schedule (1 run in 4,000 here)
    auto happened = FailureConfiguration::all_alive(c.inst.platform);
    for (const Crash& crash : sim.failures.crashes)
      happened.alive[static_cast<std::size_t>(*c.inst.platform.find(crash.host))] = false;
    bool late = !c.should_survive && every_interval_survives(c.inst.mapping, happened);
    (c.should_survive || late ? survived : failed) += 1;
    fixtures::expect_verdict(sim, c.should_survive || late, c.settings.datasets, what);
  }
  EXPECT_GT(survived, static_cast<int>(count) * 3 / 10);
  EXPECT_GT(failed, static_cast<int>(count) / 10);
  EXPECT_GT(handovers, static_cast<int>(count) / 12);
  std::printf("[          ] %d survived, %d failed, %d with a handover of an alive sender\n", survived, failed,
              handovers);
}

TEST(ElectionPolicy, NamesAreTheScenarioValues)
{
  // The settings hold a policy, so no unknown one reaches the simulator: the scenario parser refuses unknown names
  // (scenario_failures_test.cpp), listing these.
  EXPECT_EQ(enum_name_list<ElectionPolicy>(),
            "first, best, exhaustive, first-alive, max-bout, min-comm, min-nb-procs, random");
  EXPECT_EQ(from_string<ElectionPolicy>("min-comm"), P::min_comm);
  EXPECT_EQ(from_string<ElectionPolicy>("min_comm"), std::nullopt);
}

// Random operation times in the simulator (DESIGN.md §3.10): the deployments draw each data set's work and sizes
// from the model's Variability (the max-plus oracle's draws: every output time agrees on the exact network), the
// precision rule's interval covers the exact exponential period of a blocking line, and N.B.U.E. laws keep the
// simulated period inside the bracket.
#include "model/deal.hpp"
#include "model/event_graph.hpp"
#include "model/exponential_period.hpp"
#include "model/maxplus.hpp"
#include "model/multiport_event_graph.hpp"
#include "model/test_fixtures.hpp"
#include "simulator/crash_fixtures.hpp"
#include "simulator/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <iostream>

using namespace pipesim;

namespace {

/// A one-to-one line of n stages of mean work 1 on processors of speed 1, messages of size 0, no latency (the
/// blocking line of docs/random-times.md "What the numbers show").
fixtures::RandomInstance random_times_line(int n)
{
  std::vector<Processor> procs;
  std::vector<std::pair<int, int>> intervals;
  std::vector<int> alloc;
  for (int i = 0; i < n; ++i) {
    procs.push_back(Processor{"P" + std::to_string(i + 1)});
    intervals.emplace_back(i + 1, i + 1);
    alloc.push_back(i);
  }
  fixtures::RandomInstance line;
  line.pipeline = Pipeline{std::vector<double>(static_cast<std::size_t>(n), 1.0),
                           std::vector<double>(static_cast<std::size_t>(n) + 1, 0.0)};
  line.platform = Platform(procs, "in", "out", 1.0, 0.0);
  line.mapping  = make_interval_mapping(intervals, alloc);
  return line;
}

/// A random case of this file: the instance, the run's settings and laws, and the event graph of its execution.
struct RandomTimesCase {
  fixtures::RandomInstance inst;
  SimulationSettings settings;
  VariabilitySpec laws;
  EventGraph graph;
  std::string text;
};

/// Random laws for work and sizes, a different mix per seed (every law of base/random_law.hpp); with `nbue`, only
/// N.B.U.E. ones (uniform, gamma with cv <= 1, exponential, deterministic).
VariabilitySpec random_laws(Rng& rng, bool nbue)
{
  auto law = [&] {
    switch (rng.integer(0, nbue ? 3 : 5)) {
    case 0:
      return UnitLaw::exponential();
    case 1:
      return UnitLaw::uniform(rng.uniform(0.05, 0.57));
    case 2:
      return UnitLaw::gamma(rng.uniform(0.1, 1.0));
    case 3:
      return UnitLaw();
    case 4:
      return UnitLaw::lognormal(rng.uniform(0.1, 2.0));
    default:
      return UnitLaw::gamma(rng.uniform(1.0, 3.0));
    }
  };
  VariabilitySpec spec;
  spec.work = law();
  spec.size = law();
  if (rng.integer(0, 1) == 1) spec.work_of[1] = law(); // a stage with a law of its own
  if (spec.deterministic()) spec.work = UnitLaw::exponential();
  spec.seed = rng.next();
  return spec;
}

/// Seed `seed`'s case: a random_multiport_instance of 1..max_stages stages on 2..max_processors processors,
/// latencies on odd seeds, a mapping of kind seed % 6 (one-port interval, general, actively replicated, dealt;
/// multi-port allotted actively replicated or dealt with buffers 1..3), random laws.
RandomTimesCase random_times_case(std::uint64_t seed, int max_stages, int max_processors, bool nbue)
{
  Rng rng(seed * 7919 + 17);
  RandomTimesCase c;
  const int kind = static_cast<int>(seed % 6);
  c.inst         = fixtures::random_multiport_instance(rng, static_cast<int>(rng.integer(1, max_stages)),
                                                       static_cast<int>(rng.integer(2, max_processors)), seed % 2 == 1);
  if (kind == 0) fixtures::random_interval_mapping(rng, c.inst);
  if (kind == 1) fixtures::random_general_mapping(rng, c.inst);
  if (kind == 2 || kind == 4) fixtures::random_deal_mapping(rng, c.inst, 3, 0.0); // active replication
  if (kind == 3 || kind == 5) fixtures::random_deal_mapping(rng, c.inst, 3, 1.0); // dealt
  c.laws                = random_laws(rng, nbue);
  c.settings.model      = kind < 4 ? CommModel::one_port : CommModel::multi_port;
  c.settings.allocation = Allocation::allotted;
  c.settings.buffer     = static_cast<int>(rng.integer(1, 3));
  c.settings.seed       = seed;
  c.graph               = kind < 4 ? build_oneport_event_graph(c.inst.pipeline, c.inst.platform, c.inst.mapping)
                                   : build_multiport_event_graph(c.inst.pipeline, c.inst.platform, c.inst.mapping, c.settings.buffer);
  c.text = fmt::format("seed {} ({}, L = {}{}), laws {}: {}", seed, c.settings.model, c.graph.datasets_per_round,
                       kind < 4 ? "" : fmt::format(", buffer {}", c.settings.buffer),
                       Variability(c.inst.pipeline, c.laws, *c.laws.seed).to_string(), c.inst.describe());
  return c;
}

SimulationResult simulate_case(const RandomTimesCase& c)
{
  SimulationJob job(c.inst.pipeline, c.inst.platform, c.inst.mapping, c.settings);
  job.variability = c.laws;
  return simulate(job).run;
}

/// Seeds [first, first + count): every simulated output time equals the max-plus recurrence's with the same draws
/// (model/maxplus.hpp), relative 1e-9.
void check_against_maxplus(std::uint64_t first, std::uint64_t count)
{
  double largest   = 0;
  int random_sizes = 0;
  for (std::uint64_t seed = first; seed < first + count / fixtures::asan_scale; ++seed) {
    RandomTimesCase c    = random_times_case(seed, 5, 8, false);
    c.settings.datasets  = std::max(40, 8 * c.graph.datasets_per_round);
    SimulationResult sim = simulate_case(c);
    Variability v(c.inst.pipeline, c.laws, *c.laws.seed);
    std::vector<double> expected = maxplus_output_times(c.graph, v, c.settings.datasets);
    ASSERT_EQ(sim.failures.verdict, Verdict::survived) << c.text;
    ASSERT_EQ(sim.output_times.size(), expected.size()) << c.text;
    for (std::size_t k = 0; k < expected.size(); ++k) {
      double error = std::abs(sim.output_times[k] - expected[k]) / expected[k];
      largest      = std::max(largest, error);
      ASSERT_LE(error, 1e-9) << c.text << "\ndata set " << k << ": simulated " << sim.output_times[k] << ", max-plus "
                             << expected[k];
    }
    ASSERT_TRUE(sim.estimate.has_value()) << c.text; // random laws: the run's period has an interval
    random_sizes += c.laws.size.constant() ? 0 : 1;
  }
  std::cout << "seeds " << first << "..: largest relative difference of an output time " << largest << " ("
            << random_sizes << " with random sizes)\n";
}

} // namespace

// 200 random mappings in four tests (ctest runs them in parallel). Measured (this file's output): every output time
// within 3e-12 (relative) of the max-plus recurrence's.
TEST(SimulatedRandomTimes, OutputTimesAreTheMaxPlusRecurrencesSeeds1To50) { check_against_maxplus(1, 50); }
TEST(SimulatedRandomTimes, OutputTimesAreTheMaxPlusRecurrencesSeeds51To100) { check_against_maxplus(51, 50); }
TEST(SimulatedRandomTimes, OutputTimesAreTheMaxPlusRecurrencesSeeds101To150) { check_against_maxplus(101, 50); }
TEST(SimulatedRandomTimes, OutputTimesAreTheMaxPlusRecurrencesSeeds151To200) { check_against_maxplus(151, 50); }

TEST(SimulatedRandomTimes, RerunsAreBitIdenticalAndTheLawsChangeTheRun)
{
  RandomTimesCase c   = random_times_case(3, 4, 6, false); // one-port, dealt
  c.settings.datasets = 60;
  auto a              = simulate_case(c);
  auto b              = simulate_case(c);
  ASSERT_EQ(a.output_times, b.output_times) << c.text; // bit for bit
  c.laws.seed = *c.laws.seed + 1;
  auto other  = simulate_case(c);
  EXPECT_NE(a.output_times, other.output_times) << c.text;
}

TEST(SimulatedRandomTimes, CrashRunsDrawTheSameTimesAsTheFaultFreeRun)
{
  // Actively replicated mappings (one-port and multi-port allotted) under random laws; the elected replica of a
  // replicated interval crashes half-way through the fault-free run. The crash run survives with every data set once
  // and in order, is bit-identical when rerun, and (same draws, and nothing before the crash can know of it) every
  // output before the crash time equals the fault-free run's.
  int checked = 0;
  for (std::uint64_t seed = 2; checked < 12 / static_cast<int>(fixtures::asan_scale); seed += 2) {
    RandomTimesCase c = random_times_case(seed, 4, 8, false); // kinds 2 and 4: active replication
    auto replicated =
        std::ranges::find_if(c.inst.mapping.intervals, [](const Interval& in) { return in.replicas.size() > 1; });
    if (replicated == c.inst.mapping.intervals.end()) continue;
    c.settings.datasets = 60;
    auto clean          = simulate_case(c);
    ASSERT_TRUE(clean.estimate) << c.text;
    const double t_crash = clean.output_times[30];
    const std::string victim(c.inst.platform.node_name(replicated->replicas.front().front()));
    RandomTimesCase crashed = c;
    crashed.settings = fixtures::trace_settings(c.settings.model, c.settings.allocation, 60, {{victim, t_crash}});
    crashed.settings.buffer = c.settings.buffer;
    crashed.settings.seed   = c.settings.seed;
    auto run                = simulate_case(crashed);
    const std::string what  = c.text + "\ncrash of " + victim + " at " + std::to_string(t_crash);
    fixtures::expect_verdict(run, true, 60, what);
    EXPECT_FALSE(run.estimate) << what; // a crash run has no steady state to estimate
    EXPECT_EQ(run.output_times, simulate_case(crashed).output_times) << what;
    ASSERT_EQ(run.failures.crashes.size(), 1U) << what;
    for (std::size_t k = 0; k < clean.output_times.size() && clean.output_times[k] < t_crash; ++k)
      ASSERT_EQ(run.output_times[k], clean.output_times[k]) << what << "\ndata set " << k;
    ++checked;
  }
}

TEST(SimulatedRandomTimes, PrecisionIntervalCoversTheExponentialPeriodOfALine)
{
  // A one-to-one line of n = 2..5 stages (n = 2 + seed % 4), every mean work 1, messages of size 0, exponential work:
  // the period is the exponential chain's (its value for n = 2 is the closed form of the two-stage blocking line,
  // mu1 mu2 (mu1 + mu2) / (mu1^2 + mu1 mu2 + mu2^2) = 2/3 for a throughput at mu = 1, so 3/2). The simulation runs
  // with precision 0.03 (first look at 2,000 data sets) and its 95 % interval must contain the period for at least
  // 36 of 40 seeds. Measured: 39 of 40, 3,250 data sets per run on average (precision 0.02 from 4,000: 39 of 40 with
  // 7,000). With precision 0.05 from 1,000 data sets (batches of 49 data sets, stopped at the first look) only 36 of
  // 40: short batches of a correlated stream, and stopping when the interval happens to be narrow, both make it too
  // narrow (docs/random-times.md).
  int covered = 0, runs = 0;
  long long datasets = 0;
  for (std::uint64_t seed = 1; seed <= 40 / fixtures::asan_scale; ++seed) {
    const int n = 2 + static_cast<int>(seed % 4);
    auto line   = random_times_line(n);
    auto chain  = exponential_period(build_oneport_event_graph(line.pipeline, line.platform, line.mapping));
    ASSERT_TRUE(chain.period) << chain.reason;
    if (n == 2) {
      ASSERT_NEAR(*chain.period, 1.5, 1e-9);
    }
    SimulationSettings s;
    s.datasets     = 2000;
    s.precision    = 0.03;
    s.max_datasets = 256'000;
    s.seed         = seed;
    SimulationJob job(line.pipeline, line.platform, line.mapping, s);
    job.variability.work = UnitLaw::exponential();
    auto sim             = simulate(job).run;
    ASSERT_TRUE(sim.estimate && sim.estimate->ok)
        << "seed " << seed << ": " << (sim.estimate ? sim.estimate->reason : "");
    const PeriodEstimate& e = *sim.estimate;
    EXPECT_LE(e.relative_half_width(), 0.03) << "seed " << seed;
    EXPECT_LT(sim.output_times.size(), 256'000U) << "seed " << seed; // stopped by the precision, not the cap
    EXPECT_EQ(sim.period, e.period);
    const bool inside = e.ci_lo <= *chain.period && *chain.period <= e.ci_hi;
    covered += inside ? 1 : 0;
    runs += 1;
    datasets += static_cast<long long>(sim.output_times.size());
    if (!inside)
      std::cout << "seed " << seed << ", n = " << n << ": exponential period " << *chain.period << " outside "
                << e.to_string() << "\n";
  }
  std::cout << covered << " of " << runs << " intervals contain the exponential period; " << datasets / runs
            << " data sets per run on average\n";
  EXPECT_GE(covered, runs * 9 / 10);
}

TEST(SimulatedRandomTimes, DeterministicPrecisionRunStopsWhenPeriodic)
{
  // The same line with deterministic times and a precision: its output times are periodic as soon as the pipeline is
  // full (period 1, the slowest stage: every stage takes 1 and messages take 0), so the run stops at its first look
  // with an interval of width 0 that says why.
  auto line = random_times_line(3);
  SimulationSettings s;
  s.datasets  = 100;
  s.precision = 0.01;
  auto sim    = simulate({line.pipeline, line.platform, line.mapping, s}).run;
  ASSERT_TRUE(sim.estimate && sim.estimate->ok);
  EXPECT_TRUE(sim.estimate->periodic);
  EXPECT_EQ(sim.output_times.size(), 100U);
  EXPECT_NEAR(sim.period, 1.0, 1e-12);
  EXPECT_EQ(sim.estimate->ci_lo, sim.estimate->ci_hi);
  EXPECT_NE(sim.estimate->reason.find("periodic"), std::string::npos) << sim.estimate->reason;
}

TEST(SimulatedRandomTimes, NbueLawsKeepTheSimulatedPeriodInTheBracket)
{
  // 100 random mappings (1..3 stages, 2..5 processors, every kind) under N.B.U.E. laws: the simulated period over
  // 2,000 data sets lies in [deterministic, exponential] (Algorithmica 2014 §5) up to 3 half-widths of its 95 %
  // interval (a deterministic bottleneck has the lower end as its period). Chains over 100,000 states are skipped.
  ExponentialOptions options;
  options.max_states = 100'000;
  int checked = 0, shared = 0;
  for (std::uint64_t seed = 1001; seed <= 1000 + 100 / fixtures::asan_scale; ++seed) {
    RandomTimesCase c = random_times_case(seed, 3, 5, true);
    Variability v(c.inst.pipeline, c.laws, *c.laws.seed);
    auto bracket = nbue_bracket(c.graph, v, options);
    ASSERT_TRUE(bracket.applies) << c.text << ": " << bracket.reason;
    if (!bracket.upper) continue;
    c.settings.datasets = 2000;
    auto sim            = simulate_case(c);
    ASSERT_TRUE(sim.estimate) << c.text;
    if (!sim.estimate->ok) continue; // too short to say (counted below)
    const PeriodEstimate& e = *sim.estimate;
    const double slack      = 2 * e.half_width() + 1e-9 * bracket.lower;
    EXPECT_TRUE(bracket.contains(e.ci_lo - slack, e.ci_hi + slack)) << c.text << "\n"
                                                                    << bracket.to_string() << "\n"
                                                                    << e.to_string();
    ++checked;
    shared += bracket.independent ? 0 : 1;
  }
  std::cout << checked << " mappings checked, " << shared << " with shared draws (active replication)\n";
  EXPECT_GE(checked, 80 / static_cast<int>(fixtures::asan_scale));
}

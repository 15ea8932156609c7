// sv95's data-parallel modules simulated with their response functions (DESIGN.md §3.8): the simulated period is
// §2.2's max_j f_j / r_j and the simulated latency §2.1's one-data-set time, on a worked example and on seeded random
// clusterings with replication.
#include "base/input_error.hpp"
#include "base/random.hpp"
#include "model/deal.hpp"
#include "model/sv95/chain_generator.hpp"
#include "model/sv95/response.hpp"
#include "model/test_fixtures.hpp"
#include "simulator/module_actors.hpp"
#include "simulator/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <iostream>

using namespace pipesim;

namespace {

Platform homogeneous(int p)
{
  std::vector<Processor> processors;
  for (int u = 1; u <= p; ++u)
    processors.push_back(Processor{.name = fmt::format("P{}", u)});
  return Platform(processors, "Pin", "Pout");
}

TaskChain worked_chain() { return fixtures::sv95_worked_chain(); }

/// Tasks of constant f_exec times, no communication.
TaskChain program_free_chain(const std::vector<double>& exec)
{
  TaskChain chain;
  for (double e : exec)
    chain.tasks.push_back(Task{.name = "", .exec = CostFunction::polynomial(e)});
  chain.icom.assign(exec.size() - 1, CostFunction::polynomial(0));
  chain.ecom.assign(exec.size() - 1, CommFunction::polynomial(0));
  return chain;
}

TEST(ModuleSimulation, WorkedExamplePeriodAndLatency)
{
  // M1 = {t1}, 3 instances of 3 processors: f1 = (0 + 5) + 4.5 = 9.5, term 9.5 / 3; M2 = {t2, t3} on 4: f2 = 4.5 + 7
  // = 11.5, the bottleneck. One data set alone: 5 + 4.5 + 7 = 16.5.
  TaskChain chain = worked_chain();
  std::vector<Sv95Module> modules{{1, 1, 3, 3}, {2, 3, 1, 4}};
  SimulationSettings s;
  s.datasets              = 60;
  Mapping mapping         = sv95_mapping(modules);
  SimulationResult result = simulate({chain, homogeneous(13), mapping, s}).run;
  EXPECT_EQ(result.failures.verdict, Verdict::survived);
  ASSERT_EQ(result.output_times.size(), 60U);
  EXPECT_NEAR(result.period, 11.5, 1e-12);
  EXPECT_NEAR(result.output_times.front(), 16.5, 1e-12);
  EXPECT_NEAR(simulate({chain, homogeneous(13), mapping, s, RunKind::latency}).latency(), 16.5, 1e-12);
  // busy fractions per processor: P1 (instance 1 of M1) computes 5 s for each of its 20 data sets
  ASSERT_EQ(result.usage.size(), 13U);
  EXPECT_EQ(result.usage[0].host, "P1");
  EXPECT_NEAR(result.usage[0].compute, 20 * 5 / result.makespan, 1e-9);
  EXPECT_NEAR(result.usage[0].send, 20 * 4.5 / result.makespan, 1e-9);
  EXPECT_NEAR(result.usage[12].receive, 60 * 4.5 / result.makespan, 1e-9);
}

TEST(ModuleSimulation, RefusesFailures)
{
  SimulationSettings s;
  s.crashes = {Crash{"P1", 1.0}};
  EXPECT_THAT(
      [&] {
        simulate({worked_chain(), homogeneous(13), sv95_mapping({{1, 3, 1, 4}}), s}).run;
      },
      ::testing::ThrowsMessage<InputError>(::testing::HasSubstr("without failures")));
}

TEST(ModuleSimulation, RefusesARunPastWhatSimGridsClockCanDate)
{
  // Issue 31: f = 2e307 s per module and 200 data sets end near 4e309 s, past the largest double: the run printed a
  // period of 0 (SimGrid: "Deadlock detected" at time inf). One data set takes at most 2e307 + 2e307 s, and
  // (200 + 1) x 4e307 is past 1e307.
  TaskChain chain = program_free_chain({2e307, 2e307});
  SimulationSettings s;
  s.datasets = 200;
  EXPECT_THAT(
      [&] {
        simulate({chain, homogeneous(2), sv95_mapping({{1, 1, 1, 1}, {2, 2, 1, 1}}), s});
      },
      ::testing::ThrowsMessage<InputError>(::testing::StrEq(
          "key 'simulation.datasets': value '200': data sets of up to 4e+307 s each through these modules may end past "
          "1e307 s, beyond what "
          "SimGrid's clock (a double) can date; give the task chain's times in a larger unit (e.g. hours instead of "
          "seconds)")));
  chain      = program_free_chain({2e300, 2e300}); // 201 x 4e300 s: dated, and the period is f_1 = 2e300
  s.datasets = 20;
  EXPECT_NEAR(simulate({chain, homogeneous(2), sv95_mapping({{1, 1, 1, 1}, {2, 2, 1, 1}}), s}).run.period / 2e300, 1,
              1e-12);
}

/// A random clustering of chain's k tasks with r and p per module within P processors (p >= p_min, r = 1 for a module
/// that is not replicable), or nothing when the draw does not fit.
std::optional<std::vector<Sv95Module>> random_modules(const TaskChain& chain, int processors, Rng& rng)
{
  std::vector<Sv95Module> modules;
  int used = 0;
  for (int first = 1; first <= chain.k();) {
    int last = static_cast<int>(rng.integer(first, std::min(first + 1, chain.k()))); // 1 or 2 tasks
    Sv95Module m{first, last, 1, module_p_min(chain, first, last)};
    m.p += static_cast<int>(rng.integer(0, 2));
    if (module_replicable(chain, first, last)) m.r = static_cast<int>(rng.integer(1, 4));
    used += m.r * m.p;
    modules.push_back(m);
    first = last + 1;
  }
  if (used > processors) return std::nullopt;
  return modules;
}

struct RandomFigures {
  int mappings = 0, replicated = 0, clustered = 0, dealt_neighbours = 0;
  double max_period_error = 0, max_latency_error = 0;
};

void check_random(std::uint64_t seed, RandomFigures& fig)
{
  constexpr int processors = 40;
  Rng rng(seed);
  TaskChain chain = generate_task_chain(static_cast<int>(rng.integer(1, 6)), TaskChainRanges{}, seed);
  std::optional<std::vector<Sv95Module>> modules;
  while (!modules)
    modules = random_modules(chain, processors, rng);
  Sv95Evaluation e = sv95_evaluate(chain, *modules);
  Mapping mapping  = sv95_mapping(*modules);
  SimulationSettings s;
  s.datasets              = std::max(60, 12 * deal_round(mapping));
  SimulationResult result = simulate({chain, homogeneous(processors), mapping, s}).run;
  std::string what        = fmt::format("seed {}: {}", seed, to_text(*modules));
  ASSERT_EQ(result.failures.verdict, Verdict::survived) << what;
  double period_error = std::abs(result.period - e.period) / e.period;
  ASSERT_LE(period_error, 1e-9) << what << ": simulated " << result.period << ", formula " << e.period;
  double latency_error =
      std::abs(simulate({chain, homogeneous(processors), mapping, s, RunKind::latency}).latency() - e.latency) /
      e.latency;
  ASSERT_LE(latency_error, 1e-9) << what;
  fig.mappings += 1;
  fig.max_period_error  = std::max(fig.max_period_error, period_error);
  fig.max_latency_error = std::max(fig.max_latency_error, latency_error);
  bool neighbours       = false;
  for (std::size_t j = 0; j < modules->size(); ++j) {
    const Sv95Module& m = (*modules)[j];
    fig.replicated += m.r > 1 ? 1 : 0;
    fig.clustered += m.last > m.first ? 1 : 0;
    neighbours = neighbours || (j > 0 && m.r > 1 && (*modules)[j - 1].r > 1);
  }
  fig.dealt_neighbours += neighbours ? 1 : 0;
}

} // namespace

// Measured (this test's output): 150 mappings, every simulated period within 1e-14 of max_j f_j / r_j and every
// latency equal to §2.1's sum; run once with seeds 1..2,000 (565 with dealt neighbours, instance counts up to 4): the
// largest period error was 1.7e-14. Instances of a module are alike, so the rotation of dealt senders and receivers
// never makes a cycle slower than the busiest instance (unlike heterogeneous one-port deal, docs/event-graph.md).
TEST(ModuleSimulation, RandomClusteringsWithReplicationReachTheFormula)
{
  RandomFigures fig;
  for (std::uint64_t seed = 1; seed <= 150 / fixtures::asan_scale; ++seed) {
    check_random(seed, fig);
    if (HasFatalFailure()) return;
  }
  std::cout << fig.mappings << " mappings (" << fig.replicated << " replicated modules, " << fig.clustered
            << " clustered, " << fig.dealt_neighbours << " with dealt neighbours): largest relative error "
            << fig.max_period_error << " (period), " << fig.max_latency_error << " (latency)\n";
  EXPECT_GE(fig.dealt_neighbours, 30 / static_cast<int>(fixtures::asan_scale));
}

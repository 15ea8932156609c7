// The simulator's entry point: which execution a job runs on, and what each kind of run gives back.
#include "simulator/simulate.hpp"

#include "base/input_error.hpp"
#include "base/subprocess.hpp"
#include "model/sv95/response.hpp"
#include "model/test_fixtures.hpp"
#include "simulator/deployment.hpp"
#include "simulator/failures.hpp"

#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace pipesim;

namespace {
SimulationSettings datasets(int n, CommModel model = CommModel::one_port)
{
  SimulationSettings s;
  s.model    = model;
  s.datasets = n;
  return s;
}

/// CardExample with f_u = 0.5 on every processor: half the probability-model runs lose a replica.
fixtures::CardExample failing_card_example()
{
  fixtures::CardExample ex;
  for (int u = 0; u < ex.platform.p(); ++u)
    ex.platform.processor(u).failure_probability = 0.5;
  return ex;
}
} // namespace

TEST(SimulationEntry, TheJobDecidesTheExecution)
{
  fixtures::Eq6Example ex;
  EXPECT_EQ(execution_kind({ex.pipeline, ex.platform, ex.mapping, datasets(5)}), ExecutionKind::one_port);
  EXPECT_EQ(execution_kind({ex.pipeline, ex.platform, ex.mapping, datasets(5, CommModel::multi_port)}),
            ExecutionKind::multi_port);
  TaskChain chain = fixtures::sv95_worked_chain();
  Mapping modules = sv95_mapping({{1, 3, 1, 3}});
  EXPECT_EQ(execution_kind({chain, ex.platform, modules, datasets(5)}), ExecutionKind::modules);
  // a task chain decides whatever settings.model says
  EXPECT_EQ(execution_kind({chain, ex.platform, modules, datasets(5, CommModel::multi_port)}), ExecutionKind::modules);
  chain.programs.assign(3, TaskProgram{});
  EXPECT_EQ(execution_kind({chain, ex.platform, modules, datasets(5)}), ExecutionKind::programs);
}

TEST(SimulationEntry, ALatencyJobIsOneDataSetWithoutFailures)
{
  // Eq6Example: data set 0 alone crosses P1 (S1: 10/10 + 1), P2 (1 + 10/10 + 1) and P1 again (S3: 1 + 10/1): 7 by
  // br07 eq. (6); the failure model of the settings does not apply to the latency run.
  fixtures::Eq6Example ex;
  SimulationSettings s = datasets(40);
  s.failures.model     = FailureModel::trace;
  s.failures.trace     = {{"P2", 0.5}};
  SimulationOutput out = simulate({ex.pipeline, ex.platform, ex.mapping, s, RunKind::latency});
  EXPECT_NEAR(out.latency(), 7.0, 7e-9);
  ASSERT_EQ(out.run.output_times.size(), 1u);
  EXPECT_EQ(out.run.failures.verdict, Verdict::survived);
  EXPECT_TRUE(out.run.failures.crashes.empty());
}

TEST(SimulationEntry, ALatencyJobWritesItsPajeTraceBesideThePeriodRuns)
{
  fixtures::Eq6Example ex;
  SimulationSettings s   = datasets(4);
  const std::string file = (std::filesystem::temp_directory_path() / "run.trace").string();
  s.simgrid_args         = {"--cfg=tracing:yes", "--cfg=tracing/filename:" + file};
  SimulationOutput out   = simulate({ex.pipeline, ex.platform, ex.mapping, s, RunKind::latency});
  EXPECT_EQ(out.run.config.back(), "--cfg=tracing/filename:" + file + ".latency"); // the last value wins
  EXPECT_TRUE(std::filesystem::exists(file + ".latency"));
  EXPECT_FALSE(std::filesystem::exists(file));
}

TEST(SimulationEntry, InThisProcessOrInAChildTheRunIsTheSame)
{
  fixtures::CardExample ex;
  SimulationJob job(ex.pipeline, ex.platform, ex.mapping, datasets(30, CommModel::multi_port));
  std::string here = run_in_child([&] { return nlohmann::json(simulate_here(job).run).dump(); });
  EXPECT_EQ(nlohmann::json::parse(here), nlohmann::json(simulate(job).run));
  job.kind = RunKind::series;
  EXPECT_THROW(simulate_here(job), std::logic_error); // a series has processes of its own
}

TEST(SimulationEntry, ASeriesIsTheFaultFreeRunThenEachRunAsAJobOfItsOwn)
{
  // Every run of a series, batched in prepared engines, is bit for bit the period job of its settings.
  fixtures::CardExample ex = failing_card_example();
  SimulationSettings s     = datasets(30, CommModel::multi_port);
  s.allocation             = Allocation::allotted;
  s.failures.model         = FailureModel::probability;
  s.runs                   = 6;
  s.seed                   = 5;
  SimulationOutput out     = simulate({ex.pipeline, ex.platform, ex.mapping, s, RunKind::series});
  SimulationResult clean   = simulate({ex.pipeline, ex.platform, ex.mapping, without_failures(s)}).run;
  EXPECT_EQ(out.run.output_times, clean.output_times);
  EXPECT_NEAR(clean.period, 8.0 / 3, 1e-9); // P1's card (CardExample)
  ASSERT_EQ(out.series.size(), 6u);
  int failed = 0;
  for (int i = 0; i < s.runs; ++i) {
    const SeriesRun& r     = out.series[static_cast<std::size_t>(i)];
    SimulationSettings one = settings_for_run(ex.platform, ex.mapping, s, i, clean.makespan);
    SimulationResult alone = simulate({ex.pipeline, ex.platform, ex.mapping, one}).run;
    EXPECT_EQ(r.index, i);
    EXPECT_EQ(r.seed, run_seed(5, i));
    EXPECT_EQ(r.schedule, one.crashes) << "run " << i;
    EXPECT_EQ(r.verdict, alone.failures.verdict) << "run " << i;
    EXPECT_EQ(r.completion, alone.makespan) << "run " << i;
    EXPECT_EQ(r.crashes, static_cast<int>(alone.failures.crashes.size())) << "run " << i;
    EXPECT_EQ(r.elections, alone.failures.elections) << "run " << i;
    EXPECT_TRUE(r.error.empty()) << r.error;
    failed += r.verdict == Verdict::failed ? 1 : 0;
  }
  EXPECT_GT(failed, 0); // f = 0.5: some run lost an interval (a seeded count)
}

TEST(SimulationEntry, ASeriesNeedsAFailureModelAndARun)
{
  fixtures::CardExample ex;
  SimulationSettings s = datasets(10);
  s.runs               = 4;
  EXPECT_THAT(
      [&] {
        simulate({ex.pipeline, ex.platform, ex.mapping, s, RunKind::series});
      },
      testing::ThrowsMessage<InputError>(testing::HasSubstr("Monte Carlo runs need a failure model")));
  s.failures.model = FailureModel::probability;
  s.runs           = 0;
  EXPECT_THAT(
      [&] {
        simulate({ex.pipeline, ex.platform, ex.mapping, s, RunKind::series});
      },
      testing::ThrowsMessage<InputError>(
          testing::HasSubstr("key 'simulation.runs': value '0': expected at least one run")));
}

// The seams the next issues plug into (docs/semantics.md, "The simulator's entry point"): a workload asked per data
// set, a stopping rule asked at P_out, a controller between engine steps. Each carries exactly what it is given.
#include "base/subprocess.hpp"
#include "model/test_fixtures.hpp"
#include "simulator/controller.hpp"
#include "simulator/crash_fixtures.hpp"
#include "simulator/deployment.hpp"
#include "simulator/engine.hpp"
#include "simulator/simulate.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <nlohmann/json.hpp>
#include <simgrid/s4u.hpp>

using namespace pipesim;

namespace {

/// The pipeline's amounts, asked of the workload for every data set (the path a random workload takes).
class PerDataSet final : public Workload {
public:
  explicit PerDataSet(Pipeline pipeline) : pipeline_(std::move(pipeline)) {}
  double work(int stage, int) const override { return pipeline_.work(stage); }
  double size(int i, int) const override { return pipeline_.data(i); }
  bool same_for_every_dataset() const override { return false; }

private:
  Pipeline pipeline_;
};

/// Odd data sets cost twice as much: w_i(k) = w_i (1 + k mod 2), delta_i(k) = delta_i (1 + k mod 2).
class OddTwice final : public Workload {
public:
  explicit OddTwice(Pipeline pipeline) : pipeline_(std::move(pipeline)) {}
  double work(int stage, int k) const override { return pipeline_.work(stage) * (1 + k % 2); }
  double size(int i, int k) const override { return pipeline_.data(i) * (1 + k % 2); }
  bool same_for_every_dataset() const override { return false; }

private:
  Pipeline pipeline_;
};

/// At most `max` data sets, enough after `outputs` outputs.
class StopAfter final : public StoppingRule {
public:
  StopAfter(int max, int outputs) : max_(max), outputs_(outputs) {}
  int max_datasets() const override { return max_; }
  bool enough(std::span<const double> times) const override { return static_cast<int>(times.size()) >= outputs_; }

private:
  int max_     = 0;
  int outputs_ = 0;
};

/// Steps of `step` simulated seconds, a decision after each, none of which does anything.
class EveryStep final : public Controller {
public:
  explicit EveryStep(double step) : step_(step) {}
  double next_step() override { return step_ * (decisions_ + 1); }
  void decide(Deployment&) override { ++decisions_; }
  int decisions() const { return decisions_; }

private:
  double step_   = 0;
  int decisions_ = 0;
};

/// The run of `job` in a child process, with the inputs run_inputs gives changed by `change`, under `controller`
/// (none: NoController); the number of decisions comes back as the result's seed.
SimulationResult run_with(const SimulationJob& job, const std::function<void(RunInputs&)>& change, double step = -1)
{
  std::string text = run_in_child([&] {
    check_before_engine(job);
    PreparedEngine engine = detail::start_run_engine(job);
    RunInputs inputs      = run_inputs(job, job.settings, engine.size_scale);
    if (change) change(inputs);
    auto deployment = make_deployment(job, job.settings, inputs);
    deployment->deploy();
    EveryStep every(step);
    NoController none;
    if (step > 0)
      run_engine(*deployment, every);
    else
      run_engine(*deployment, none);
    SimulationResult r = deployment->result();
    r.seed             = static_cast<std::uint64_t>(every.decisions());
    return nlohmann::json(r).dump();
  });
  return nlohmann::json::parse(text).get<SimulationResult>();
}

/// CardExample's replicated mapping in each execution, with a crash of the elected sender P1 at 40.
std::vector<SimulationJob> card_jobs(int datasets)
{
  fixtures::CardExample ex;
  std::vector<SimulationJob> jobs;
  for (CommModel model : {CommModel::one_port, CommModel::multi_port})
    for (std::vector<Crash> crashes : {std::vector<Crash>{}, std::vector<Crash>{{"P1", 40}}})
      jobs.emplace_back(ex.pipeline, ex.platform, ex.mapping,
                        fixtures::trace_settings(model, Allocation::allotted, datasets, crashes));
  // one processor per interval, no failure: the one-port plain program
  jobs.emplace_back(ex.pipeline, ex.platform, make_interval_mapping({{1, 1}, {2, 2}}, {0, 2}),
                    fixtures::trace_settings(CommModel::one_port, Allocation::fair, datasets, {}));
  return jobs;
}

std::string describe(const SimulationJob& job)
{
  return fmt::format("{} {} crashes", to_string(job.settings.model), job.settings.crashes.size());
}

} // namespace

TEST(Seams, AWorkloadAskedForEveryDataSetGivesTheSameRun)
{
  // The pipeline's own amounts asked per data set (the path of a random workload) against the amounts computed
  // once: every output time to the last bit, in the plain and general one-port programs and in the multi-port one.
  for (const SimulationJob& job : card_jobs(40)) {
    SimulationResult asked =
        run_with(job, [&](RunInputs& in) { in.workload = std::make_shared<PerDataSet>(job.pipeline); });
    SimulationResult once = simulate(job).run;
    EXPECT_EQ(asked.output_times, once.output_times) << describe(job);
    EXPECT_EQ(asked.failures.verdict, once.failures.verdict) << describe(job);
  }
}

TEST(Seams, TheWorkloadGivesEachDataSetItsOwnAmounts)
{
  // One stage on P1 (speed 10), w = 10, delta = (0, 10), b = 10 to P_out; odd data sets cost twice as much. P1
  // computes W(k)/10, then sends delta_1(k)/10 (one-port: one thing at a time):
  // k = 0: compute 0-1, send 1-2; k = 1: compute 2-4, send 4-6; k = 2: 6-7, 7-8; k = 3: 8-10, 10-12.
  Platform platform({{"P1", 10}}, "in", "out", 10, 0);
  Pipeline pipeline{{10}, {0, 10}};
  SimulationJob job(pipeline, platform, make_interval_mapping({{1, 1}}, {0}),
                    fixtures::trace_settings(CommModel::one_port, Allocation::fair, 4, {}));
  SimulationResult r = run_with(job, [&](RunInputs& in) { in.workload = std::make_shared<OddTwice>(pipeline); });
  EXPECT_EQ(r.output_times, (std::vector<double>{2, 6, 8, 12}));
}

TEST(Seams, AStoppingRuleEndsTheRunAtPOut)
{
  // Stop after 10 outputs of at most 40: the run survives with the first 10 output times of the full run (the
  // one-port executions: a data set's times do not depend on the later ones), one dealt last interval included.
  fixtures::CardExample ex;
  Mapping dealt                  = ex.mapping;
  dealt.intervals[1].replication = Replication::deal; // P_out takes I_2's deliveries in any order
  for (const Mapping& mapping : {ex.mapping, dealt}) {
    SimulationJob job(ex.pipeline, ex.platform, mapping,
                      fixtures::trace_settings(CommModel::one_port, Allocation::fair, 40, {}));
    SimulationResult ten  = run_with(job, [](RunInputs& in) { in.stop = std::make_shared<StopAfter>(40, 10); });
    SimulationResult full = simulate(job).run;
    std::string what      = to_text(mapping, ex.platform);
    EXPECT_EQ(ten.failures.verdict, Verdict::survived) << what;
    EXPECT_EQ(ten.failures.delivered, 10) << what;
    ASSERT_EQ(ten.output_times.size(), 10u) << what;
    EXPECT_EQ(ten.output_times, std::vector<double>(full.output_times.begin(), full.output_times.begin() + 10)) << what;
  }
}

TEST(Seams, AControllerThatDecidesNothingChangesNothing)
{
  // Engine::run_until steps of 7 simulated seconds with a decision after each: the same output times (to rounding:
  // SimGrid updates the remaining work of the actions running at each step's date, and a shared resource's rates
  // then give the following dates in other last bits), crashes and elections as one Engine::run(), and a decision
  // per step until the run ended.
  for (const SimulationJob& job : card_jobs(40)) {
    SimulationResult stepped = run_with(job, nullptr, 7.0);
    SimulationResult plain   = simulate(job).run;
    ASSERT_EQ(stepped.output_times.size(), plain.output_times.size()) << describe(job);
    double worst = 0;
    for (std::size_t k = 0; k < plain.output_times.size(); ++k)
      worst = std::max(worst, std::abs(stepped.output_times[k] - plain.output_times[k]) / plain.output_times[k]);
    std::cout << describe(job) << ": largest relative difference " << worst << "\n";
    EXPECT_LE(worst, 1e-12) << describe(job);
    EXPECT_EQ(stepped.failures.crashes, plain.failures.crashes) << describe(job);
    EXPECT_EQ(stepped.failures.elections, plain.failures.elections) << describe(job);
    EXPECT_EQ(static_cast<double>(stepped.seed), std::floor(plain.makespan / 7.0)) << describe(job);
  }
}

// Several runs in one SimGrid engine (reset_engine_for_next_run, behind the series entry point): each must be, bit
// for bit, the run of a fresh process.
#include "simulator/engine_reuse.hpp"

#include "base/subprocess.hpp"
#include "model/test_fixtures.hpp"
#include "simulator/crash_fixtures.hpp"
#include "simulator/series.hpp"
#include "simulator/simulate.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace pipesim;

namespace {

/// The runs of `schedules` one after the other in one child process's engine, reset between them.
std::vector<SimulationResult> in_one_engine(const fixtures::CardExample& ex, CommModel model,
                                            const std::vector<std::vector<Crash>>& schedules)
{
  auto settings = [&](std::size_t k) {
    return fixtures::trace_settings(model, Allocation::allotted, 60, schedules[k]);
  };
  std::string text = run_in_child([&] {
    SimulationJob job(ex.pipeline, ex.platform, ex.mapping, settings(0), RunKind::series);
    detail::SeriesEngine engine(job); // what a batch of a series does: reset_engine_for_next_run between runs
    nlohmann::json all = nlohmann::json::array();
    for (std::size_t k = 0; k < schedules.size(); ++k)
      all.push_back(engine.run(settings(k)));
    return all.dump();
  });
  return nlohmann::json::parse(text).get<std::vector<SimulationResult>>();
}

} // namespace

TEST(EngineReuse, EachRunAfterAResetIsTheRunOfAFreshProcess)
{
  // CardExample's replicated mapping: a crash of the elected sender (host off, an election, wake-up tokens), no
  // crash, two crashes, and the first schedule again: the clock, the hosts and the mailboxes must all be as new.
  fixtures::CardExample ex;
  ASSERT_TRUE(detail::can_run_again(ex.platform));
  const std::vector<std::vector<Crash>> schedules{{{"P1", 40}}, {}, {{"P2", 10}, {"P1", 30}}, {{"P1", 40}}};
  for (CommModel model : {CommModel::one_port, CommModel::multi_port}) {
    std::vector<SimulationResult> reused = in_one_engine(ex, model, schedules);
    ASSERT_EQ(reused.size(), schedules.size());
    for (std::size_t k = 0; k < schedules.size(); ++k) {
      SimulationResult fresh = simulate({ex.pipeline, ex.platform, ex.mapping,
                                         fixtures::trace_settings(model, Allocation::allotted, 60, schedules[k])})
                                   .run;
      std::string what = fmt::format("{} schedule {}", to_string(model), k);
      EXPECT_EQ(reused[k].failures.verdict, fresh.failures.verdict) << what;
      EXPECT_EQ(reused[k].output_times, fresh.output_times) << what; // bit for bit
      EXPECT_EQ(reused[k].makespan, fresh.makespan) << what;
      EXPECT_EQ(reused[k].failures.crashes, fresh.failures.crashes) << what;
      EXPECT_EQ(reused[k].failures.elections, fresh.failures.elections) << what;
      EXPECT_EQ(reused[k].failures.duplicates, fresh.failures.duplicates) << what;
      EXPECT_EQ(reused[k].failures.failure_time, fresh.failures.failure_time) << what;
    }
    EXPECT_EQ(reused[0].failures.elections, 1) << model; // the crash was a crash
    EXPECT_EQ(reused[0].output_times, reused[3].output_times) << model;
  }
}

TEST(EngineReuse, XmlPlatformsAreNotReused)
{
  Platform platform = fixtures::CardExample().platform;
  EXPECT_TRUE(detail::can_run_again(platform));
  platform.set_xml_file("two_clusters.xml");
  EXPECT_FALSE(detail::can_run_again(platform));
}

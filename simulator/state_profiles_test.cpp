// Host and link state profiles of an XML platform (issue 31: SimGrid's small_platform_failures.xml stopped every
// run with "internal error: Cannot start actor on failed host"). platforms/examples/state_profiles.xml: w2 is off at
// 0, on at 1, off at 2; w3 off at 30, on at 40; link w1-w3 off from 5 to 6. Every host runs 1 Mflop/s, every link
// 1 MB/s without latency, so with w = 1e6 flop and delta = 1e6 bytes each step takes 1 s. One-port, one processor per
// stage: each processor receives, computes and sends, 3 s per data set; data set k (from 0) reaches P_out at
// 7 + 3 k (4 transfers and 3 computations for the first one). The profiles run whatever the failure model
// (docs/dynamic.md).
#include "platforms/simgrid/simgrid_platform.hpp"
#include "simulator/simulate.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

namespace {

struct StateProfiles {
  Platform platform =
      load_xml_platform(std::string(PIPESIM_SOURCE_DIR) + "/platforms/examples/state_profiles.xml", "io", "io");
  Pipeline pipeline{{1e6, 1e6, 1e6}, {1e6, 1e6, 1e6, 1e6}};

  int node(const std::string& name) const { return *platform.find(name); }
  /// S_1 on w1, S_2 on `second` (active replicas), S_3 on `third`.
  Mapping mapping(const std::vector<std::string>& second, const std::string& third = "w3") const
  {
    Mapping m;
    m.intervals.push_back(Interval{1, 1, {{node("w1")}}, Replication::active});
    Interval two{2, 2, {}, Replication::active};
    for (const auto& name : second)
      two.replicas.push_back({node(name)});
    m.intervals.push_back(two);
    m.intervals.push_back(Interval{3, 3, {{node(third)}}, Replication::active});
    return m;
  }
};

SimulationSettings profile_settings(FailureModel model, int datasets)
{
  SimulationSettings s;
  s.datasets       = datasets;
  s.failures.model = model;
  return s;
}

std::vector<std::pair<std::string, double>> crash_list(const SimulationResult& r)
{
  std::vector<std::pair<std::string, double>> out;
  for (const Crash& c : r.failures.crashes)
    out.emplace_back(c.host, c.time);
  return out;
}

SimulationResult run_profiled(const StateProfiles& p, const Mapping& mapping, const SimulationSettings& s)
{
  return simulate(SimulationJob(p.pipeline, p.platform, mapping, s)).run;
}

} // namespace

TEST(StateProfiles, TheyRunUnderEveryFailureModel)
{
  // A host's state profile is the platform's (DESIGN.md §3.11, docs/dynamic.md): whatever the failure model (none,
  // probability with f_u = 0, which draws nothing, trace with a crash after the end, platform), w2 is off from the
  // start, so S_2 on w2 alone fails at 0 with nothing delivered.
  StateProfiles p;
  for (FailureModel model :
       {FailureModel::none, FailureModel::probability, FailureModel::trace, FailureModel::platform}) {
    SimulationSettings s = profile_settings(model, 20);
    if (model == FailureModel::trace) s.crashes = {Crash{"w1", 100}};
    SimulationResult r = run_profiled(p, p.mapping({"w2"}), s);
    EXPECT_EQ(r.failures.verdict, Verdict::failed) << to_string(model);
    EXPECT_EQ(r.failures.failure_time, 0) << to_string(model);
    EXPECT_EQ(r.failures.delivered, 0) << to_string(model);
    EXPECT_EQ(crash_list(r), (std::vector<std::pair<std::string, double>>{{"w2", 0}})) << to_string(model);
  }
}

TEST(StateProfiles, AHostOffWhenTheRunStartsIsCrashedFromTimeZero)
{
  // failures: platform. S_2 on w2 alone: w2 is off at 0, so interval 2 has no replica from the start: failed at 0,
  // nothing delivered (it printed "internal error: Cannot start actor on failed host").
  StateProfiles p;
  SimulationResult r = run_profiled(p, p.mapping({"w2"}), profile_settings(FailureModel::platform, 20));
  EXPECT_EQ(r.failures.verdict, Verdict::failed);
  EXPECT_EQ(r.failures.failure_time, 0);
  EXPECT_EQ(r.failures.failed_interval, 1);
  EXPECT_EQ(r.failures.delivered, 0);
  EXPECT_EQ(crash_list(r), (std::vector<std::pair<std::string, double>>{{"w2", 0}}));
}

TEST(StateProfiles, AHostThatComesBackOnStaysCrashed)
{
  // S_2 on w2 and w4 (active): w2 crashed at 0, w4 sends; w2 is back on at 1 and off at 2, and pipesim neither
  // re-elects it nor counts a second crash (fail-silent, no recovery). 5 data sets end at 7 + 3 x 4 = 19 s, before
  // w3 goes off at 30: survived, with w4 in w2's place the timing of the fault-free run.
  StateProfiles p;
  SimulationResult r = run_profiled(p, p.mapping({"w2", "w4"}), profile_settings(FailureModel::platform, 5));
  EXPECT_EQ(r.failures.verdict, Verdict::survived);
  ASSERT_EQ(r.output_times.size(), 5u);
  for (std::size_t k = 0; k < 5; ++k)
    EXPECT_DOUBLE_EQ(r.output_times[k], 7 + 3.0 * static_cast<double>(k)) << "data set " << k;
  EXPECT_EQ(crash_list(r), (std::vector<std::pair<std::string, double>>{{"w2", 0}}));
  // 20 data sets would end at 64 s: w3, which holds S_3 alone, goes off at 30 with work left: failed at 30; its
  // return at 40 changes nothing
  r = run_profiled(p, p.mapping({"w2", "w4"}), profile_settings(FailureModel::platform, 20));
  EXPECT_EQ(r.failures.verdict, Verdict::failed);
  EXPECT_DOUBLE_EQ(r.failures.failure_time, 30);
  EXPECT_EQ(r.failures.failed_interval, 2);
  EXPECT_EQ(crash_list(r), (std::vector<std::pair<std::string, double>>{{"w2", 0}, {"w3", 30}}));
}

TEST(StateProfiles, ALinkOffDuringATransferFailsTheRun)
{
  // The mapping [1]:w1 [2]:w3 [3]:w4 sends every data set over w1-w3, which is off from 5 to 6. w1 sends data set 0
  // at 2..3 and data set 1 at 5..6 (receive 3..4, compute 4..5): that transfer fails at 5 under failures: platform
  // (a link that is off fails the run, as a what-if fail_link does), whatever the failure model.
  StateProfiles p;
  Mapping m;
  m.intervals = {Interval{1, 1, {{p.node("w1")}}, Replication::active},
                 Interval{2, 2, {{p.node("w3")}}, Replication::active},
                 Interval{3, 3, {{p.node("w4")}}, Replication::active}};
  for (FailureModel model : {FailureModel::platform, FailureModel::none}) {
    SimulationResult r = run_profiled(p, m, profile_settings(model, 5));
    EXPECT_EQ(r.failures.verdict, Verdict::failed) << to_string(model);
    EXPECT_DOUBLE_EQ(r.failures.failure_time, 5) << to_string(model);
    EXPECT_EQ(r.failures.failed_link, "w1-w3") << to_string(model);
    EXPECT_EQ(r.failures.failed_interval, 0) << to_string(model);
  }
}

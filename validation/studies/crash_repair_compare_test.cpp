// Repair after crashes (on_crash: remap) against active replication on the same seeded crash schedules (issue 34 item
// 4). PIPESIM_CRASH_REPAIR_SCHEDULES sets the schedules (default 50; docs/dynamic.md has the figures of 1,000),
// PIPESIM_CRASH_REPAIR_DETECT the detection delay d (default 2 s).
#include "validation/studies/crash_repair.hpp"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <iostream>

using namespace pipesim;

namespace {

double crash_compare_env(const char* name, double otherwise)
{
  const char* env = std::getenv(name);
  return env != nullptr ? std::max(0.0, std::atof(env)) : otherwise;
}

/// Three stages (10, 20, 10 flop, 1-byte messages) on six processors at 10, 10, 8, 8, 6, 6 flop/s, b = 10 bytes/s,
/// each processor crashing with probability f = 0.1 at a time uniform in [0, 0.5] x the fault-free makespan.
CrashRepairSetup crash_compare_setup()
{
  CrashRepairSetup setup;
  std::vector<Processor> procs;
  const double speeds[] = {10, 10, 8, 8, 6, 6};
  for (int u = 0; u < 6; ++u)
    procs.push_back(Processor{fmt::format("P{}", u + 1), speeds[u], 0.1});
  setup.problem.platform = Platform(procs, "io", "io", 10, 0);
  setup.problem.pipeline = Pipeline{{10, 20, 10}, {1, 1, 1, 1}};
  setup.mapper           = "exact.interval";
  setup.datasets         = 200;
  setup.detect           = crash_compare_env("PIPESIM_CRASH_REPAIR_DETECT", 2);
  setup.schedules        = static_cast<int>(crash_compare_env("PIPESIM_CRASH_REPAIR_SCHEDULES", 50));
  setup.seed             = 2026;
  return setup;
}

TEST(CrashRepairCompare, RemapAndActiveReplicationOnTheSameSchedules)
{
  const CrashRepairSetup setup = crash_compare_setup();
  CrashRepairComparison c      = compare_crash_repair(setup);
  std::cout << c.text();
  ASSERT_EQ(c.schedules, setup.schedules);
  ASSERT_EQ(c.outcomes.size(), static_cast<std::size_t>(setup.schedules));
  const Platform& platform = setup.problem.platform;
  // the replicated mapping's intervals, each a set of processor names (to_text's form "[1]:P1|P5 [2-3]:P2|P6")
  std::vector<std::vector<std::string>> intervals;
  for (std::size_t at = 0; at < c.replicated_mapping.size();) {
    std::size_t colon = c.replicated_mapping.find(':', at), end = c.replicated_mapping.find(' ', at);
    if (end == std::string::npos) end = c.replicated_mapping.size();
    std::vector<std::string> names;
    std::string list = c.replicated_mapping.substr(colon + 1, end - colon - 1);
    for (std::size_t from = 0; from <= list.size();) {
      std::size_t bar = std::min(list.find('|', from), list.size());
      names.push_back(list.substr(from, bar - from));
      from = bar + 1;
    }
    intervals.push_back(names);
    at = end + 1;
  }
  for (std::size_t i = 0; i < c.outcomes.size(); ++i) {
    const CrashScheduleOutcome& o = c.outcomes[i];
    auto dead                     = [&](const std::string& name) {
      return std::ranges::any_of(o.crashes, [&](const Crash& cr) { return cr.host == name; });
    };
    // active replication survives exactly when every interval keeps a replica (DESIGN.md §3.5; the crashes fall in
    // the first half of the fault-free makespan, while every interval still has work)
    bool keeps = std::ranges::all_of(intervals, [&](const auto& names) { return !std::ranges::all_of(names, dead); });
    EXPECT_EQ(o.replication_survived, keeps) << "schedule " << i;
    EXPECT_EQ(o.replication_survived, o.replication_delivered == setup.datasets) << "schedule " << i;
    // the repair survives while a processor is left (exact.interval maps on any survivors), and every data set is
    // either delivered or counted lost
    bool any_left = std::ranges::any_of(platform.processors(), [&](const Processor& p) { return !dead(p.name); });
    EXPECT_EQ(o.remap_survived, any_left) << "schedule " << i;
    if (o.remap_survived) {
      EXPECT_EQ(o.remap_delivered + o.remap_lost, setup.datasets) << "schedule " << i;
    }
    if (o.crashes.empty()) {
      EXPECT_EQ(o.remap_delivered, setup.datasets) << "schedule " << i;
      EXPECT_EQ(o.remaps, 0) << "schedule " << i;
    }
  }
  EXPECT_GT(c.schedules_with_crash, 0);
  EXPECT_EQ(c.remap.runs, setup.schedules);
  EXPECT_EQ(c.replication.runs, setup.schedules);
}

} // namespace

// The re-mapping controller's window measurements (DESIGN.md §3.12, docs/dynamic.md "Measurements"): each dealt
// replica's computations and transfers are measured on the processor that ran them. A segment (one mapping over the
// data sets [k*, N)) deals its own numbering: replica (k - k*) mod R computes run data set k
// (simulator/replication.cpp, ReplicaLayout::processes), so with k* odd and R = 2 run data set k* goes to the first
// replica, not to k* mod 2.
#include "base/subprocess.hpp"
#include "model/test_fixtures.hpp"
#include "simulator/remap_measure.hpp"
#include "simulator/simulate.hpp"

#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

using namespace pipesim;
using fixtures::interval;

namespace {

/// Re-maps once to `to` at the first decision whose k* is odd (and >= 3); keeps the windows it was last shown.
class OddDealPolicy final : public RemapPolicy {
public:
  explicit OddDealPolicy(Mapping to) : to_(std::move(to)) {}
  std::optional<RemapDecision> decide(const RemapView& view) override
  {
    windows_ = *view.windows;
    if (done_ || view.next_dataset < 3 || view.next_dataset % 2 == 0) return std::nullopt;
    done_ = true;
    return RemapDecision{to_, "odd k*", true};
  }
  std::vector<WindowMeasurement> windows_;

private:
  Mapping to_;
  bool done_ = false;
};

/// The run, in a child process (the policy's windows live there; SimGrid allows one engine per process): k*, the
/// outputs, and per window of the dealt segment each node's computed data sets, work, compute time and transfers.
nlohmann::json dealt_segment_windows(const Platform& pf)
{
  // one stage of w = 12 flop, 1-byte messages, b = 100 bytes/s: A (3 flop/s, 4 s a data set) runs it alone, then the
  // policy deals it to B (2 flop/s: 6 s) and C (4 flop/s: 3 s) from an odd k*
  SimulationSettings s;
  s.datasets = 60;
  SimulationJob job(Pipeline{{12}, {1, 1}}, pf, Mapping{{interval(1, 1, {0})}}, s);
  job.remap.window = 3;
  job.remap.check  = 1;
  auto policy      = std::make_shared<OddDealPolicy>(Mapping{{interval(1, 1, {1, 2}, Replication::deal)}});
  job.policy       = policy;
  return nlohmann::json::parse(run_in_child([&] {
    const SimulationResult r = simulate_here(job).run;
    nlohmann::json out{
        {"outputs", r.output_times.size()}, {"remaps", r.remaps.size()}, {"windows", nlohmann::json::array()}};
    out["kstar"] = r.remaps.empty() ? -1 : r.remaps.front().dataset;
    for (const WindowMeasurement& w : policy->windows_) {
      nlohmann::json jw{{"index", w.index}, {"first", w.first}, {"intervals", nlohmann::json::array()}};
      for (const IntervalMeasure& m : w.intervals)
        jw["intervals"].push_back({m.node, m.count, m.work, m.time});
      for (const LinkMeasure& l : w.links)
        jw["links"].push_back({l.from, l.to, l.count});
      out["windows"].push_back(jw);
    }
    return out.dump();
  }));
}

TEST(RemapMeasure, ADealtSegmentFromAnOddDataSetMeasuresEachReplicaOnItsOwnDataSets)
{
  Platform pf{{{"A", 3}, {"B", 2}, {"C", 4}}, "in", "out", 100.0, 0.0};
  const int b = 1, c = 2;
  const nlohmann::json run = dealt_segment_windows(pf);
  ASSERT_EQ(run["remaps"], 1);
  ASSERT_EQ(run["outputs"], 60);
  const int kstar = run["kstar"];
  ASSERT_EQ(kstar % 2, 1) << "the test needs a k* that is not a multiple of the 2 replicas";
  int checked = 0;
  for (const nlohmann::json& w : run["windows"]) {
    const int first = w["first"], index = w["index"];
    if (first < kstar) continue; // a window with data sets of the first mapping
    // by hand: B computes k* + 0, 2, 4, ... (segment data sets 0, 2, ...), C the others
    std::map<int, int> expected; // node -> data sets of the window it computed
    for (int k = first; k < first + 3; ++k)
      ++expected[(k - kstar) % 2 == 0 ? b : c];
    std::map<int, int> computed, received, sent;
    for (const nlohmann::json& m : w["intervals"]) {
      const int node = m[0], count = m[1];
      const double work = m[2], time = m[3];
      ASSERT_TRUE(node == b || node == c) << "window " << index << ": node " << node;
      computed[node] += count;
      // each replica's own speed: B 12 flop in 6 s, C in 3 s (a mix of both would be neither)
      EXPECT_NEAR(work / time, pf.speed(node), 1e-9) << "window " << index << ", node " << node;
      EXPECT_NEAR(work, 12.0 * count, 1e-12) << "window " << index;
    }
    for (const nlohmann::json& l : w["links"]) {
      const int from = l[0], to = l[1], count = l[2];
      if (from == pf.in()) received[to] += count;
      if (to == pf.out()) sent[from] += count;
    }
    EXPECT_EQ(computed, expected) << "window " << index << " (data sets " << first << ".." << first + 2 << ")";
    EXPECT_EQ(received, expected) << "window " << index << ": P_in's transfers";
    EXPECT_EQ(sent, expected) << "window " << index << ": transfers to P_out";
    ++checked;
  }
  EXPECT_GE(checked, 5); // windows of the dealt segment, each checked
}

} // namespace

TEST(RemapMeasure, AWindowListsTheMeasuresOfTwoSegmentsInSegmentOrderNotByAddress)
{
  // A window that two segments share (a re-map inside it) lists the old segment's measures first, whatever the
  // addresses of the two mappings: the measured model takes the last measure of a processor, so an order by address
  // made a campaign's reruns differ (the heap's layout differs from one worker process to the next). Here the later
  // segment's mapping is at the lower address (mappings[0]).
  Pipeline pipeline{{12}, {1, 1}};
  Platform pf{{{"A", 3}, {"B", 2}}, "in", "out", 100.0, 0.0};
  const std::vector<Mapping> mappings{Mapping{{interval(1, 1, {1})}}, Mapping{{interval(1, 1, {0})}}};
  ASSERT_LT(&mappings[0], &mappings[1]);
  detail::WindowMeter meter(pipeline, pf, 4);
  meter.operation(mappings[1], 0, 0, 0, Operation::compute, 0, 4.0); // segment 0 on A: data sets 0 and 1
  meter.operation(mappings[1], 0, 0, 1, Operation::compute, 0, 4.0);
  meter.operation(mappings[0], 1, 2, 0, Operation::compute, 0, 6.0); // segment 1 on B from data set 2
  meter.operation(mappings[0], 1, 2, 1, Operation::compute, 0, 6.0);
  meter.close_windows({1, 2, 3, 4, 5});
  ASSERT_EQ(meter.windows().size(), 1u);
  const std::vector<IntervalMeasure>& in = meter.windows().front().intervals;
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(in[0].node, 0); // A, segment 0
  EXPECT_EQ(in[0].count, 2);
  EXPECT_DOUBLE_EQ(in[0].time, 8.0);
  EXPECT_EQ(in[1].node, 1); // B, segment 1
  EXPECT_DOUBLE_EQ(in[1].time, 12.0);
}

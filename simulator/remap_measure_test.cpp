// The re-mapping controller's window measurements (DESIGN.md §3.12, docs/dynamic.md "Measurements"): each dealt
// replica's computations and transfers are measured on the processor that ran them. A segment (one mapping over the
// data sets [k*, N)) deals its own numbering: replica (k - k*) mod R computes run data set k
// (simulator/replication.cpp, ReplicaLayout::processes), so with k* odd and R = 2 run data set k* goes to the first
// replica, not to k* mod 2.
#include "model/test_fixtures.hpp"
#include "simulator/simulate.hpp"

#include <gtest/gtest.h>
#include <map>
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

TEST(RemapMeasure, ADealtSegmentFromAnOddDataSetMeasuresEachReplicaOnItsOwnDataSets)
{
  // one stage of w = 12 flop, 1-byte messages, b = 100 bytes/s: A (3 flop/s, 4 s a data set) runs it alone, then the
  // policy deals it to B (2 flop/s: 6 s) and C (4 flop/s: 3 s) from an odd k*
  Pipeline pl{{12}, {1, 1}};
  Platform pf{{{"A", 3}, {"B", 2}, {"C", 4}}, "in", "out", 100.0, 0.0};
  const int b = 1, c = 2;
  SimulationSettings s;
  s.datasets = 60;
  SimulationJob job(pl, pf, Mapping{{interval(1, 1, {0})}}, s);
  job.remap.window         = 3;
  job.remap.check          = 1;
  auto policy              = std::make_shared<OddDealPolicy>(Mapping{{interval(1, 1, {b, c}, Replication::deal)}});
  job.policy               = policy;
  const SimulationResult r = simulate_here(job).run;
  ASSERT_EQ(r.remaps.size(), 1u);
  const int kstar = r.remaps.front().dataset;
  ASSERT_EQ(kstar % 2, 1) << "the test needs a k* that is not a multiple of the 2 replicas";
  ASSERT_EQ(r.output_times.size(), 60u);
  int checked = 0;
  for (const WindowMeasurement& w : policy->windows_) {
    if (w.first < kstar) continue; // a window with data sets of the first mapping
    // by hand: B computes k* + 0, 2, 4, ... (segment data sets 0, 2, ...), C the others
    std::map<int, int> expected; // node -> data sets of the window it computed
    for (int k = w.first; k < w.first + 3; ++k)
      ++expected[(k - kstar) % 2 == 0 ? b : c];
    std::map<int, int> computed, received, sent;
    for (const IntervalMeasure& m : w.intervals) {
      ASSERT_TRUE(m.node == b || m.node == c) << "window " << w.index << ": node " << m.node;
      computed[m.node] += m.count;
      // each replica's own speed: B 12 flop in 6 s, C in 3 s (a mix of both would be neither)
      EXPECT_NEAR(m.work / m.time, pf.speed(m.node), 1e-9) << "window " << w.index << ", node " << m.node;
      EXPECT_NEAR(m.work, 12.0 * m.count, 1e-12) << "window " << w.index;
    }
    for (const LinkMeasure& l : w.links) {
      if (l.from == pf.in()) received[l.to] += l.count;
      if (l.to == pf.out()) sent[l.from] += l.count;
    }
    EXPECT_EQ(computed, expected) << "window " << w.index << " (data sets " << w.first << ".." << w.first + 2 << ")";
    EXPECT_EQ(received, expected) << "window " << w.index << ": P_in's transfers";
    EXPECT_EQ(sent, expected) << "window " << w.index << ": transfers to P_out";
    ++checked;
  }
  EXPECT_GE(checked, 5); // windows of the dealt segment, each checked
}

} // namespace

// The re-mapping controller's measurements (DESIGN.md §3.12): each operation of a run's processors summed per window
// of W data sets, and each window closed once its last output is known.
#pragma once

#include "model/mapping.hpp"
#include "model/operation.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"
#include "simulator/remap.hpp"

#include <deque>
#include <map>
#include <tuple>
#include <vector>

namespace pipesim::detail {

class WindowMeter {
public:
  WindowMeter(const Pipeline& pipeline, const Platform& platform, int window)
      : pipeline_(pipeline), platform_(platform), w_(window)
  {
  }
  /// An operation of interval j of `mapping`, which took `time` s, on data set k of the segment that runs `mapping`
  /// from run data set `first` on: run data set first + k, dealt to replica k mod R (the segment's own numbering).
  /// `segment`: the segment's rank in the run (0, 1, ...), which orders the measures of a window that two segments
  /// share (a window's intervals are listed by segment, j and node: never by address, so a rerun is identical).
  void operation(const Mapping& mapping, int segment, int first, int k, Operation kind, int j, double time);
  /// A re-map starts at data set k: the window holding the output gap before k is disturbed.
  void mark_remap(int k) { remaps_.push_back(k); }
  /// Closes every window whose outputs are all in `outputs` (window i ends with output (i + 1) W, 0-based).
  void close_windows(const std::vector<double>& outputs);
  const std::vector<WindowMeasurement>& windows() const { return closed_; }
  /// The period of the last closed window without a re-map (0 when there is none).
  double last_undisturbed_period() const;

private:
  struct Open {
    std::map<std::tuple<int, int, int>, IntervalMeasure> intervals; // (segment, j, node): each replica
    std::map<std::pair<int, int>, LinkMeasure> links;
  };
  Open& open(int k);
  /// The node that runs interval j (m: P_out) for data set k of its segment (-1: every active replica).
  int node_of(const Mapping& mapping, int j, int k) const;

  const Pipeline& pipeline_;
  const Platform& platform_;
  int w_ = 1;
  std::deque<Open> open_; // windows closed_.size(), closed_.size() + 1, ...
  std::vector<WindowMeasurement> closed_;
  std::vector<int> remaps_;
};

} // namespace pipesim::detail

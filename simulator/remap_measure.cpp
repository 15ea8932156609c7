// Measurement windows of a re-mapping run (remap_measure.hpp).
#include "simulator/remap_measure.hpp"

#include <algorithm>

namespace pipesim::detail {

int WindowMeter::node_of(const Mapping& mapping, int j, int k) const
{
  if (j == mapping.m()) return platform_.out();
  const Interval& in = mapping.interval(j);
  if (in.replicas.size() == 1) return in.replicas.front().front();
  if (in.replication == pipesim::Replication::deal)
    return in.replicas[static_cast<std::size_t>(k) % in.replicas.size()].front();
  return -1; // active replication: every replica computes, the elected one sends
}

WindowMeter::Open& WindowMeter::open(int k)
{
  const std::size_t index = static_cast<std::size_t>(k / w_) - closed_.size(); // k of a closed window: never
  while (open_.size() <= index)
    open_.emplace_back();
  return open_[index];
}

void WindowMeter::operation(const Mapping& mapping, int segment, int first, int k, Operation kind, int j, double time)
{
  const int run_k = first + k; // the window counts over the run, the dealing over the segment
  if (run_k / w_ < static_cast<int>(closed_.size())) return; // a late record of a closed window (cannot happen)
  Open& o            = open(run_k);
  const Interval& in = mapping.interval(j);
  const int u        = node_of(mapping, j, k);
  if (kind == Operation::compute) { // one measure per replica: a dealt interval's replicas compute at their own speeds
    IntervalMeasure& m = o.intervals[{segment, j, u}];
    m.interval         = j;
    m.node             = u;
    m.work += pipeline_.work(in.first, in.last);
    m.time += time;
    ++m.count;
    return;
  }
  // a send of I_j goes to I_{j+1} (or P_out); the receive of I_1 is P_in's transfer, which P_in does not record
  int from = u, to = -1;
  double bytes = 0;
  if (kind == Operation::send) {
    to    = node_of(mapping, j + 1, k);
    bytes = pipeline_.data(in.last);
  } else if (j == 0) {
    from  = platform_.in();
    to    = u;
    bytes = pipeline_.data(0);
  }
  if (from < 0 || to < 0) return;
  LinkMeasure& l = o.links[{from, to}];
  l.from         = from;
  l.to           = to;
  l.bytes += bytes;
  l.time += time;
  ++l.count;
}

void WindowMeter::close_windows(const std::vector<double>& outputs)
{
  while (outputs.size() > (closed_.size() + 1) * static_cast<std::size_t>(w_)) {
    WindowMeasurement wm;
    wm.index     = static_cast<int>(closed_.size());
    wm.first     = wm.index * w_;
    wm.start     = outputs[static_cast<std::size_t>(wm.first)];
    wm.end       = outputs[static_cast<std::size_t>(wm.first + w_)];
    wm.period    = (wm.end - wm.start) / w_;
    wm.disturbed = std::ranges::any_of(remaps_, [&](int k) { return wm.first < k && k <= wm.first + w_; });
    if (!open_.empty()) {
      for (auto& [key, m] : open_.front().intervals)
        wm.intervals.push_back(m);
      for (auto& [key, l] : open_.front().links)
        wm.links.push_back(l);
      open_.pop_front();
    }
    closed_.push_back(std::move(wm));
  }
}

double WindowMeter::last_undisturbed_period() const
{
  for (auto it = closed_.rbegin(); it != closed_.rend(); ++it)
    if (!it->disturbed) return it->period;
  return 0;
}

} // namespace pipesim::detail

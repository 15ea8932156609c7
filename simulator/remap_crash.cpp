// The data sets a crashed processor takes with it (remap_crash.hpp).
#include "simulator/remap_crash.hpp"

#include <algorithm>
#include <limits>

namespace pipesim::detail {

namespace {
/// The replica of interval `in` that processes data set k: deal, replica k mod R; otherwise the only one.
int crash_replica_of(const Interval& in, int k)
{
  return in.replication == pipesim::Replication::deal && in.replicas.size() > 1
             ? k % static_cast<int>(in.replicas.size())
             : 0;
}
} // namespace

void CrashLedger::operation(const Mapping& mapping, Operation kind, int j, int k)
{
  if (kind == Operation::compute) return;
  const Key key{j, crash_replica_of(mapping.interval(j), k)};
  if (kind == Operation::receive)
    received_[key].insert(k);
  else
    sent_[key].insert(k);
}

CrashLoss CrashLedger::loss(const Mapping& mapping, int u) const
{
  CrashLoss loss{std::numeric_limits<int>::max(), 0};
  for (int j = 0; j < mapping.m(); ++j) {
    const Interval& in = mapping.interval(j);
    for (std::size_t r = 0; r < in.replicas.size(); ++r) {
      if (std::ranges::find(in.replicas[r], u) == in.replicas[r].end()) continue;
      const Key key{j, static_cast<int>(r)};
      const int stride = in.replication == pipesim::Replication::deal ? static_cast<int>(in.replicas.size()) : 1;
      const auto sent  = sent_.find(key);
      int first        = static_cast<int>(r);
      while (sent != sent_.end() && sent->second.contains(first)) // delivered in order: the first one missing
        first += stride;
      int end = first;
      if (auto got = received_.find(key); got != received_.end())
        for (auto it = got->second.rbegin(); it != got->second.rend(); ++it) {
          if (sent != sent_.end() && sent->second.contains(*it)) continue;
          end = std::max(end, *it + 1);
          break;
        }
      loss.first = std::min(loss.first, first);
      loss.end   = std::max(loss.end, end);
    }
  }
  if (loss.end < loss.first) loss.end = loss.first;
  return loss;
}

bool mapping_uses(const Mapping& mapping, int u)
{
  return std::ranges::any_of(mapping.intervals, [u](const Interval& in) {
    return std::ranges::any_of(in.replicas,
                               [u](const ProcessorGroup& g) { return std::ranges::find(g, u) != g.end(); });
  });
}

} // namespace pipesim::detail

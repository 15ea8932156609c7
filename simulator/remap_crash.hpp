// What a crash takes from a segment of a re-mapping run (DESIGN.md §3.5, §3.12, `on_crash: remap`): per replica of
// each interval, the data sets it has received and delivered, from which the data sets lost with a crashed processor.
#pragma once

#include "model/mapping.hpp"
#include "model/operation.hpp"

#include <map>
#include <set>
#include <utility>

namespace pipesim::detail {

/// Data sets [first, end) of a segment (numbered in it) that a crashed processor takes with it: `first` is the first
/// data set it had not delivered (the ones before it reach P_out without it), `end` one past the last one it had
/// received whole (end == first: it held none). Those in between that another (dealt) replica held are lost too:
/// P_out outputs in order.
struct CrashLoss {
  int first = 0;
  int end   = 0;
};

class CrashLedger {
public:
  /// An operation of interval j (0-based) on data set k of the segment running `mapping` has ended.
  void operation(const Mapping& mapping, Operation kind, int j, int k);
  /// What processor u takes with it if it crashes now (u in `mapping`, no active replicas).
  CrashLoss loss(const Mapping& mapping, int u) const;
  void clear()
  {
    received_.clear();
    sent_.clear();
  }

private:
  using Key = std::pair<int, int>; // (interval j, replica r)
  std::map<Key, std::set<int>> received_, sent_;
};

/// Whether processor u computes in `mapping` (in any replica group).
bool mapping_uses(const Mapping& mapping, int u);

} // namespace pipesim::detail

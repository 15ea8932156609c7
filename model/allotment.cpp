// Allotted transfer times of the multi-port model.
#include "model/allotment.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace pipesim {

std::vector<double> allotted_transfer_times(const OnePortPlan& plan, const Platform& platform)
{
  std::map<std::pair<int, int>, double> link_load;
  std::map<int, double> out_load, in_load;
  for (const auto& t : plan.transfers) {
    link_load[{t.from, t.to}] += t.bytes;
    out_load[t.from] += t.bytes;
    in_load[t.to] += t.bytes;
  }
  auto card = [&](int u, bool out) {
    if (u < 0 || u >= platform.p()) return unbounded; // P_in / P_out
    return out ? platform.processor(u).nic_out : platform.processor(u).nic_in;
  };
  std::vector<double> times;
  for (const auto& t : plan.transfers) {
    if (t.bytes <= 0) {
      times.push_back(0);
      continue;
    }
    double time = link_load[{t.from, t.to}] / platform.bandwidth(t.from, t.to);
    if (std::isfinite(card(t.from, true))) time = std::max(time, out_load[t.from] / card(t.from, true));
    if (std::isfinite(card(t.to, false))) time = std::max(time, in_load[t.to] / card(t.to, false));
    times.push_back(time);
  }
  return times;
}

} // namespace pipesim

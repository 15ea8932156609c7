// Allotted transfer times of the multi-port model.
#include "model/allotment.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace pipesim {

namespace {

/// Resource kinds a transfer crosses.
enum class Resource { link, out_card, in_card };

using Key = std::tuple<Resource, int, int>;

/// Per resource: the sum over the stations using it of the largest load one data set puts on it through them.
std::map<Key, double> resource_loads(const OnePortPlan& plan)
{
  // resource -> (station node, station interval, data set) -> bytes
  std::map<Key, std::map<std::tuple<int, int, int>, double>> bytes;
  for (const auto& t : plan.transfers) {
    // the sending station is I_{interval-1} on `from` (P_in for interval 0), the receiving one I_interval on `to`
    bytes[{Resource::link, t.from, t.to}][{t.from, t.interval - 1, t.dataset}] += t.bytes;
    bytes[{Resource::out_card, t.from, -1}][{t.from, t.interval - 1, t.dataset}] += t.bytes;
    bytes[{Resource::in_card, -1, t.to}][{t.to, t.interval, t.dataset}] += t.bytes;
  }
  std::map<Key, double> loads;
  for (const auto& [resource, per_station] : bytes) {
    std::map<std::pair<int, int>, double> peak; // per station: its largest data set
    for (const auto& [key, b] : per_station) {
      double& p = peak[{std::get<0>(key), std::get<1>(key)}];
      p         = std::max(p, b);
    }
    double& total = loads[resource];
    for (const auto& [station, b] : peak)
      total += b;
  }
  return loads;
}

} // namespace

std::vector<double> allotted_transfer_times(const OnePortPlan& plan, const Platform& platform)
{
  auto loads = resource_loads(plan);
  auto card  = [&](int u, bool out) {
    if (u < 0 || u >= platform.p()) return unbounded; // P_in / P_out
    return out ? platform.processor(u).nic_out : platform.processor(u).nic_in;
  };
  std::vector<double> times;
  for (const auto& t : plan.transfers) {
    if (t.bytes <= 0) {
      times.push_back(0);
      continue;
    }
    double time = loads.at({Resource::link, t.from, t.to}) / platform.bandwidth(t.from, t.to);
    if (std::isfinite(card(t.from, true)))
      time = std::max(time, loads.at({Resource::out_card, t.from, -1}) / card(t.from, true));
    if (std::isfinite(card(t.to, false)))
      time = std::max(time, loads.at({Resource::in_card, -1, t.to}) / card(t.to, false));
    times.push_back(time);
  }
  return times;
}

} // namespace pipesim

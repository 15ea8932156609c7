// The `allotted` bandwidth allocation of the multi-port model (DESIGN.md §3.2): every resource (pair link, output
// card Bout_u, input card Bin_u) carries a load; each transfer gets the rate that lets every resource on its path
// serve its whole load in exactly load / capacity, as bbr10's cycle-time formulas assume.
#pragma once

#include "model/oneport_plan.hpp"
#include "platforms/platform.hpp"

#include <vector>

namespace pipesim {

/// For each transfer of the plan: the time its bytes take under the allotted allocation, max over the resources r
/// on its path of L_r / C_r (link u->v, Bout_u, Bin_v). P_in and P_out have no card (DESIGN.md §3.3). Latency
/// c_{u,v} is not included (SimGrid adds it before the bytes flow). 0 for a transfer of 0 bytes.
///
/// The load of a resource is what may cross it at once. A sending station (interval I_j on u, or P_in) sends one
/// data set at a time, to every receiver of that data set at once; a receiving station (I_{j+1} on v) receives one
/// data set at a time. So L_r sums, over the stations using r (the senders for a link and for Bout, the receivers
/// for Bin), the largest load one data set of the round puts on r through that station. Without deal a round is one
/// data set and L_r is the total per data set (bbr10 Algorithm 1's loads); with deal, a replica receiving one
/// data set in R uses its whole card for it. Under this allocation no resource is ever asked for more than its
/// capacity, so every transfer runs at its cap whatever the timing.
/// Complexity: O(T log T) for the plan's T transfers (three resources each, in ordered maps).
std::vector<double> allotted_transfer_times(const OnePortPlan& plan, const Platform& platform);

} // namespace pipesim

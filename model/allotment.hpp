// The `allotted` bandwidth allocation of the multi-port model (DESIGN.md §3.2): per data set, every resource (pair
// link, output card Bout_u, input card Bin_u) carries a load; each transfer gets the rate that lets every resource
// on its path serve its whole load in exactly load / capacity, as seed 004's cycle-time formulas assume.
#pragma once

#include "model/oneport_plan.hpp"
#include "platforms/platform.hpp"

#include <vector>

namespace pipesim {

/// For each transfer of the plan: the time its bytes take under the allotted allocation, max over the resources r
/// on its path of L_r / C_r (link u->v: the bytes of every transfer on u->v; Bout_u: every transfer u sends; Bin_v:
/// every transfer v receives). P_in and P_out have no card (DESIGN.md §3.3). Latency c_{u,v} is not included (SimGrid
/// adds it before the bytes flow). 0 for a transfer of 0 bytes.
std::vector<double> allotted_transfer_times(const OnePortPlan& plan, const Platform& platform);

} // namespace pipesim

// The analytic model's network (scenario key `analytic.network`, docs/fidelity.md): the formulas as the papers write
// them (`exact`, what the simulator's exact network mode reproduces) or with SimGrid 3.32's LV08 factors applied to
// the platform and the message sizes (`lv08`), so that they predict the `simgrid` network mode.
#pragma once

#include "base/enum_names.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

namespace pipesim {

/// Which network the analytic figures assume.
enum class AnalyticNetwork {
  exact, // a transfer of X bytes on u -> v takes c_{u,v} + X / b_{u,v} (DESIGN.md §3.1)
  lv08   // SimGrid 3.32's LV08 model without cross traffic: lv08_transfer_time
};
PIPESIM_ENUM_NAMES(AnalyticNetwork, {exact, "exact"}, {lv08, "lv08"});

/// SimGrid 3.32's defaults for the LV08 network model (`surf_network_model_init_LegrandVelho`, `network/TCP-gamma`).
struct Lv08Factors {
  double bandwidth_factor = 0.97;      // network/bandwidth-factor: a flow gets this share of its rate bound
  double latency_factor   = 13.01;     // network/latency-factor: a flow waits this multiple of its route's latency
  double tcp_gamma        = 4194304.0; // network/TCP-gamma (bytes): a flow's rate is at most gamma / (2 c)
};

/// What one transfer of X bytes alone on a route of bandwidth b (the smallest on the route) and latency c (their sum)
/// takes under LV08 in SimGrid 3.32 (src/surf/network_cm02.cpp, `comm_action_set_bounds` and
/// `comm_action_set_variable`): it first waits latency_factor x c, then moves round(X) bytes (SimGrid sends whole
/// bytes) at bandwidth_factor x min(b, gamma / (2 c)): the max-min variable is bounded by the route's smallest
/// bandwidth and by the TCP window over the round trip (computed on the latency before the factor), and the flow's
/// effective rate is the variable times the bandwidth factor. Infinite when b = 0.
double lv08_transfer_time(double bytes, double b, double c, const Lv08Factors& f = {});

/// The platform whose transfer times c' + X / b' are LV08's for whole-byte sizes: c' = latency_factor x c and
/// b' = bandwidth_factor x min(b, gamma / (2 c)) on every ordered pair; the network cards (Bin_u, Bout_u) are
/// multiplied by bandwidth_factor (each variable is bounded by its card link too). Speeds, failures and profiles are
/// kept. Exact for a transfer alone on its route; transfers that share a link (a backbone, a card in the multi-port
/// model) also share by SimGrid's weighted max-min, which no formula here follows (docs/fidelity.md).
Platform lv08_platform(const Platform& platform, const Lv08Factors& f = {});

/// The pipeline with every delta_i rounded to whole bytes (std::llround, as the `simgrid` network mode sends them).
Pipeline lv08_pipeline(const Pipeline& pipeline);

} // namespace pipesim

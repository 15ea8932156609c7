// SimGrid 3.32's LV08 network applied to the analytic model (network_correction.hpp).
#include "model/network_correction.hpp"

#include <algorithm>
#include <cmath>

namespace pipesim {

namespace {
/// The rate bound of a flow alone on a route: min(b, gamma / (2 c)); with c = 0 the TCP window bounds nothing.
double lv08_rate_bound(double b, double c, const Lv08Factors& f)
{
  return c > 0 ? std::min(b, f.tcp_gamma / (2.0 * c)) : b;
}
} // namespace

double lv08_transfer_time(double bytes, double b, double c, const Lv08Factors& f)
{
  if (!(b > 0)) return unbounded;
  return f.latency_factor * c + std::round(bytes) / (f.bandwidth_factor * lv08_rate_bound(b, c, f));
}

Platform lv08_platform(const Platform& platform, const Lv08Factors& f)
{
  Platform out = platform;
  for (int u = 0; u < out.nodes(); ++u)
    for (int v = 0; v < out.nodes(); ++v) {
      if (u == v) continue;
      const double b = platform.bandwidth(u, v);
      const double c = platform.latency(u, v);
      out.set_link(u, v, b > 0 ? f.bandwidth_factor * lv08_rate_bound(b, c, f) : b, f.latency_factor * c);
    }
  for (int u = 0; u < out.p(); ++u) {
    out.processor(u).nic_in *= f.bandwidth_factor;
    out.processor(u).nic_out *= f.bandwidth_factor;
  }
  return out;
}

Pipeline lv08_pipeline(const Pipeline& pipeline)
{
  Pipeline out = pipeline;
  for (double& d : out.delta)
    d = std::round(d);
  return out;
}

} // namespace pipesim

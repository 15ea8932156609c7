// Platform model: storage of per-pair link values and platform classification.
#include "platforms/platform.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace pipesim {

Platform::Platform(std::vector<Processor> processors, std::string in_name, std::string out_name, double b, double c)
    : processors_(std::move(processors)), in_name_(std::move(in_name)), out_name_(std::move(out_name))
{
  auto n = static_cast<std::size_t>(nodes());
  bandwidth_.assign(n * n, b);
  latency_.assign(n * n, c);
}

void Platform::out_of_range(int u, int v) const
{
  throw std::out_of_range(fmt::format("platform node index ({}, {}) out of range [0, {})", u, v, nodes()));
}

const std::string& Platform::node_name(int u) const
{
  if (u == in()) return in_name_;
  if (u == out()) return out_name_;
  return processor(u).name;
}

std::optional<int> Platform::find(const std::string& name) const
{
  for (int u = 0; u < p(); ++u)
    if (processors_[static_cast<std::size_t>(u)].name == name) return u;
  return std::nullopt;
}

void Platform::set_link(int u, int v, double bandwidth, double latency)
{
  bandwidth_[index(u, v)] = bandwidth;
  latency_[index(u, v)]   = latency;
}

namespace {
template <class F>
bool all_equal(int count, F value)
{
  for (int i = 1; i < count; ++i)
    if (value(i) != value(0)) return false;
  return true;
}
} // namespace

PlatformFlags Platform::flags() const
{
  PlatformFlags f;
  f.speed_hom = all_equal(p(), [this](int u) { return speed(u); });
  f.card_hom  = all_equal(p(), [this](int u) { return processor(u).nic_in; }) &&
               all_equal(p(), [this](int u) { return processor(u).nic_out; });
  f.fail_hom = all_equal(p(), [this](int u) { return processor(u).failure_probability; });
  // LinkHom: every b_{u,v} between distinct nodes equal, P_in/P_out included (br07 §2.2, bbr10 §3.2);
  // the pair P_in -> P_out is never used and is ignored.
  f.link_hom   = true;
  double first = -1;
  for (int u = 0; u < nodes() && f.link_hom; ++u)
    for (int v = 0; v < nodes(); ++v) {
      if (u == v || u == out() || v == in() || (u == in() && v == out())) continue;
      double b = bandwidth(u, v);
      if (first < 0)
        first = b;
      else if (b != first) {
        f.link_hom = false;
        break;
      }
    }
  return f;
}

PlatformClass Platform::classify() const
{
  PlatformFlags f = flags();
  if (!f.link_hom) return PlatformClass::fully_heterogeneous;
  return f.speed_hom ? PlatformClass::fully_homogeneous : PlatformClass::communication_homogeneous;
}

} // namespace pipesim

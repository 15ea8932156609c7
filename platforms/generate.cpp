// Seeded random platform generator (draw order documented in generate.hpp).
#include "platforms/generate.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <vector>

namespace pipesim {

namespace {

enum Stream : std::uint64_t {
  speed_stream = 1,
  failure_stream,
  nic_in_stream,
  nic_out_stream,
  bandwidth_stream,
  latency_stream
};

Rng stream(std::uint64_t seed, Stream s)
{
  // Rng runs the seed through splitmix64, so nearby seeds give unrelated streams.
  return Rng(seed ^ (static_cast<std::uint64_t>(s) * 0x9e3779b97f4a7c15ULL));
}

void check_range(const Range& r, const char* what, bool positive)
{
  bool ok = r.well_formed() && (positive ? r.positive() : r.lowest() >= 0);
  if (!ok)
    throw InputError::keyed(fmt::format("platform.generate.{}", what), r.to_string(),
                            fmt::format("expected a finite, well formed range {}", positive ? "> 0" : ">= 0"));
}

void check_spec(const PlatformGeneratorSpec& spec)
{
  if (spec.p < 1) throw InputError::keyed("platform.generate.p", spec.p, "expected at least 1 processor");
  check_range(spec.speed, "speed", true);
  check_range(spec.bandwidth, "bandwidth", true);
  check_range(spec.latency, "latency", false);
  check_range(spec.failure_probability, "failure_probability", false);
  if (spec.failure_probability.highest() >= 1) // also refuses normal ranges, unbounded above
    throw InputError::keyed("platform.generate.failure_probability", spec.failure_probability.to_string(),
                            "expected a range below 1");
  if (spec.nic_bounded_in) check_range(spec.nic_in, "nic_in", true);
  if (spec.nic_bounded_out) check_range(spec.nic_out, "nic_out", true);
  for (int u = 1; u <= spec.p; ++u) {
    std::string name = fmt::format("P{}", u);
    if (name == spec.in_name || name == spec.out_name)
      throw InputError::keyed(name == spec.in_name ? "platform.io.in" : "platform.io.out", name,
                              fmt::format("clashes with the name of generated processor {}", name));
  }
}

/// The node indices standing for one host: a processor, P_in, P_out, or both when they share a host.
std::vector<std::vector<int>> hosts_of(const Platform& platform)
{
  std::vector<std::vector<int>> hosts;
  for (int u = 0; u < platform.p(); ++u)
    hosts.push_back({u});
  if (platform.io_same_host())
    hosts.push_back({platform.in(), platform.out()});
  else {
    hosts.push_back({platform.in()});
    hosts.push_back({platform.out()});
  }
  return hosts;
}

void draw_links(const PlatformGeneratorSpec& spec, Platform& platform)
{
  Rng bandwidth_rng = stream(spec.seed, bandwidth_stream);
  Rng latency_rng   = stream(spec.seed, latency_stream);
  if (spec.platform_class != PlatformClass::fully_heterogeneous) {
    double b = spec.bandwidth.draw(bandwidth_rng, "platform.generate.bandwidth");
    double c = spec.latency.draw(latency_rng, "platform.generate.latency");
    for (int u = 0; u < platform.nodes(); ++u)
      for (int v = 0; v < platform.nodes(); ++v)
        if (u != v) platform.set_link(u, v, b, c);
    return;
  }
  auto hosts = hosts_of(platform);
  for (std::size_t a = 0; a < hosts.size(); ++a)
    for (std::size_t z = a + 1; z < hosts.size(); ++z) {
      double b = spec.bandwidth.draw(bandwidth_rng, "platform.generate.bandwidth");
      double c = spec.latency.draw(latency_rng, "platform.generate.latency");
      for (int u : hosts[a])
        for (int v : hosts[z]) {
          platform.set_link(u, v, b, c);
          platform.set_link(v, u, b, c);
        }
    }
}

} // namespace

Platform generate_platform(const PlatformGeneratorSpec& spec)
{
  check_spec(spec);
  std::vector<Processor> processors(static_cast<std::size_t>(spec.p));
  for (int u = 0; u < spec.p; ++u)
    processors[static_cast<std::size_t>(u)].name = fmt::format("P{}", u + 1);

  Rng speed_rng = stream(spec.seed, speed_stream);
  if (spec.platform_class == PlatformClass::fully_homogeneous) {
    double s = spec.speed.draw(speed_rng, "platform.generate.speed");
    for (auto& proc : processors)
      proc.speed = s;
  } else {
    for (auto& proc : processors)
      proc.speed = spec.speed.draw(speed_rng, "platform.generate.speed");
  }
  Rng failure_rng = stream(spec.seed, failure_stream);
  for (auto& proc : processors)
    proc.failure_probability = spec.failure_probability.draw(failure_rng, "platform.generate.failure_probability");
  if (spec.nic_bounded_in) {
    Rng rng = stream(spec.seed, nic_in_stream);
    for (auto& proc : processors)
      proc.nic_in = spec.nic_in.draw(rng, "platform.generate.nic_in");
  }
  if (spec.nic_bounded_out) {
    Rng rng = stream(spec.seed, nic_out_stream);
    for (auto& proc : processors)
      proc.nic_out = spec.nic_out.draw(rng, "platform.generate.nic_out");
  }

  Platform platform(std::move(processors), spec.in_name, spec.out_name);
  draw_links(spec, platform);
  if (platform.io_same_host()) { // P_in -> P_out is local to one host, as platform_from_engine reads it
    platform.set_link(platform.in(), platform.out(), unbounded, 0.0);
    platform.set_link(platform.out(), platform.in(), unbounded, 0.0);
  }
  return platform;
}

std::optional<PlatformClass> platform_class_from_string(const std::string& name)
{
  std::string n = name;
  std::replace(n.begin(), n.end(), '_', '-');
  for (auto c :
       {PlatformClass::fully_homogeneous, PlatformClass::communication_homogeneous, PlatformClass::fully_heterogeneous})
    if (n == to_string(c)) return c;
  return std::nullopt;
}

} // namespace pipesim

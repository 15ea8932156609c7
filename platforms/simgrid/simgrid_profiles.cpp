// Profiles set in a SimGrid 3.32 engine: hosts' speed and state profiles, and latency profiles as a per-transfer
// latency factor (SimGrid's own latency changes can stop a transfer for ever: docs/semantics.md).
#include "platforms/simgrid/simgrid_profiles.hpp"

#include "base/input_error.hpp"
#include "platforms/profile_file.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <memory>
#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <xbt/config.hpp>

namespace sg4 = simgrid::s4u;

namespace pipesim {

simgrid::kernel::profile::Profile* simgrid_profile(const std::string& name, const Profile& profile, double scale)
{
  Profile scaled = profile;
  for (auto& p : scaled.points)
    p.value *= scale;
  scaled.period = 0; // the period is SimGrid's `periodicity` argument
  return simgrid::kernel::profile::ProfileBuilder::from_string(name, profile_text(scaled),
                                                               profile.period > 0 ? profile.period : -1.0);
}

bool has_bandwidth_profiles(const Platform& platform)
{
  const PlatformProfiles& p = platform.profiles();
  return std::ranges::any_of(p.pairs, [](const PairProfiles& x) { return x.bandwidth.has_value(); }) ||
         std::ranges::any_of(p.hosts, [](const HostProfiles& h) { return h.nic_in || h.nic_out; }) ||
         std::ranges::any_of(p.links, [](const LinkProfiles& l) { return l.bandwidth_profile.has_value(); });
}

std::vector<ExportedProfile> exported_profiles(const Platform& platform, const std::string& prefix)
{
  const PlatformProfiles& profiles = platform.profiles();
  if (!profiles.links.empty())
    throw InputError::keyed("platform.file", profiles.links.front().link,
                            "platform export: this link of the XML platform has profiles; one link per pair cannot "
                            "hold them (b_{u,v}(t) is the smallest of a route's links)");
  std::vector<ExportedProfile> out;
  auto add = [&](const std::string& element, const char* attribute, const Profile& profile, double scale) {
    Profile absolute = profile;
    for (auto& p : absolute.points)
      p.value *= scale;
    out.push_back({element, attribute, fmt::format("{}{}.profile", prefix, out.size() + 1), profile_text(absolute)});
  };
  for (const HostProfiles& h : profiles.hosts) {
    if (!platform.find(h.host)) continue;
    if (h.nic_in || h.nic_out)
      throw InputError::keyed("platform.profiles", h.host,
                              "platform export: this host has a card profile; the exported XML holds the cards as "
                              "host properties, without links to give profiles to");
    if (h.speed) add(h.host, "speed_file", *h.speed, 1);
    if (h.state) add(h.host, "state_file", *h.state, 1);
  }
  for (const PairProfiles& pair : profiles.pairs) {
    auto u   = platform.find(pair.from);
    auto v   = platform.find(pair.to);
    int from = u ? *u : platform.in(), to = v ? *v : platform.out();
    if (platform.bandwidth(from, to) == 0) continue; // no route, no link
    if (pair.bandwidth)
      add(pair.from + "->" + pair.to, "bandwidth_file", *pair.bandwidth, platform.bandwidth(from, to));
    if (pair.latency) add(pair.from + "->" + pair.to, "latency_file", *pair.latency, platform.latency(from, to));
  }
  return out;
}

namespace {

/// The hosts' speed and state profiles that SimGrid did not load with the XML (a host takes them once sealed).
void install_host_profiles(const Platform& platform)
{
  for (const HostProfiles& h : platform.profiles().hosts) {
    sg4::Host* host = sg4::Host::by_name_or_null(h.host);
    if (host == nullptr || !platform.find(h.host)) continue;
    if (h.speed && !h.speed_from_xml) host->set_speed_profile(simgrid_profile("pipesim/speed/" + h.host, *h.speed, 1));
    if (h.state && !h.state_from_xml) host->set_state_profile(simgrid_profile("pipesim/state/" + h.host, *h.state, 1));
  }
}

/// A link whose latency follows a profile (absolute values; `before` holds until its first date).
struct LatencyProfile {
  Profile profile;
  double before = 0;
};

using LatencyProfiles = std::unordered_map<const sg4::Link*, std::shared_ptr<const LatencyProfile>>;

/// The SimGrid links with a latency profile: a model platform's pair links (ratios of c_{u,v}) and an XML's links
/// (both halves of a SPLITDUPLEX one). A link whose latency is 0 gets the profile's largest value, so that the
/// factor sum(now) / sum(link latencies) of its routes is defined.
LatencyProfiles latency_profiles(const Platform& platform)
{
  LatencyProfiles out;
  auto add = [&](const std::string& name, const Profile& profile, double before) {
    auto shared = std::make_shared<const LatencyProfile>(LatencyProfile{profile, before});
    for (const std::string& n : {name, name + "_UP", name + "_DOWN"})
      if (sg4::Link* link = sg4::Link::by_name_or_null(n)) {
        if (link->get_latency() == 0 && profile.highest() > 0) link->set_latency(profile.highest());
        out.emplace(link, shared);
      }
  };
  for (const PairProfiles& pair : platform.profiles().pairs) {
    if (!pair.latency) continue;
    auto u           = platform.find(pair.from) ? *platform.find(pair.from) : platform.in();
    auto v           = platform.find(pair.to) ? *platform.find(pair.to) : platform.out();
    Profile absolute = *pair.latency;
    for (auto& p : absolute.points)
      p.value *= platform.latency(u, v);
    add(pair.from + "->" + pair.to, absolute, platform.latency(u, v));
  }
  for (const LinkProfiles& link : platform.profiles().links)
    if (link.latency_profile) add(link.link, *link.latency_profile, link.latency);
  return out;
}

} // namespace

void install_profiles(const Platform& platform)
{
  install_host_profiles(platform);
  LatencyProfiles profiles = latency_profiles(platform);
  if (profiles.empty()) return;
  // SimGrid multiplies a transfer's route latency by this factor when the transfer starts: the route's latency at
  // that date over the sum of its links' latencies. The configured factor (1 in CM02, 13.01 in LV08) is kept.
  const double configured = simgrid::config::get_value<double>("network/latency-factor");
  auto factor             = [profiles = std::move(profiles), configured](double, const sg4::Host*, const sg4::Host*,
                                                             const std::vector<sg4::Link*>& links,
                                                             const std::unordered_set<sg4::NetZone*>&) {
    const double now = sg4::Engine::get_clock();
    double nominal = 0, current = 0;
    for (const sg4::Link* link : links) {
      nominal += link->get_latency();
      auto it = profiles.find(link);
      current += it == profiles.end() ? link->get_latency() : it->second->profile.value_at(now, it->second->before);
    }
    return nominal > 0 ? configured * current / nominal : configured;
  };
  try {
    sg4::Engine::get_instance()->get_netzone_root()->get_network_model()->set_lat_factor_cb(factor);
  } catch (const std::invalid_argument&) { // SimGrid takes --cfg=network/latency-factor or a callback, not both
    throw InputError::option("--cfg=network/latency-factor",
                             "simulation: cannot be used on a platform with latency profiles, which pipesim applies "
                             "as SimGrid's latency factor (docs/dynamic.md)");
  }
}

} // namespace pipesim

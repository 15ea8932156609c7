// Piecewise-constant profiles and the platform model at a date (DESIGN.md §3.11).
#include "platforms/profile.hpp"

#include "platforms/platform.hpp"

#include <algorithm>
#include <cmath>

namespace pipesim {

double Profile::value_at(double t, double before) const
{
  if (points.empty() || t < points.front().date) return before;
  double tau = t;
  if (period > 0) { // t in repetition k: tau = t - k period lies in [d_0, d_0 + period)
    double k = std::floor((t - points.front().date) / period);
    tau      = std::max(points.front().date, t - k * period);
  }
  auto after = std::upper_bound(points.begin(), points.end(), tau,
                                [](double date, const ProfilePoint& p) { return date < p.date; });
  return std::prev(after)->value;
}

std::vector<double> Profile::change_dates(double horizon, std::size_t limit) const
{
  std::vector<double> dates;
  for (double shift = 0;; shift += period) {
    for (const auto& p : points) {
      if (p.date + shift >= horizon || dates.size() >= limit) return dates;
      dates.push_back(p.date + shift);
    }
    if (period <= 0) return dates;
  }
}

double Profile::lowest() const
{
  double x = points.empty() ? 0 : points.front().value;
  for (const auto& p : points)
    x = std::min(x, p.value);
  return x;
}

double Profile::highest() const
{
  double x = points.empty() ? 0 : points.front().value;
  for (const auto& p : points)
    x = std::max(x, p.value);
  return x;
}

const HostProfiles* PlatformProfiles::host(const std::string& name) const
{
  auto it = std::ranges::find_if(hosts, [&](const HostProfiles& h) { return h.host == name; });
  return it == hosts.end() ? nullptr : &*it;
}

const LinkProfiles* PlatformProfiles::link(const std::string& name) const
{
  auto it = std::ranges::find_if(links, [&](const LinkProfiles& l) { return l.link == name; });
  return it == links.end() ? nullptr : &*it;
}

bool PlatformProfiles::has_state() const
{
  return std::ranges::any_of(hosts, [](const HostProfiles& h) { return h.state.has_value(); });
}

namespace {

double ratio_at(const std::optional<Profile>& profile, double t) { return profile ? profile->value_at(t, 1.0) : 1.0; }

/// Node indices of a pair profile's hosts: a processor, or the io host's role (P_in as source, P_out as target).
std::optional<std::pair<int, int>> pair_nodes(const Platform& platform, const PairProfiles& pair)
{
  auto node = [&](const std::string& name, bool source) -> std::optional<int> {
    if (auto u = platform.find(name)) return *u;
    if (source && name == platform.in_name()) return platform.in();
    if (!source && name == platform.out_name()) return platform.out();
    return std::nullopt;
  };
  auto u = node(pair.from, true);
  auto v = node(pair.to, false);
  if (!u || !v) return std::nullopt;
  return std::make_pair(*u, *v);
}

/// b_{u,v} and c_{u,v} of an XML route at t from its hops' values at t (a hop that is off: unreachable).
void apply_route(const Platform& platform, const ProfiledRoute& route, double t, Platform& out)
{
  const PlatformProfiles& profiles = platform.profiles();
  double b                         = unbounded;
  double c                         = 0;
  for (const auto& hop : route.hops) {
    double bandwidth       = hop.bandwidth;
    double latency         = hop.latency;
    const LinkProfiles* lp = profiles.link(hop.link);
    if (lp == nullptr && hop.link.size() > 3) { // a SPLITDUPLEX link's halves take the profiles of the link
      for (const char* half : {"_UP", "_DOWN"})
        if (hop.link.ends_with(half))
          lp = profiles.link(hop.link.substr(0, hop.link.size() - std::string(half).size()));
    }
    if (lp != nullptr) {
      if (lp->bandwidth_profile) bandwidth = lp->bandwidth_profile->value_at(t, bandwidth);
      if (lp->latency_profile) latency = lp->latency_profile->value_at(t, latency);
      if (lp->state_profile && lp->state_profile->value_at(t, 1.0) <= 0) bandwidth = 0;
    }
    b = std::min(b, bandwidth);
    c += latency;
  }
  out.set_link(route.from, route.to, b, c);
}

} // namespace

Platform platform_at(const Platform& platform, double t)
{
  Platform out                     = platform;
  const PlatformProfiles& profiles = platform.profiles();
  out.set_profiles({});
  for (const auto& h : profiles.hosts) {
    auto u = platform.find(h.host);
    if (!u) continue;
    Processor& proc = out.processor(*u);
    proc.speed *= ratio_at(h.speed, t);
    proc.nic_in *= ratio_at(h.nic_in, t);
    proc.nic_out *= ratio_at(h.nic_out, t);
  }
  for (const auto& pair : profiles.pairs) {
    auto nodes = pair_nodes(platform, pair);
    if (!nodes) continue;
    auto [u, v] = *nodes;
    out.set_link(u, v, platform.bandwidth(u, v) * ratio_at(pair.bandwidth, t),
                 platform.latency(u, v) * ratio_at(pair.latency, t));
  }
  for (const auto& route : profiles.routes)
    apply_route(platform, route, t, out);
  return out;
}

std::vector<std::string> hosts_off_at(const Platform& platform, double t)
{
  std::vector<std::string> off;
  for (const auto& h : platform.profiles().hosts)
    if (h.state && platform.find(h.host) && h.state->value_at(t, 1.0) <= 0) off.push_back(h.host);
  return off;
}

std::vector<double> profile_change_dates(const Platform& platform, double horizon, std::size_t limit)
{
  std::vector<double> dates;
  auto add = [&](const std::optional<Profile>& p) {
    if (!p) return;
    auto d = p->change_dates(horizon, limit);
    dates.insert(dates.end(), d.begin(), d.end());
  };
  const PlatformProfiles& profiles = platform.profiles();
  for (const auto& h : profiles.hosts)
    for (const auto* p : {&h.speed, &h.state, &h.nic_in, &h.nic_out})
      add(*p);
  for (const auto& pair : profiles.pairs) {
    add(pair.bandwidth);
    add(pair.latency);
  }
  for (const auto& l : profiles.links)
    for (const auto* p : {&l.bandwidth_profile, &l.latency_profile, &l.state_profile})
      add(*p);
  std::ranges::sort(dates);
  dates.erase(std::unique(dates.begin(), dates.end()), dates.end());
  std::erase_if(dates, [](double d) { return d <= 0; });
  return dates;
}

} // namespace pipesim

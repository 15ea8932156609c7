// JSON form of a platform's profiles (in the platform's JSON under "profiles", present only when there are some).
#include "platforms/profile_json.hpp"

#include "base/input_error.hpp"

#include <fmt/format.h>

namespace pipesim {

namespace {

using nlohmann::json;

json profile_json(const Profile& p)
{
  json points = json::array();
  for (const auto& x : p.points)
    points.push_back({x.date, x.value});
  return {{"points", std::move(points)}, {"period", p.period}, {"source", p.source}};
}

Profile profile_from(const json& j)
{
  Profile p;
  for (const json& x : j.at("points"))
    p.points.push_back({x.at(0).get<double>(), x.at(1).get<double>()});
  j.at("period").get_to(p.period);
  j.at("source").get_to(p.source);
  return p;
}

void put(json& j, const char* key, const std::optional<Profile>& p)
{
  if (p) j[key] = profile_json(*p);
}

std::optional<Profile> get(const json& j, const char* key)
{
  if (!j.contains(key)) return std::nullopt;
  return profile_from(j.at(key));
}

json host_json(const HostProfiles& h)
{
  json j = {{"host", h.host}, {"speed_from_xml", h.speed_from_xml}, {"state_from_xml", h.state_from_xml}};
  if (!h.source.empty()) j["source"] = h.source;
  put(j, "speed", h.speed);
  put(j, "state", h.state);
  put(j, "nic_in", h.nic_in);
  put(j, "nic_out", h.nic_out);
  return j;
}

HostProfiles host_from(const json& j)
{
  HostProfiles h;
  j.at("host").get_to(h.host);
  j.at("speed_from_xml").get_to(h.speed_from_xml);
  j.at("state_from_xml").get_to(h.state_from_xml);
  if (j.contains("source")) j.at("source").get_to(h.source);
  h.speed   = get(j, "speed");
  h.state   = get(j, "state");
  h.nic_in  = get(j, "nic_in");
  h.nic_out = get(j, "nic_out");
  return h;
}

} // namespace

nlohmann::json profiles_to_json(const PlatformProfiles& profiles)
{
  json hosts = json::array(), pairs = json::array(), links = json::array(), routes = json::array();
  for (const auto& h : profiles.hosts)
    hosts.push_back(host_json(h));
  for (const auto& p : profiles.pairs) {
    json j = {{"from", p.from}, {"to", p.to}, {"source", p.source}};
    put(j, "bandwidth", p.bandwidth);
    put(j, "latency", p.latency);
    pairs.push_back(std::move(j));
  }
  for (const auto& l : profiles.links) {
    json j = {{"link", l.link}, {"bandwidth", l.bandwidth}, {"latency", l.latency}};
    put(j, "bandwidth_profile", l.bandwidth_profile);
    put(j, "latency_profile", l.latency_profile);
    put(j, "state_profile", l.state_profile);
    links.push_back(std::move(j));
  }
  for (const auto& r : profiles.routes) {
    json hops = json::array();
    for (const auto& h : r.hops)
      hops.push_back({h.link, h.bandwidth, h.latency});
    routes.push_back({{"from", r.from}, {"to", r.to}, {"hops", std::move(hops)}});
  }
  return {{"hosts", hosts}, {"links", links}, {"pairs", pairs}, {"routes", routes}};
}

PlatformProfiles profiles_from_json(const nlohmann::json& j)
{
  try {
    PlatformProfiles profiles;
    for (const json& h : j.at("hosts"))
      profiles.hosts.push_back(host_from(h));
    for (const json& p : j.at("pairs"))
      profiles.pairs.push_back({p.at("from"), p.at("to"), get(p, "bandwidth"), get(p, "latency"), p.at("source")});
    for (const json& l : j.at("links"))
      profiles.links.push_back({l.at("link"), l.at("bandwidth"), l.at("latency"), get(l, "bandwidth_profile"),
                                get(l, "latency_profile"), get(l, "state_profile")});
    for (const json& r : j.at("routes")) {
      ProfiledRoute route{r.at("from"), r.at("to"), {}};
      for (const json& h : r.at("hops"))
        route.hops.push_back({h.at(0), h.at(1), h.at(2)});
      profiles.routes.push_back(std::move(route));
    }
    return profiles;
  } catch (const nlohmann::json::exception& e) {
    throw InputError::keyed("platform.profiles", fmt::format("platform JSON: {}", e.what()));
  }
}

} // namespace pipesim

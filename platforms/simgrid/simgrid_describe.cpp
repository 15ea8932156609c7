// A SimGrid XML platform described without P_in and P_out (simgrid_describe.hpp).
#include "platforms/simgrid/simgrid_describe.hpp"

#include "platforms/simgrid/simgrid_platform.hpp"

#include <algorithm>
#include <cxxabi.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <typeinfo>

namespace sg4 = simgrid::s4u;

namespace pipesim {

void XmlPlatformDescription::Range::add(double x)
{
  min = count == 0 ? x : std::min(min, x);
  max = count == 0 ? x : std::max(max, x);
  ++count;
}

PlatformClass XmlPlatformDescription::platform_class() const
{
  if (!link_hom) return PlatformClass::fully_heterogeneous;
  return speed_hom ? PlatformClass::fully_homogeneous : PlatformClass::communication_homogeneous;
}

namespace {

/// SimGrid's name of a zone's routing, from its implementation's class (FullZone -> Full, EmptyZone -> None).
std::string routing_of(const sg4::NetZone& zone)
{
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(typeid(*zone.get_impl()).name(), nullptr, nullptr, &status), std::free);
  std::string name = status == 0 && demangled ? demangled.get() : typeid(*zone.get_impl()).name();
  name             = name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1);
  if (name.ends_with("Zone")) name.resize(name.size() - 4);
  return name == "Empty" ? "None" : name;
}

void describe_zones(const sg4::NetZone& zone, const std::map<const sg4::NetZone*, int>& hosts,
                    std::vector<XmlPlatformDescription::Zone>& out)
{
  auto it = hosts.find(&zone);
  out.push_back({zone.get_name(), routing_of(zone), it == hosts.end() ? 0 : it->second});
  for (const sg4::NetZone* child : zone.get_children())
    describe_zones(*child, hosts, out);
}

/// b and c of every ordered pair among the first route_hosts hosts, and the classes.
void describe_routes(const std::vector<sg4::Host*>& hosts, XmlPlatformDescription& d)
{
  d.route_hosts = static_cast<int>(std::min<std::size_t>(hosts.size(), max_described_route_hosts));
  double first  = -1;
  d.link_hom    = true;
  for (int u = 0; u < d.route_hosts; ++u)
    for (int v = 0; v < d.route_hosts; ++v) {
      if (u == v) continue;
      std::vector<sg4::Link*> links;
      double latency = 0;
      try {
        hosts[static_cast<std::size_t>(u)]->route_to(hosts[static_cast<std::size_t>(v)], links, &latency);
      } catch (const std::exception&) { // no route: SimGrid throws on some routings
        links.clear();
      }
      if (links.empty()) {
        ++d.unreachable;
        d.link_hom = false;
        continue;
      }
      double b = unbounded;
      for (const sg4::Link* link : links)
        b = std::min(b, link->get_bandwidth());
      d.route_bandwidth.add(b);
      d.route_latency.add(latency);
      if (first < 0) first = b;
      d.link_hom = d.link_hom && b == first;
    }
}

XmlPlatformDescription describe_engine(const std::string& file)
{
  auto* engine = sg4::Engine::get_instance();
  engine->seal_platform();
  XmlPlatformDescription d;
  d.file                        = file;
  std::vector<sg4::Host*> hosts = engine->get_all_hosts();
  std::sort(hosts.begin(), hosts.end(),
            [](const sg4::Host* a, const sg4::Host* b) { return natural_less(a->get_name(), b->get_name()); });
  std::map<const sg4::NetZone*, int> per_zone;
  for (const sg4::Host* h : hosts) {
    d.hosts.push_back({h->get_name(), h->get_speed(), h->get_core_count(), h->get_englobing_zone()->get_name()});
    ++per_zone[h->get_englobing_zone()];
  }
  describe_zones(*engine->get_netzone_root(), per_zone, d.zones);
  for (const sg4::Link* link : engine->get_all_links()) {
    if (link->get_name() == "__loopback__") continue; // SimGrid's own, in every Full zone
    d.link_bandwidth.add(link->get_bandwidth());
    d.link_latency.add(link->get_latency());
  }
  d.speed_hom = std::all_of(d.hosts.begin(), d.hosts.end(), [&](const auto& h) { return h.speed == d.hosts[0].speed; });
  describe_routes(hosts, d);
  return d;
}

nlohmann::json range_json(const XmlPlatformDescription::Range& r)
{
  if (r.count == 0) return {{"count", 0}, {"min", nullptr}, {"max", nullptr}};
  return {{"count", r.count}, {"min", r.min}, {"max", r.max}};
}

XmlPlatformDescription::Range range_from_json(const nlohmann::json& j)
{
  XmlPlatformDescription::Range r;
  r.count = j.at("count").get<long>();
  if (r.count > 0) {
    r.min = j.at("min").get<double>();
    r.max = j.at("max").get<double>();
  }
  return r;
}

} // namespace

XmlPlatformDescription describe_xml_platform(const std::string& file)
{
  std::string text =
      with_xml_platform(file, [&](const std::string&) { return nlohmann::json(describe_engine(file)).dump(); });
  return nlohmann::json::parse(text).get<XmlPlatformDescription>();
}

void to_json(nlohmann::json& j, const XmlPlatformDescription& d)
{
  j          = nlohmann::json::object();
  j["file"]  = d.file;
  j["hosts"] = nlohmann::json::array();
  for (const auto& h : d.hosts)
    j["hosts"].push_back({{"name", h.name}, {"speed", h.speed}, {"cores", h.cores}, {"zone", h.zone}});
  j["zones"] = nlohmann::json::array();
  for (const auto& z : d.zones)
    j["zones"].push_back({{"name", z.name}, {"routing", z.routing}, {"hosts", z.hosts}});
  j["links"]                   = {{"bandwidth", range_json(d.link_bandwidth)}, {"latency", range_json(d.link_latency)}};
  j["routes"]                  = {{"hosts", d.route_hosts},
                                  {"bandwidth", range_json(d.route_bandwidth)},
                                  {"latency", range_json(d.route_latency)},
                                  {"unreachable", d.unreachable}};
  j["class_if_all_processors"] = {
      {"class", to_string(d.platform_class())}, {"speed_hom", d.speed_hom}, {"link_hom", d.link_hom}};
}

void from_json(const nlohmann::json& j, XmlPlatformDescription& d)
{
  d.file = j.at("file").get<std::string>();
  for (const auto& h : j.at("hosts"))
    d.hosts.push_back({h.at("name"), h.at("speed"), h.at("cores"), h.at("zone")});
  for (const auto& z : j.at("zones"))
    d.zones.push_back({z.at("name"), z.at("routing"), z.at("hosts")});
  d.link_bandwidth  = range_from_json(j.at("links").at("bandwidth"));
  d.link_latency    = range_from_json(j.at("links").at("latency"));
  d.route_hosts     = j.at("routes").at("hosts");
  d.route_bandwidth = range_from_json(j.at("routes").at("bandwidth"));
  d.route_latency   = range_from_json(j.at("routes").at("latency"));
  d.unreachable     = j.at("routes").at("unreachable");
  d.speed_hom       = j.at("class_if_all_processors").at("speed_hom");
  d.link_hom        = j.at("class_if_all_processors").at("link_hom");
}

} // namespace pipesim

// Builds a platform model into SimGrid as one Full zone, and writes the same platform as SimGrid 4.1 XML.
#include "platforms/simgrid/simgrid_platform.hpp"

#include "base/input_error.hpp"
#include "base/markup_escape.hpp"
#include "platforms/simgrid/simgrid_profiles.hpp"

#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

namespace sg4 = simgrid::s4u;

namespace pipesim {

namespace {

/// A SimGrid host of the model. `send`/`recv` are its node indices as source/destination of a link: they differ only
/// for the io host that is both P_in (sends) and P_out (receives).
struct HostNode {
  std::string name;
  int send;
  int recv;
  const Processor* processor; // nullptr for io hosts
};

std::vector<HostNode> host_nodes(const Platform& platform)
{
  std::vector<HostNode> nodes;
  for (int u = 0; u < platform.p(); ++u)
    nodes.push_back({platform.processor(u).name, u, u, &platform.processor(u)});
  if (platform.io_same_host())
    nodes.push_back({platform.in_name(), platform.in(), platform.out(), nullptr});
  else {
    nodes.push_back({platform.in_name(), platform.in(), platform.in(), nullptr});
    nodes.push_back({platform.out_name(), platform.out(), platform.out(), nullptr});
  }
  return nodes;
}

std::string number(double x) { return fmt::format("{:.17g}", x); }

/// Host properties that differ from the defaults (f = 0, unbounded cards, no MTBF).
std::vector<std::pair<std::string, std::string>> properties(const Processor& proc)
{
  std::vector<std::pair<std::string, std::string>> props;
  if (proc.failure_probability != 0) props.emplace_back("failure_probability", number(proc.failure_probability));
  if (std::isfinite(proc.nic_in)) props.emplace_back("nic_in", number(proc.nic_in));
  if (std::isfinite(proc.nic_out)) props.emplace_back("nic_out", number(proc.nic_out));
  if (std::isfinite(proc.mtbf)) props.emplace_back("mtbf", number(proc.mtbf));
  return props;
}

/// b_{u,v} of a link to create, or 0 when the pair has no route (unreachable, see platform_from_engine).
double link_bandwidth(const Platform& platform, const HostNode& src, const HostNode& dst)
{
  double b = platform.bandwidth(src.send, dst.recv);
  if (!std::isfinite(b) || b < 0)
    throw InputError::keyed(
        "platform.bandwidth", b,
        fmt::format("the link {} -> {}: SimGrid links need a finite bandwidth", src.name, dst.name));
  return b;
}

std::string link_name(const HostNode& src, const HostNode& dst) { return src.name + "->" + dst.name; }

/// The bandwidth profile (ratios of b_{u,v}) the scenario gives the link src -> dst, if any.
std::optional<Profile> pair_bandwidth(const Platform& platform, const HostNode& src, const HostNode& dst)
{
  for (const PairProfiles& pair : platform.profiles().pairs)
    if (pair.from == src.name && pair.to == dst.name) return pair.bandwidth;
  return std::nullopt;
}

} // namespace

void build_simgrid_platform(const Platform& platform, bool with_cards)
{
  auto* zone = sg4::create_full_zone("pipesim");
  auto nodes = host_nodes(platform);
  std::vector<sg4::Host*> hosts;
  std::vector<const sg4::Link*> card_in(nodes.size(), nullptr);
  std::vector<const sg4::Link*> card_out(nodes.size(), nullptr);
  // a link takes its bandwidth profile (absolute values: ratio x nominal) before it is sealed
  auto card_link = [&](const std::string& name, double bandwidth, const std::optional<Profile>& profile) {
    sg4::Link* link = zone->create_link(name, bandwidth);
    if (profile) link->set_bandwidth_profile(simgrid_profile("pipesim/bandwidth/" + name, *profile, bandwidth));
    return link;
  };
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Processor* proc        = nodes[i].processor;
    const HostProfiles* profiles = proc ? platform.profiles().host(proc->name) : nullptr;
    sg4::Host* host              = zone->create_host(nodes[i].name, proc ? proc->speed : 1.0);
    if (proc) {
      for (const auto& [key, value] : properties(*proc))
        host->set_property(key, value);
      if (with_cards && std::isfinite(proc->nic_in))
        card_in[i] = card_link(nodes[i].name + "_nic_in", proc->nic_in, profiles ? profiles->nic_in : std::nullopt);
      if (with_cards && std::isfinite(proc->nic_out))
        card_out[i] = card_link(nodes[i].name + "_nic_out", proc->nic_out, profiles ? profiles->nic_out : std::nullopt);
    }
    hosts.push_back(host->seal());
  }
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (std::size_t j = 0; j < nodes.size(); ++j) {
      if (i == j) continue;
      double b = link_bandwidth(platform, nodes[i], nodes[j]);
      if (b == 0) continue;
      const sg4::Link* link = card_link(link_name(nodes[i], nodes[j]), b, pair_bandwidth(platform, nodes[i], nodes[j]))
                                  ->set_latency(platform.latency(nodes[i].send, nodes[j].recv));
      std::vector<sg4::LinkInRoute> route;
      if (card_out[i]) route.emplace_back(card_out[i]);
      route.emplace_back(link);
      if (card_in[j]) route.emplace_back(card_in[j]);
      zone->add_route(hosts[i]->get_netpoint(), hosts[j]->get_netpoint(), nullptr, nullptr, route, false);
    }
  zone->seal();
}

std::string export_xml(const Platform& platform, const std::string& profile_prefix)
{
  auto nodes    = host_nodes(platform);
  auto profiles = exported_profiles(platform, profile_prefix);
  auto files    = [&](const std::string& element) { // the profile attributes of a host or link
    std::string attributes;
    for (const auto& e : profiles)
      if (e.element == element)
        attributes += fmt::format(" {}=\"{}\"", e.attribute, escape_markup(e.file, Markup::xml));
    return attributes;
  };
  std::string xml = "<?xml version='1.0'?>\n"
                    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                    "<!-- Written by pipesim. One link per ordered pair of hosts (b_{u,v}, c_{u,v}); network-card\n"
                    "     capacities nic_in/nic_out, failure probabilities and MTBFs are host properties. -->\n"
                    "<platform version=\"4.1\">\n"
                    "  <zone id=\"pipesim\" routing=\"Full\">\n";
  for (const auto& node : nodes) {
    double speed = node.processor ? node.processor->speed : 1.0;
    auto props   = node.processor ? properties(*node.processor) : decltype(properties(Processor{})){};
    xml += fmt::format("    <host id=\"{}\" speed=\"{}f\"{}{}>\n", escape_markup(node.name, Markup::xml), number(speed),
                       node.processor ? files(node.name) : "", props.empty() ? "/" : "");
    for (const auto& [key, value] : props)
      xml += fmt::format("      <prop id=\"{}\" value=\"{}\"/>\n", key, value);
    if (!props.empty()) xml += "    </host>\n";
  }
  std::string routes;
  for (const auto& src : nodes)
    for (const auto& dst : nodes) {
      if (&src == &dst) continue;
      double b = link_bandwidth(platform, src, dst);
      if (b == 0) continue;
      std::string id = escape_markup(link_name(src, dst), Markup::xml);
      xml += fmt::format("    <link id=\"{}\" bandwidth=\"{}Bps\" latency=\"{}s\"{}/>\n", id, number(b),
                         number(platform.latency(src.send, dst.recv)), files(link_name(src, dst)));
      routes += fmt::format("    <route src=\"{}\" dst=\"{}\" symmetrical=\"NO\"><link_ctn id=\"{}\"/></route>\n",
                            escape_markup(src.name, Markup::xml), escape_markup(dst.name, Markup::xml), id);
    }
  xml += routes;
  xml += "  </zone>\n</platform>\n";
  return xml;
}

} // namespace pipesim

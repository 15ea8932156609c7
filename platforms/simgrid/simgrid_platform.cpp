// Reads the model of the SimGrid platform loaded in this process (simgrid_load.cpp loads an XML file in a child).
#include "platforms/simgrid/simgrid_platform.hpp"

#include "base/input_error.hpp"
#include "base/units.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <fnmatch.h>
#include <set>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

namespace sg4 = simgrid::s4u;

namespace pipesim {

bool natural_less(const std::string& a, const std::string& b)
{
  auto digit    = [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; };
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t i_end = i;
      std::size_t j_end = j;
      while (i_end < a.size() && digit(a[i_end]))
        ++i_end;
      while (j_end < b.size() && digit(b[j_end]))
        ++j_end;
      // Compare the numbers without their leading zeros: longer is larger, same length compares by digits.
      std::size_t i_sig = std::min(a.find_first_not_of('0', i), i_end);
      std::size_t j_sig = std::min(b.find_first_not_of('0', j), j_end);
      if (i_end - i_sig != j_end - j_sig) return i_end - i_sig < j_end - j_sig;
      if (int c = a.compare(i_sig, i_end - i_sig, b, j_sig, j_end - j_sig); c != 0) return c < 0;
      i = i_end;
      j = j_end;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  if (i < a.size() || j < b.size()) return j < b.size(); // the shorter remainder (a prefix) comes first
  return a < b;
}

sg4::Engine* start_engine(const std::vector<std::string>& args)
{
  // SimGrid keeps pointers into argv and edits it in place (it removes the --cfg/--log options): keep it alive.
  static std::vector<std::string> storage;
  static std::vector<char*> argv;
  storage = {"pipesim", "--log=root.thresh:warning"};
  storage.insert(storage.end(), args.begin(), args.end());
  argv.clear();
  for (auto& arg : storage)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(storage.size());
  return new sg4::Engine(&argc, argv.data()); // never deleted: the process ends with _exit
}

namespace {

constexpr std::size_t large_platform_hosts = 1000; // beyond: a note that selecting hosts loads faster

std::string host_names(const std::vector<sg4::Host*>& hosts)
{
  constexpr std::size_t shown = 20;
  std::string list;
  for (std::size_t i = 0; i < hosts.size() && i < shown; ++i)
    list += (i == 0 ? "" : ", ") + hosts[i]->get_name();
  if (hosts.size() > shown) list += fmt::format(", ... ({} hosts)", hosts.size());
  return list;
}

enum class PropertyKind { probability, bandwidth, duration };

/// Reads one optional host property; nullopt when absent.
std::optional<double> host_property(const std::string& file, const sg4::Host* host, const char* key, PropertyKind kind)
{
  const char* text = host->get_property(key);
  if (text == nullptr) return std::nullopt;
  std::optional<double> value;
  const char* expected = "";
  switch (kind) {
  case PropertyKind::probability:
    value    = parse_number_text(text);
    expected = "a probability in [0, 1)";
    if (value && !(*value >= 0 && *value < 1)) value.reset();
    break;
  case PropertyKind::bandwidth:
    value    = parse_bandwidth_text(text);
    expected = "a positive bandwidth in bytes/s (e.g. 1e8 or 100MBps)";
    break;
  case PropertyKind::duration:
    value    = parse_duration_text(text);
    expected = "a positive duration in seconds (e.g. 3600 or 1h)";
    break;
  }
  if (value && kind != PropertyKind::probability && !(*value > 0)) value.reset();
  if (!value)
    throw InputError::in_file(
        file, 0,
        fmt::format("host '{}': property '{}': value '{}': expected {}", host->get_name(), key, text, expected));
  return value;
}

Processor read_processor(const std::string& file, const sg4::Host* host)
{
  Processor proc;
  proc.name  = host->get_name();
  proc.speed = host->get_speed();
  if (auto f = host_property(file, host, "failure_probability", PropertyKind::probability))
    proc.failure_probability = *f;
  if (auto b = host_property(file, host, "nic_in", PropertyKind::bandwidth)) proc.nic_in = *b;
  if (auto b = host_property(file, host, "nic_out", PropertyKind::bandwidth)) proc.nic_out = *b;
  if (auto m = host_property(file, host, "mtbf", PropertyKind::duration)) proc.mtbf = *m;
  return proc;
}

/// The links of the route src -> dst and its latency; empty when SimGrid has no route (an empty route, or an
/// exception: sites of a grid without a zoneRoute between them).
std::vector<sg4::Link*> route_links(const sg4::Host* src, const sg4::Host* dst, double* latency)
{
  std::vector<sg4::Link*> links;
  *latency = 0; // route_to appends to the vector and adds to the latency: start from empty and 0
  try {
    src->route_to(dst, links, latency);
  } catch (const std::exception&) {
    links.clear();
  }
  return links;
}

/// b and c of the route src -> dst; b = 0 (unreachable) without a route or when a link of the route is down from
/// the start.
std::pair<double, double> route_values(const sg4::Host* src, const sg4::Host* dst,
                                       const std::set<const sg4::Link*>& failed)
{
  double latency = 0;
  auto links     = route_links(src, dst, &latency);
  if (links.empty()) return {0.0, 0.0};
  double bandwidth = unbounded;
  for (const auto* link : links) {
    if (failed.contains(link)) return {0.0, 0.0};
    bandwidth = std::min(bandwidth, link->get_bandwidth());
  }
  return {bandwidth, latency};
}

/// The zones of a host, innermost first.
std::vector<std::string> zones_of(const sg4::Host* host)
{
  // NetZone::get_parent() dereferences a null parent on the root zone in SimGrid 3.32: stop at the root
  const sg4::NetZone* root = sg4::Engine::get_instance()->get_netzone_root();
  std::vector<std::string> zones;
  for (const sg4::NetZone* z = host->get_englobing_zone(); z != nullptr; z = z == root ? nullptr : z->get_parent())
    zones.push_back(z->get_name());
  return zones;
}

/// The engine's links whose names match one of the edit's globs (every glob must match one).
std::vector<sg4::Link*> matching_links(const sg4::Engine& engine, const PlatformEdit& edit)
{
  std::vector<sg4::Link*> all = engine.get_all_links();
  std::erase_if(all, [](const sg4::Link* l) { return l->get_name() == "__loopback__"; });
  std::sort(all.begin(), all.end(),
            [](const sg4::Link* a, const sg4::Link* b) { return natural_less(a->get_name(), b->get_name()); });
  std::vector<sg4::Link*> match;
  for (const auto& glob : edit.links) {
    bool any = false;
    for (sg4::Link* link : all)
      if (::fnmatch(glob.c_str(), link->get_cname(), 0) == 0) {
        any = true;
        if (std::ranges::find(match, link) == match.end()) match.push_back(link);
      }
    if (!any) edit.fail(fmt::format("no link of the platform is named '{}'", glob));
  }
  return match;
}

/// The links of the routes a -> b and b -> a of a route edit.
std::vector<sg4::Link*> route_edit_links(const sg4::Engine& engine, const PlatformEdit& edit)
{
  auto host = [&](const std::string& name) {
    sg4::Host* h = engine.host_by_name_or_null(name);
    if (h == nullptr) edit.fail(fmt::format("host '{}' is not in the platform", name));
    return h;
  };
  sg4::Host* a = host(edit.route->first);
  sg4::Host* b = host(edit.route->second);
  std::vector<sg4::Link*> match;
  for (auto [src, dst] : {std::pair{a, b}, std::pair{b, a}}) {
    double latency = 0;
    for (sg4::Link* link : route_links(src, dst, &latency))
      if (std::ranges::find(match, link) == match.end()) match.push_back(link);
  }
  if (match.empty())
    edit.fail(fmt::format("SimGrid has no route between '{}' and '{}'", edit.route->first, edit.route->second));
  return match;
}

/// The link edits of a platform, applied to the engine's links as they come.
struct LinkEdits {
  std::vector<sg4::Link*> edited; // bandwidth or latency changed, in the order first edited
  std::vector<LinkFailure> failures;
  std::set<const sg4::Link*> down; // off from the start: the routes through them are unreachable

  void apply(const sg4::Engine& engine, const PlatformEdit& edit, AppliedEdit& record)
  {
    for (sg4::Link* link : edit.route ? route_edit_links(engine, edit) : matching_links(engine, edit)) {
      record.matched.push_back(link->get_name());
      if (edit.kind == PlatformEdit::Kind::fail_link) {
        failures.push_back({link->get_name(), edit.at});
        if (edit.at <= 0) down.insert(link); // a later failure changes nothing in the model: only the runs see it
        continue;
      }
      if (edit.kind == PlatformEdit::Kind::scale_bandwidth)
        link->set_bandwidth(link->get_bandwidth() * edit.value);
      else
        link->set_latency(link->get_latency() * edit.value);
      if (std::ranges::find(edited, link) == edited.end()) edited.push_back(link);
    }
  }
};

/// The engine's hosts in natural name order.
std::vector<sg4::Host*> sorted_hosts(const sg4::Engine& engine)
{
  std::vector<sg4::Host*> hosts = engine.get_all_hosts();
  std::sort(hosts.begin(), hosts.end(),
            [](const sg4::Host* a, const sg4::Host* b) { return natural_less(a->get_name(), b->get_name()); });
  return hosts;
}

/// The host named as P_in or P_out (`role`) by the scenario; InputError listing `hosts` when there is none.
sg4::Host* io_host(const sg4::Engine& engine, const std::string& file_label, const std::string& name, const char* role,
                   const std::vector<sg4::Host*>& hosts)
{
  sg4::Host* host = engine.host_by_name_or_null(name);
  if (host == nullptr)
    throw InputError::keyed(
        std::string_view(role).starts_with("P_in") ? "platform.io.in" : "platform.io.out", name,
        fmt::format("the host named as {} is not in the platform {} (hosts: {})", role, file_label, host_names(hosts)));
  return host;
}

/// A note when many processors make many routes to compute; InputError when no processor is left.
void check_processor_count(const std::string& file_label, const PlatformOptions& options, std::size_t processors,
                           const std::vector<sg4::Host*>& hosts)
{
  if (options.hosts.empty() && processors > large_platform_hosts)
    fmt::print(stderr,
               "pipesim: note: {}: {} processors, so {} routes to compute; select hosts with platform.hosts "
               "(docs/whatif.md) to load faster\n",
               file_label, processors, (processors + 2) * (processors + 1));
  if (processors == 0)
    throw InputError::keyed(options.hosts.empty() ? "platform.io" : "platform.hosts",
                            fmt::format("no host of {} left to act as a processor once P_in and P_out are set aside "
                                        "(hosts: {})",
                                        file_label, host_names(hosts)));
}

/// b_{u,v} and c_{u,v} of every pair of nodes from SimGrid's routes between their hosts (`node_hosts`, in node
/// order); routes through a link in `down` are unreachable.
void set_routes(Platform& platform, const std::vector<const sg4::Host*>& node_hosts,
                const std::set<const sg4::Link*>& down)
{
  for (int u = 0; u < platform.nodes(); ++u)
    for (int v = 0; v < platform.nodes(); ++v) {
      const sg4::Host* src = node_hosts[static_cast<std::size_t>(u)];
      const sg4::Host* dst = node_hosts[static_cast<std::size_t>(v)];
      if (u == v) continue;
      if (src == dst) { // P_in and P_out are one host
        platform.set_link(u, v, unbounded, 0.0);
        continue;
      }
      auto [b, c] = route_values(src, dst, down);
      platform.set_link(u, v, b, c);
    }
}

/// The link edits the platform records: the edited links' settings and the link failures.
void record_link_edits(Platform& platform, LinkEdits& links)
{
  std::vector<LinkSetting> settings;
  for (const auto* link : links.edited)
    settings.push_back({link->get_name(), link->get_bandwidth(), link->get_latency()});
  platform.set_link_settings(std::move(settings));
  platform.set_link_failures(std::move(links.failures));
}

} // namespace

Platform platform_from_engine(const std::string& file_label, const std::string& in_name, const std::string& out_name,
                              const PlatformOptions& options)
{
  auto* engine = sg4::Engine::get_instance();
  engine->seal_platform(); // Floyd and Dijkstra zones compute their routes here; sealing twice is harmless
  std::vector<sg4::Host*> hosts = sorted_hosts(*engine);
  bool same_io                  = in_name == out_name;
  sg4::Host* in_host            = io_host(*engine, file_label, in_name, same_io ? "P_in and P_out" : "P_in", hosts);
  sg4::Host* out_host           = io_host(*engine, file_label, out_name, "P_out", hosts);

  std::vector<const sg4::Host*> candidates; // every host but the io hosts, in natural order
  for (const auto* host : hosts)
    if (host != in_host && host != out_host) candidates.push_back(host);
  std::vector<std::string> names;
  for (const auto* h : candidates)
    names.push_back(h->get_name());
  LinkEdits links;
  EditedProcessors edited = select_and_edit(
      names, options, [&](int u) { return read_processor(file_label, candidates[static_cast<std::size_t>(u)]); },
      [&](int u) { return zones_of(candidates[static_cast<std::size_t>(u)]); },
      [&](const PlatformEdit& edit, AppliedEdit& record) { links.apply(*engine, edit, record); });
  check_processor_count(file_label, options, edited.processors.size(), hosts);
  std::vector<const sg4::Host*> node_hosts;
  for (int u : edited.origin)
    node_hosts.push_back(candidates[static_cast<std::size_t>(u)]);
  node_hosts.push_back(in_host);
  node_hosts.push_back(out_host);

  Platform platform(std::move(edited.processors), in_name, out_name);
  set_routes(platform, node_hosts, links.down);
  record_link_edits(platform, links);
  platform.set_applied_edits(std::move(edited.records));
  platform.set_xml_file(file_label);
  return platform;
}

} // namespace pipesim

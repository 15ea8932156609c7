// The profile files of an XML platform: found in the text, read for pipesim's model, and kept from SimGrid when it
// would mishandle them (latency_file).
#include "base/input_error.hpp"
#include "platforms/profile_file.hpp"
#include "platforms/simgrid/simgrid_profiles.hpp"
#include "platforms/simgrid/xml_precheck.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <sstream>
#include <unistd.h>

namespace sg4 = simgrid::s4u;
namespace fs  = std::filesystem;

namespace pipesim {

namespace {
/// An attribute's text with XML's predefined entities replaced (ids written by export_xml hold "-&gt;").
std::string unescape(std::string s)
{
  static const std::vector<std::pair<std::string, std::string>> entities{
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}};
  for (const auto& [entity, ch] : entities)
    for (std::size_t at = s.find(entity); at != std::string::npos; at = s.find(entity, at + ch.size()))
      s.replace(at, entity.size(), ch);
  return s;
}
} // namespace

std::vector<XmlProfileFile> scan_xml_profile_files(const std::string& xml_file, const std::string& text)
{
  static const std::vector<std::pair<std::string, std::vector<std::string>>> attributes{
      {"host", {"speed_file", "availability_file", "state_file"}},
      {"peer", {"speed_file", "availability_file", "state_file"}},
      {"link", {"bandwidth_file", "latency_file", "state_file"}}};
  std::vector<XmlProfileFile> found;
  for_each_xml_element(text, [&](const std::string& name, int line, std::string_view tag) {
    if (name == "trace" || name == "trace_connect")
      throw InputError::in_file(xml_file, line,
                                fmt::format("element <{}>: pipesim reads a platform's profiles from the speed_file, "
                                            "state_file, bandwidth_file and latency_file attributes; write the trace "
                                            "in a file and name it there",
                                            name));
    for (const auto& [element, names] : attributes) {
      if (element != name) continue;
      for (const auto& attribute : names)
        if (std::string file = xml_attribute(tag, attribute); !file.empty())
          found.push_back({name, unescape(xml_attribute(tag, "id")),
                           attribute == "availability_file" ? "speed_file" : attribute, unescape(file), line});
    }
  });
  return found;
}

namespace {

/// Where SimGrid 3.32 finds a profile file named in `xml_file`: from the current directory, then from the XML's.
std::string locate_profile(const std::string& xml_file, const XmlProfileFile& ref)
{
  auto error = [&](const std::string& why) {
    return InputError::in_file(xml_file, ref.line,
                               fmt::format("element <{} id=\"{}\">: attribute '{}': value '{}': {}", ref.element,
                                           ref.id, ref.attribute, ref.file, why));
  };
  if (fs::path(ref.file).is_absolute())
    throw error("SimGrid 3.32 does not find a profile file by an absolute path: give it relative to the XML file");
  std::error_code ec;
  for (const fs::path& dir : {fs::path("."), fs::path(xml_file).parent_path()})
    if (fs::path candidate = dir / ref.file; fs::is_regular_file(candidate, ec))
      return candidate.lexically_normal().string();
  throw error("file not found (looked in the current directory and in the XML file's)");
}

ProfileKind kind_of(const std::string& attribute)
{
  if (attribute == "speed_file") return ProfileKind::speed;
  if (attribute == "bandwidth_file") return ProfileKind::bandwidth;
  if (attribute == "latency_file") return ProfileKind::latency;
  return ProfileKind::state;
}

void attach_host(Platform& platform, PlatformProfiles& profiles, const std::string& xml_file, const XmlProfileFile& ref,
                 Profile profile)
{
  if (!platform.find(ref.id)) {
    if ((ref.id == platform.in_name() || ref.id == platform.out_name()) && ref.attribute == "state_file")
      throw InputError::in_file(xml_file, ref.line,
                                fmt::format("host '{}' (P_in/P_out) has a state_file: the io hosts are I/O servers "
                                            "outside the model and never fail (DESIGN.md §3.3)",
                                            ref.id));
    return; // not a processor of this model: SimGrid still runs the profile, nothing here uses it
  }
  auto it = std::ranges::find_if(profiles.hosts, [&](const HostProfiles& h) { return h.host == ref.id; });
  if (it == profiles.hosts.end()) {
    HostProfiles h;
    h.host = ref.id;
    it     = profiles.hosts.insert(profiles.hosts.end(), std::move(h));
  }
  if (ref.attribute == "speed_file") {
    it->speed          = std::move(profile);
    it->speed_from_xml = true;
  } else {
    it->state          = std::move(profile);
    it->state_from_xml = true;
  }
}

void attach_link(PlatformProfiles& profiles, const std::string& xml_file, const XmlProfileFile& ref, Profile profile)
{
  sg4::Link* link = sg4::Link::by_name_or_null(ref.id);
  if (link == nullptr) link = sg4::Link::by_name_or_null(ref.id + "_UP"); // SPLITDUPLEX: the profile is on both halves
  if (link == nullptr)
    throw InputError::in_file(xml_file, ref.line, fmt::format("link '{}' is not in the loaded platform", ref.id));
  auto it = std::ranges::find_if(profiles.links, [&](const LinkProfiles& l) { return l.link == ref.id; });
  if (it == profiles.links.end()) {
    LinkProfiles l;
    l.link      = ref.id;
    l.bandwidth = link->get_bandwidth();
    l.latency   = link->get_latency();
    it          = profiles.links.insert(profiles.links.end(), std::move(l));
  }
  (ref.attribute == "bandwidth_file" ? it->bandwidth_profile
   : ref.attribute == "latency_file" ? it->latency_profile
                                     : it->state_profile) = std::move(profile);
}

/// The routes between the model's nodes that cross a profiled link (or one half of a SPLITDUPLEX one).
std::vector<ProfiledRoute> profiled_routes(const Platform& platform, const std::set<std::string>& profiled)
{
  auto is_profiled = [&](const std::string& name) {
    if (profiled.contains(name)) return true;
    for (const char* half : {"_UP", "_DOWN"})
      if (name.ends_with(half) && profiled.contains(name.substr(0, name.size() - std::string(half).size())))
        return true;
    return false;
  };
  std::vector<ProfiledRoute> routes;
  for (int u = 0; u < platform.nodes(); ++u)
    for (int v = 0; v < platform.nodes(); ++v) {
      if (u == v || platform.node_name(u) == platform.node_name(v) || !platform.reachable(u, v)) continue;
      std::vector<sg4::Link*> links;
      double latency = 0;
      sg4::Host::by_name(platform.node_name(u))->route_to(sg4::Host::by_name(platform.node_name(v)), links, &latency);
      if (std::ranges::none_of(links, [&](const sg4::Link* l) { return is_profiled(l->get_name()); })) continue;
      ProfiledRoute route{u, v, {}};
      for (const sg4::Link* l : links)
        route.hops.push_back({l->get_name(), l->get_bandwidth(), l->get_latency()});
      routes.push_back(std::move(route));
    }
  return routes;
}

/// The XML text with every latency_file attribute's value emptied (SimGrid then sets no latency profile); lines and
/// everything else stay as they are.
std::string without_latency_files(std::string text)
{
  const std::string name = "latency_file";
  for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + name.size())) {
    std::size_t q = at + name.size();
    while (q < text.size() && (std::isspace(static_cast<unsigned char>(text[q])) != 0 || text[q] == '='))
      ++q;
    if (q >= text.size() || (text[q] != '"' && text[q] != '\'')) continue;
    if (std::size_t e = text.find(text[q], q + 1); e != std::string::npos) text.erase(q + 1, e - q - 1);
  }
  return text;
}

} // namespace

void attach_xml_profiles(Platform& platform, const std::string& xml_file, const std::string& text)
{
  auto refs = scan_xml_profile_files(xml_file, text);
  if (refs.empty()) return;
  PlatformProfiles profiles = platform.profiles();
  std::set<std::string> profiled_links;
  for (const auto& ref : refs) {
    Profile profile = read_profile_file(locate_profile(xml_file, ref), kind_of(ref.attribute));
    if (ref.element == "link") {
      attach_link(profiles, xml_file, ref, std::move(profile));
      profiled_links.insert(ref.id);
    } else {
      attach_host(platform, profiles, xml_file, ref, std::move(profile));
    }
  }
  if (!profiled_links.empty()) profiles.routes = profiled_routes(platform, profiled_links);
  platform.set_profiles(std::move(profiles));
}

void load_xml_for_run(const Platform& platform)
{
  sg4::Engine* engine     = sg4::Engine::get_instance();
  const std::string& file = platform.xml_file();
  bool latency_files      = std::ranges::any_of(platform.profiles().links,
                                                [](const LinkProfiles& l) { return l.latency_profile.has_value(); });
  if (!latency_files) {
    engine->load_platform(file);
    return;
  }
  std::ifstream in(file);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  text             = without_latency_files(text);
  std::string copy = (fs::temp_directory_path() / fmt::format("pipesim-{}-XXXXXX.xml", ::getpid())).string();
  int fd           = ::mkstemps(copy.data(), 4);
  if (fd < 0) throw InputError::in_file(file, 0, "cannot write a copy in the temporary directory");
  std::ofstream(copy) << text;
  ::close(fd);
  std::string dir = fs::absolute(fs::path(file)).parent_path().string();
  sg4::Engine::set_config("path:" + dir); // the copy's profile files, relative to the original's directory
  try {
    engine->load_platform(copy);
  } catch (...) {
    fs::remove(copy);
    throw;
  }
  fs::remove(copy);
}

} // namespace pipesim

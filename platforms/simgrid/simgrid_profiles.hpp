// Time-varying platforms in SimGrid 3.32 (DESIGN.md §3.11, docs/dynamic.md): the profiles of an XML platform read
// for pipesim's model, and the profiles of a run set in the engine the way SimGrid 3.32 can run them.
#pragma once

#include "platforms/platform.hpp"

#include <simgrid/forward.h>
#include <string>
#include <vector>

namespace pipesim {

/// A profile file named by an element of a SimGrid XML platform.
struct XmlProfileFile {
  std::string element;   // host, peer or link
  std::string id;        // the element's id
  std::string attribute; // speed_file, state_file, bandwidth_file or latency_file
  std::string file;      // as written
  int line = 0;
};

/// The profile files of an XML text (outside comments), in document order. <trace> and <trace_connect> are refused
/// (InputError naming the line): pipesim reads profiles for its model from the *_file attributes only.
std::vector<XmlProfileFile> scan_xml_profile_files(const std::string& xml_file, const std::string& text);

/// In the loading process, after platform_from_engine: reads the XML's profile files (looked up as SimGrid 3.32
/// does: from the current directory, then from the XML file's directory; an absolute path is refused, SimGrid does
/// not find it) into platform.profiles(): host speed and state profiles of the processors (ratios, 0/1), link
/// bandwidth, latency and state profiles (SimGrid's absolute values) with each link's own values, and the routes
/// between the platform's nodes that cross a profiled link. A state profile on an io host is an InputError (P_in and
/// P_out are outside the model and never fail).
void attach_xml_profiles(Platform& platform, const std::string& xml_file, const std::string& text);

/// In the simulating process, instead of Engine::load_platform: loads the platform's XML file. When it has
/// latency_file attributes, SimGrid loads a copy without them (written in the temporary directory, the XML's directory
/// added to SimGrid's search path for the other profile files): SimGrid 3.32 would change the links' latencies, which
/// can stop a transfer in its latency phase for ever (docs/semantics.md); install_profiles applies them instead.
void load_xml_for_run(const Platform& platform);

/// SimGrid profile of `profile` with every value multiplied by `scale` (the nominal value of a ratio profile, 1 for
/// absolute values), named `name` (SimGrid wants profile names unique).
simgrid::kernel::profile::Profile* simgrid_profile(const std::string& name, const Profile& profile, double scale);

/// In the simulating process, after the platform is built or loaded: the speed and state profiles that the scenario
/// gave to hosts (a host takes them after it is sealed), and every latency profile (of a model platform's pairs and
/// of an XML's links) as SimGrid's latency factor of each transfer: a transfer pays the latency of its route at the
/// date it starts, and no link's latency changes during the run. Throws InputError when a latency profile meets
/// --cfg=network/latency-factor (SimGrid takes a factor or a callback, not both).
void install_profiles(const Platform& platform);

/// A profile file of an exported platform: the XML element (host or link id) and attribute that name it, its name
/// and its text in SimGrid's format with SimGrid's values (speed ratios, 0/1 states, bandwidths in bytes/s and
/// latencies in s: a pair's ratios times b_{u,v}, c_{u,v}).
struct ExportedProfile {
  std::string element;
  std::string attribute;
  std::string file;
  std::string text;
};

/// The profile files of export_xml(platform, prefix), named `<prefix><n>.profile` in document order. InputError for
/// what one link per pair cannot hold: card profiles (the export has no card links) and the profiles of an XML
/// platform's links (a pair's bandwidth over time is then the smallest of its route's).
std::vector<ExportedProfile> exported_profiles(const Platform& platform, const std::string& prefix);

/// The platform has link bandwidth profiles (of pairs, cards or XML links).
bool has_bandwidth_profiles(const Platform& platform);

} // namespace pipesim

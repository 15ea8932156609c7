// A SimGrid XML platform described as SimGrid holds it, without choosing P_in and P_out: what `pipesim platform info
// FILE.xml` prints for a bare SimGrid platform (issue 31: it stopped on a missing host 'io').
#pragma once

#include "platforms/platform.hpp"

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace pipesim {

struct XmlPlatformDescription {
  struct Host {
    std::string name;
    double speed = 0; // flop/s per core, current pstate
    int cores    = 1;
    std::string zone; // its englobing zone
  };
  struct Zone {
    std::string name;
    std::string routing; // SimGrid's routing: Full, Floyd, Dijkstra, Cluster, Star, Vivaldi, Wifi, None
    int hosts = 0;       // hosts whose englobing zone it is
  };
  /// A range of values; `count` of them (0: min and max are meaningless).
  struct Range {
    long count = 0;
    double min = 0;
    double max = 0;
    void add(double x);
  };
  std::string file;
  std::vector<Host> hosts; // natural name order
  std::vector<Zone> zones; // depth first from the root
  Range link_bandwidth;    // over the platform's links (not SimGrid's own __loopback__), bytes/s
  Range link_latency;      // s
  /// Routes between the first `route_hosts` hosts (every host when there are at most max_described_routes_hosts):
  /// b = the smallest bandwidth on the route, c = the sum of its latencies; pairs without a route apart.
  int route_hosts = 0;
  Range route_bandwidth;
  Range route_latency;
  long unreachable = 0;
  /// br07 §2.2's class if every host were a processor: SpeedHom (every speed equal), LinkHom (every route's b
  /// equal, every pair routed).
  bool speed_hom = false;
  bool link_hom  = false;
  PlatformClass platform_class() const;
};

/// Routes are summarised over at most this many hosts (in natural order): 250,000 routes.
inline constexpr int max_described_route_hosts = 500;

/// Loads `file` in a child process and describes it (InputError as load_xml_platform: a missing file, a file SimGrid
/// cannot load). No host is taken as P_in or P_out.
XmlPlatformDescription describe_xml_platform(const std::string& file);

void to_json(nlohmann::json& j, const XmlPlatformDescription& d);
void from_json(const nlohmann::json& j, XmlPlatformDescription& d);

} // namespace pipesim

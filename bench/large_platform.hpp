// A large multi-zone SimGrid platform in the shape of Grid'5000 (issue 7's loading benchmark), generated at run time.
#pragma once

#include <string>
#include <vector>

namespace pipesim {

/// Eight sites (zones "ash", "birch", "cedar", "elm", "fir", "oak", "pine", "yew", routing Full), each with 2 to 5
/// `<cluster>` elements named "<site><k>" (hosts "<site><k>-<i>.<site>"), a cluster-to-cluster zoneRoute per pair of
/// clusters and a gateway zone; a Floyd backbone zone with one router per site and the io host "io" (P_in and
/// P_out); the top zone "grid" (Floyd) joins each site to the backbone by a zoneRoute, as SimGrid's g5k.xml does.
/// With `island`, the backbone links "pine" and "yew" to each other only: no route between them and the other six
/// sites nor the io host (SimGrid's Floyd route_to throws std::invalid_argument "No route from ...").
struct LargePlatformSpec {
  int hosts_per_site     = 320; // 8 x 320 = 2,560 hosts plus io
  int lead_cluster_hosts = 50;  // hosts of every site's first cluster (zone "<site>1"); the others share the rest
  bool island            = true;
};

/// The site names, in file order.
const std::vector<std::string>& large_platform_sites();

/// Hosts in the file, io included.
int large_platform_hosts(const LargePlatformSpec& spec);

/// The SimGrid 4.1 XML text. Cluster speeds, bandwidths and latencies vary by cluster and are fixed (no seed).
/// Throws std::invalid_argument unless 2 <= lead_cluster_hosts and hosts_per_site - lead_cluster_hosts >= 4.
std::string large_platform_xml(const LargePlatformSpec& spec);

/// Writes large_platform_xml(spec) to `path`; throws std::runtime_error when it cannot.
void write_large_platform(const std::string& path, const LargePlatformSpec& spec);

} // namespace pipesim

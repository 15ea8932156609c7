// Writes the Grid'5000-shaped platform of large_platform.hpp: sites of clusters, a backbone, and an island.
#include "bench/large_platform.hpp"

#include <array>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>
#include <utility>

namespace pipesim {

namespace {

constexpr std::array<int, 8> clusters_per_site = {2, 3, 4, 5, 2, 3, 4, 5};

// Backbone edges between site indices: a tree over ash..oak, and pine-yew, an island unless joined to the tree.
constexpr std::array<std::pair<int, int>, 6> tree_edges = {{{0, 1}, {1, 2}, {1, 3}, {2, 4}, {3, 5}, {6, 7}}};
constexpr std::pair<int, int> island_bridge             = {5, 6};

/// Hosts of cluster k (1-based) of a site with `count` clusters.
int cluster_hosts(const LargePlatformSpec& spec, int count, int k)
{
  if (k == 1) return spec.lead_cluster_hosts;
  int rest   = spec.hosts_per_site - spec.lead_cluster_hosts;
  int others = count - 1;
  return rest / others + (k - 2 < rest % others ? 1 : 0);
}

void write_site(std::string& xml, const LargePlatformSpec& spec, int s)
{
  const std::string& site = large_platform_sites()[static_cast<std::size_t>(s)];
  int count               = clusters_per_site[static_cast<std::size_t>(s)];
  auto router             = [&](int k) { return fmt::format("{0}{1}-{0}{1}_router.{0}", site, k); };
  xml += fmt::format("    <zone id=\"{}\" routing=\"Full\">\n", site);
  for (int k = 1; k <= count; ++k) {
    // Speeds 4..16 Gflop/s; odd clusters on 1 GbE, even ones on 10 GbE, as Grid'5000's generations differ.
    double speed_gf = 4 + (3 * s + 5 * k) % 13;
    bool fast       = k % 2 == 0;
    xml +=
        fmt::format("      <cluster id=\"{0}{1}\" prefix=\"{0}{1}-\" suffix=\".{0}\" radical=\"1-{2}\" speed=\"{3}Gf\" "
                    "bw=\"{4}\" lat=\"{5}\" bb_bw=\"{6}\" bb_lat=\"1.0E-4s\"/>\n",
                    site, k, cluster_hosts(spec, count, k), speed_gf, fast ? "1.25E9Bps" : "1.25E8Bps",
                    fast ? "5.0E-5s" : "1.0E-4s", fast ? "1.25E10Bps" : "1.25E9Bps");
    xml += fmt::format("      <link id=\"link_{}{}\" bandwidth=\"1.25E9Bps\" latency=\"1.0E-4s\"/>\n", site, k);
  }
  xml += fmt::format("      <zone id=\"gw_{0}\" routing=\"Full\">\n        <router id=\"gw-{0}\"/>\n      </zone>\n",
                     site);
  xml += fmt::format("      <link id=\"link_gw_{}\" bandwidth=\"1.25E9Bps\" latency=\"1.0E-4s\"/>\n", site);
  for (int a = 1; a <= count; ++a)
    for (int b = a + 1; b <= count; ++b)
      xml += fmt::format("      <zoneRoute src=\"{0}{1}\" dst=\"{0}{2}\" gw_src=\"{3}\" gw_dst=\"{4}\">\n"
                         "        <link_ctn id=\"link_{0}{1}\"/><link_ctn id=\"link_{0}{2}\"/>\n      </zoneRoute>\n",
                         site, a, b, router(a), router(b));
  for (int k = 1; k <= count; ++k)
    xml += fmt::format("      <zoneRoute src=\"{0}{1}\" dst=\"gw_{0}\" gw_src=\"{2}\" gw_dst=\"gw-{0}\">\n"
                       "        <link_ctn id=\"link_{0}{1}\"/>\n      </zoneRoute>\n",
                       site, k, router(k));
  xml += "    </zone>\n";
}

void write_backbone(std::string& xml, const LargePlatformSpec& spec)
{
  const auto& sites = large_platform_sites();
  xml += "    <zone id=\"backbone\" routing=\"Floyd\">\n      <host id=\"io\" speed=\"1Gf\"/>\n";
  for (const auto& site : sites)
    xml += fmt::format("      <router id=\"bb-{}\"/>\n", site);
  std::vector<std::pair<int, int>> edges(tree_edges.begin(), tree_edges.end());
  if (!spec.island) edges.push_back(island_bridge);
  xml += "      <link id=\"io_link\" bandwidth=\"1.25E9Bps\" latency=\"1.0E-4s\"/>\n";
  for (auto [a, b] : edges) // 2 to 7 ms, like links between French cities
    xml += fmt::format("      <link id=\"bb_{}_{}\" bandwidth=\"1.25E9Bps\" latency=\"{}E-3s\"/>\n",
                       sites[static_cast<std::size_t>(a)], sites[static_cast<std::size_t>(b)], 2 + (a + b) % 6);
  xml += "      <route src=\"io\" dst=\"bb-ash\"><link_ctn id=\"io_link\"/></route>\n";
  for (auto [a, b] : edges) {
    const auto& sa = sites[static_cast<std::size_t>(a)];
    const auto& sb = sites[static_cast<std::size_t>(b)];
    xml += fmt::format("      <route src=\"bb-{0}\" dst=\"bb-{1}\"><link_ctn id=\"bb_{0}_{1}\"/></route>\n", sa, sb);
  }
  xml += "    </zone>\n";
}

} // namespace

const std::vector<std::string>& large_platform_sites()
{
  static const std::vector<std::string> sites = {"ash", "birch", "cedar", "elm", "fir", "oak", "pine", "yew"};
  return sites;
}

int large_platform_hosts(const LargePlatformSpec& spec)
{
  return static_cast<int>(large_platform_sites().size()) * spec.hosts_per_site + 1;
}

std::string large_platform_xml(const LargePlatformSpec& spec)
{
  if (spec.lead_cluster_hosts < 2 || spec.hosts_per_site - spec.lead_cluster_hosts < 4)
    throw std::invalid_argument(fmt::format("large_platform_xml: hosts_per_site {} and lead_cluster_hosts {}: expected "
                                            "lead_cluster_hosts >= 2 and at least 4 more hosts per site",
                                            spec.hosts_per_site, spec.lead_cluster_hosts));
  std::string xml =
      "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<!-- Generated by pipesim bench/large_platform.cpp: Grid'5000-shaped sites, clusters, backbone. -->\n"
      "<platform version=\"4.1\">\n  <zone id=\"grid\" routing=\"Floyd\">\n";
  for (int s = 0; s < static_cast<int>(large_platform_sites().size()); ++s)
    write_site(xml, spec, s);
  write_backbone(xml, spec);
  for (const auto& site : large_platform_sites())
    xml += fmt::format("    <zoneRoute src=\"{0}\" dst=\"backbone\" gw_src=\"gw-{0}\" gw_dst=\"bb-{0}\">\n"
                       "      <link_ctn id=\"link_gw_{0}\"/>\n    </zoneRoute>\n",
                       site);
  xml += "  </zone>\n</platform>\n";
  return xml;
}

void write_large_platform(const std::string& path, const LargePlatformSpec& spec)
{
  std::ofstream out(path);
  out << large_platform_xml(spec);
  if (!out.flush()) throw std::runtime_error(fmt::format("{}: cannot write the platform", path));
}

} // namespace pipesim

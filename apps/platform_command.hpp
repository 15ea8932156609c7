// `pipesim platform info|export`.
#pragma once

#include "apps/cli_options.hpp"

#include <string>
#include <vector>

namespace pipesim {

struct PlatformInfoOptions {
  std::string file;
  std::string in_name;            // empty: "io", or none on a platform without that host (platform_info)
  std::string out_name;           // empty: as in_name
  std::vector<std::string> hosts; // --hosts items
  OutputFormat format = OutputFormat::table;
};
struct PlatformExportOptions {
  std::string scenario;
  std::string output;
};
/// `platform info` and `platform export`; the command runs whichever of the two was given.
Command add_platform_command(CLI::App& app);

/// Prints a platform (an XML file with its I/O hosts, or a scenario's platform) as a table or JSON. `hosts` selects
/// the processors of an XML file (`--hosts` items: a glob, "zone:NAME" or "regex:EXPR"); a scenario selects with
/// its own platform.hosts, so `hosts` with a scenario is an InputError. An XML file without `in_name` nor `out_name`
/// takes its host "io" as both, or, when it has none, is described as SimGrid holds it (hosts, zones, links, routes,
/// class if every host were a processor: describe_xml_platform) without a P_in or P_out.
int platform_info(const std::string& file, const std::string& in_name, const std::string& out_name, OutputFormat format,
                  const std::vector<std::string>& hosts = {});
/// Writes a scenario's platform as SimGrid XML.
int platform_export(const std::string& scenario_file, const std::string& output);

} // namespace pipesim

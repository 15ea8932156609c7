// `pipesim platform info|export`.
#pragma once

#include "apps/cli_enums.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// Prints a platform (an XML file with its I/O hosts, or a scenario's platform) as a table or JSON. `hosts` selects
/// the processors of an XML file (`--hosts` items: a glob, "zone:NAME" or "regex:EXPR"); a scenario selects with
/// its own platform.hosts, so `hosts` with a scenario is an InputError.
int platform_info(const std::string& file, const std::string& in_name, const std::string& out_name, OutputFormat format,
                  const std::vector<std::string>& hosts = {});
/// Writes a scenario's platform as SimGrid XML.
int platform_export(const std::string& scenario_file, const std::string& output);

} // namespace pipesim

// `pipesim platform info|export`.
#pragma once

#include <string>

namespace pipesim {

/// Prints a platform (an XML file with its I/O hosts, or a scenario's platform) as a table or JSON.
int platform_info(const std::string& file, const std::string& in_name, const std::string& out_name,
                  const std::string& format);
/// Writes a scenario's platform as SimGrid XML.
int platform_export(const std::string& scenario_file, const std::string& output);

} // namespace pipesim

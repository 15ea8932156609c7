// Checks of a SimGrid platform XML text that pipesim makes before SimGrid reads it: SimGrid 3.32 aborts (xbt_die, no
// exception) on some bad values, which would only surface as "the loading process died" without a line or value.
#pragma once

#include <string>

namespace pipesim {

/// Throws InputError "file:line: attribute 'routing': value 'X': expected one of: ..." for a `routing` attribute
/// (outside comments) whose value is not one of SimGrid 3.32's routings (Cluster, Dijkstra, DijkstraCache, Floyd, Full,
/// None, Vivaldi, Wifi): SimGrid dies on those ("Not a valid model!"). Everything else is left to SimGrid's parser.
/// Complexity: O(size of the text).
void precheck_platform_xml(const std::string& file, const std::string& text);

} // namespace pipesim

// Checks of a SimGrid platform XML text that pipesim makes before SimGrid reads it: SimGrid 3.32 aborts (xbt_die, no
// exception) on some bad values, which would only surface as "the loading process died" without a line or value.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace pipesim {

/// Throws InputError "file:line: attribute 'A': value 'V': expected ..." for an attribute (outside comments) that
/// SimGrid 3.32 would abort on or take as it is:
/// - `routing` not one of SimGrid 3.32's routings (Cluster, Dijkstra, DijkstraCache, Floyd, Full, None, Vivaldi,
///   Wifi): SimGrid dies on those ("Not a valid model!");
/// - a rate (`speed`, `bandwidth`, `bw`, `bb_bw`, `loopback_bw`, `limiter_link`, `bw_in`, `bw_out`; each value of a
///   comma-separated list) whose number is not finite and > 0: SimGrid aborts a run on a speed of 0 or inf and takes
///   a negative speed;
/// - a latency (`latency`, `lat`, `bb_lat`, `loopback_lat`) whose number is not finite and >= 0.
/// - elements SimGrid's parser takes but 3.32 then crashes or aborts on: a <platform> without a <zone>, <AS> or
///   <cluster> in it (no root zone), <include> (removed in 3.18), a <peer> outside a zone with routing Vivaldi, a
///   <cabinet> directly in <platform>.
/// A value that is not a number is left to SimGrid's parser, which names its line. Complexity: O(size of the text).
void precheck_platform_xml(const std::string& file, const std::string& text);

/// Calls `visit(name, line, tag)` for every element of the text outside comments, declarations and processing
/// instructions, in document order; `tag` is the text of its start tag. O(size of the text).
using XmlElementVisitor = std::function<void(const std::string& name, int line, std::string_view tag)>;
void for_each_xml_element(const std::string& text, const XmlElementVisitor& visit);
/// The value of attribute `name` in a start tag's text, or "" when it has none.
std::string xml_attribute(std::string_view tag, std::string_view name);

} // namespace pipesim

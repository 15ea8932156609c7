// Checks of a SimGrid platform XML text that pipesim makes before SimGrid reads it: SimGrid 3.32 aborts (xbt_die, no
// exception) on some bad values, which would only surface as "the loading process died" without a line or value.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

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

/// A state profile of the XML text: SimGrid turns the host or link on and off by it (DESIGN.md §3.5, §3.11).
struct XmlStateProfile {
  std::string element;       // where it is given: "host", "link", "peer" (attribute state_file), or "trace_connect"
  std::string id;            // the host or link it turns on and off
  std::string profile;       // the state_file, or the <trace> of a trace_connect
  bool link         = false; // a link's state (else a host's)
  int line          = 0;
  std::size_t begin = 0, end = 0; // the text that gives it: the attribute, or the whole <trace_connect .../>
};

/// The state profiles of a SimGrid XML text, in document order: every state_file attribute (outside comments) and
/// every <trace_connect> of kind HOST_AVAIL (SimGrid's default kind) or LINK_AVAIL. Complexity: O(size of the text).
std::vector<XmlStateProfile> xml_state_profiles(const std::string& text);
/// The text without them, every other character (newlines included: same line numbers) where it was.
std::string without_state_profiles(const std::string& text, const std::vector<XmlStateProfile>& profiles);

} // namespace pipesim

// Pre-checks of SimGrid XML platforms: values SimGrid 3.32 aborts on (an unknown routing, found by fuzz/fuzz_xml.cpp;
// a speed of 0) or takes without a word (a negative speed, bandwidth or latency, nan, inf), and elements it crashes
// or aborts on (a platform without a zone, also found by the fuzzer; <include>, a misplaced <peer> or <cabinet>).
#include "platforms/simgrid/xml_precheck.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace pipesim {

namespace {

constexpr std::array<std::string_view, 8> routings{"Cluster", "Dijkstra", "DijkstraCache", "Floyd",
                                                   "Full",    "None",     "Vivaldi",       "Wifi"};

/// Attributes holding rates (flop/s, bytes/s): each comma-separated value must be finite and > 0.
constexpr std::array<std::string_view, 8> rate_attributes{"speed",       "bandwidth",    "bw",    "bb_bw",
                                                          "loopback_bw", "limiter_link", "bw_in", "bw_out"};
/// Attributes holding latencies (s): finite and >= 0.
constexpr std::array<std::string_view, 4> latency_attributes{"latency", "lat", "bb_lat", "loopback_lat"};

int line_at(const std::string& text, std::size_t pos)
{
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

/// The quoted value of the attribute whose name ends at `pos` (spaces, '=', spaces, quote), or npos.
std::size_t value_start(const std::string& text, std::size_t pos)
{
  auto skip = [&] {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  };
  skip();
  if (pos >= text.size() || text[pos] != '=') return std::string::npos;
  ++pos;
  skip();
  if (pos >= text.size() || (text[pos] != '"' && text[pos] != '\'')) return std::string::npos;
  return pos;
}

bool is_name_char(char c)
{
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == ':' || c == '.';
}

/// Where the comment, processing instruction, CDATA section or declaration at `pos` ends (as SimGrid's parser reads
/// it: a processing instruction runs to "?>", whatever '>' it holds), npos if it does not; `pos` itself if there is
/// none at `pos`.
std::size_t markup_end(const std::string& text, std::size_t pos)
{
  if (text.compare(pos, 4, "<!--") == 0) return text.find("-->", pos + 4);
  if (text.compare(pos, 2, "<?") == 0) return text.find("?>", pos + 2);
  if (text.compare(pos, 9, "<![CDATA[") == 0) return text.find("]]>", pos + 9);
  if (text.compare(pos, 2, "<!") == 0) return text.find('>', pos + 2);
  return pos;
}

using AttributeCheck = std::function<void(std::string_view name, const std::string& value, int line)>;

/// Calls `check` with every attribute (outside comments, declarations, processing instructions and CDATA sections,
/// which may say anything) of the text whose value is quoted and terminated; an unterminated value or markup stops
/// the scan (SimGrid's parser reports it).
void for_each_attribute(const std::string& text, const AttributeCheck& check)
{
  for (std::size_t pos = 0; pos < text.size();) {
    if (const std::size_t end = markup_end(text, pos); end != pos) {
      if (end == std::string::npos) return;
      pos = end;
      continue;
    }
    if (!is_name_char(text[pos]) || (pos > 0 && !std::isspace(static_cast<unsigned char>(text[pos - 1])))) {
      ++pos;
      continue;
    }
    std::size_t end = pos;
    while (end < text.size() && is_name_char(text[end]))
      ++end;
    const std::size_t quote = value_start(text, end);
    if (quote == std::string::npos) {
      pos = end;
      continue;
    }
    const std::size_t close = text.find(text[quote], quote + 1);
    if (close == std::string::npos) return;
    check(std::string_view(text).substr(pos, end - pos), text.substr(quote + 1, close - quote - 1),
          line_at(text, quote));
    pos = close + 1;
  }
}

/// Each comma-separated entry of a numeric attribute whose number SimGrid would read (its units only multiply by a
/// positive factor, so the sign, zero, nan and inf are the number's): InputError when outside the attribute's range.
void check_numbers(const std::string& file, std::string_view name, const std::string& value, int line, bool rate)
{
  for (std::size_t start = 0; start <= value.size();) {
    std::size_t comma = std::min(value.find(',', start), value.size());
    std::string entry = value.substr(start, comma - start);
    start             = comma + 1;
    const char* begin = entry.c_str();
    char* end         = nullptr;
    double v          = std::strtod(begin, &end);
    if (end == begin) continue; // not a number: SimGrid's parser reports it with its line
    if (std::isfinite(v) && (rate ? v > 0 : v >= 0)) continue;
    throw InputError::in_file(file, line,
                              fmt::format("attribute '{}': value '{}': expected a finite number {} (before its unit)",
                                          name, value, rate ? "> 0" : ">= 0"));
  }
}

/// An element of the text: its name, line, parent (index, -1 for a root) and `routing` attribute.
struct Element {
  std::string name;
  int line   = 1;
  int parent = -1;
  std::string routing;
  std::size_t begin = 0; // the start tag in the text: [begin, end)
  std::size_t end   = 0;
};

/// The value of attribute `name` in the tag text, or "".
std::string attribute(std::string_view tag, std::string_view name)
{
  for (std::size_t at = tag.find(name); at != std::string_view::npos; at = tag.find(name, at + 1)) {
    if (at == 0 || !std::isspace(static_cast<unsigned char>(tag[at - 1]))) continue;
    const std::string text(tag);
    const std::size_t quote = value_start(text, at + name.size());
    if (quote == std::string::npos) continue;
    const std::size_t close = text.find(text[quote], quote + 1);
    return close == std::string::npos ? "" : text.substr(quote + 1, close - quote - 1);
  }
  return "";
}

/// The elements of the text (comments, declarations and processing instructions left out), in document order, and
/// whether the scan stopped at an unterminated tag or comment (SimGrid's parser reports it). O(size of the text).
struct Elements {
  std::vector<Element> list;
  bool truncated = false;
};

Elements elements(const std::string& text)
{
  Elements found;
  std::vector<Element>& out = found.list;
  std::vector<int> open;
  int line                = 1;
  std::size_t lines_up_to = 0;
  for (std::size_t pos = text.find('<'); pos != std::string::npos; pos = text.find('<', pos)) {
    if (const std::size_t end = markup_end(text, pos); end != pos) {
      if (end == std::string::npos) return {out, true};
      pos = end;
      continue;
    }
    if (text.compare(pos, 2, "</") == 0) {
      if (!open.empty()) open.pop_back();
      pos += 2;
      continue;
    }
    std::size_t end = pos + 1;
    while (end < text.size() && is_name_char(text[end]))
      ++end;
    Element e{text.substr(pos + 1, end - pos - 1), 0, open.empty() ? -1 : open.back(), "", pos, 0};
    for (char quote = 0; end < text.size() && (quote != 0 || text[end] != '>'); ++end)
      if (quote != 0 ? text[end] == quote : (text[end] == '"' || text[end] == '\'')) quote = quote != 0 ? 0 : text[end];
    if (end >= text.size()) return {out, true};
    line += static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(lines_up_to),
                                        text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
    lines_up_to = pos;
    e.line      = line;
    e.routing   = attribute(std::string_view(text).substr(pos, end - pos), "routing");
    e.end       = end;
    out.push_back(std::move(e));
    if (text[end - 1] != '/') open.push_back(static_cast<int>(out.size()) - 1);
    pos = end + 1;
  }
  return found;
}

bool is_zone(const std::string& name) { return name == "zone" || name == "AS"; }

/// Elements SimGrid 3.32's parser accepts but then crashes or aborts on (found by fuzz/fuzz_xml.cpp: a <platform>
/// without a zone, whose root zone SimGrid then seals through a null pointer).
void check_structure(const std::string& file, const std::string& text)
{
  const auto [els, truncated] = elements(text);
  if (els.empty() && !truncated) // only comments: SimGrid 3.32 crashes on that too
    throw InputError::in_file(file, 1, "no <platform> element: this is not a SimGrid platform file");
  if (els.empty() || els.front().name != "platform") return; // SimGrid's parser says what is wrong
  bool root_zone = false;
  for (const Element& e : els) {
    const Element* parent = e.parent < 0 ? nullptr : &els[static_cast<std::size_t>(e.parent)];
    auto refuse           = [&](const std::string& why) {
      throw InputError::in_file(file, e.line, fmt::format("element <{}>: {}", e.name, why));
    };
    if (e.name == "include") refuse("removed in SimGrid 3.18 (3.32 aborts on it); copy the included zones in");
    if (e.name == "peer" && (parent == nullptr || !is_zone(parent->name) || parent->routing != "Vivaldi"))
      refuse("only inside a <zone routing=\"Vivaldi\"> (SimGrid 3.32 aborts otherwise)");
    if (e.parent != 0) continue;
    root_zone = root_zone || is_zone(e.name) || e.name == "cluster";
    if (e.name == "cabinet") refuse("directly in <platform>: put it in a <zone> (SimGrid 3.32 crashes otherwise)");
  }
  if (!root_zone)
    throw InputError::in_file(file, els.front().line,
                              "element <platform>: no <zone> (or <cluster>) in it: SimGrid 3.32 needs a root zone, "
                              "e.g. <zone id=\"world\" routing=\"Full\">, and crashes without one");
}

} // namespace

void for_each_xml_element(const std::string& text, const XmlElementVisitor& visit)
{
  for (const Element& e : elements(text).list)
    visit(e.name, e.line, std::string_view(text).substr(e.begin, e.end - e.begin));
}

std::string xml_attribute(std::string_view tag, std::string_view name) { return attribute(tag, name); }

void precheck_platform_xml(const std::string& file, const std::string& text)
{
  check_structure(file, text);
  for_each_attribute(text, [&](std::string_view name, const std::string& value, int line) {
    if (name == "routing" && std::find(routings.begin(), routings.end(), value) == routings.end())
      throw InputError::in_file(
          file, line,
          fmt::format("attribute 'routing': value '{}': expected one of: {}", value, fmt::join(routings, ", ")));
    if (std::find(rate_attributes.begin(), rate_attributes.end(), name) != rate_attributes.end())
      check_numbers(file, name, value, line, true);
    if (std::find(latency_attributes.begin(), latency_attributes.end(), name) != latency_attributes.end())
      check_numbers(file, name, value, line, false);
  });
}

} // namespace pipesim

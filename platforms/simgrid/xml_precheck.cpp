// Pre-checks of SimGrid XML platforms (found by fuzz/fuzz_xml.cpp: SimGrid aborts on an unknown routing).
#include "platforms/simgrid/xml_precheck.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <string_view>

namespace pipesim {

namespace {

constexpr std::array<std::string_view, 8> routings{"Cluster", "Dijkstra", "DijkstraCache", "Floyd",
                                                   "Full",    "None",     "Vivaldi",       "Wifi"};

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

} // namespace

void precheck_platform_xml(const std::string& file, const std::string& text)
{
  const std::string name = "routing";
  for (std::size_t pos = 0; (pos = text.find_first_of("<r", pos)) != std::string::npos;) {
    if (text.compare(pos, 4, "<!--") == 0) { // comments may say anything
      pos = text.find("-->", pos + 4);
      if (pos == std::string::npos) return;
      continue;
    }
    const bool attribute =
        text.compare(pos, name.size(), name) == 0 && pos > 0 && std::isspace(static_cast<unsigned char>(text[pos - 1]));
    pos += attribute ? name.size() : 1;
    if (!attribute) continue;
    const std::size_t quote = value_start(text, pos);
    if (quote == std::string::npos) continue;
    const std::size_t end = text.find(text[quote], quote + 1);
    if (end == std::string::npos) return; // SimGrid's parser reports the unterminated value
    const std::string value = text.substr(quote + 1, end - quote - 1);
    if (std::find(routings.begin(), routings.end(), value) == routings.end())
      throw InputError(located(
          file, line_at(text, quote),
          fmt::format("attribute 'routing': value '{}': expected one of: {}", value, fmt::join(routings, ", "))));
    pos = end + 1;
  }
}

} // namespace pipesim

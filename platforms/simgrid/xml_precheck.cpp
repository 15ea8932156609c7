// Pre-checks of SimGrid XML platforms: values SimGrid 3.32 aborts on (an unknown routing, found by fuzz/fuzz_xml.cpp;
// a speed of 0) or takes without a word (a negative speed, bandwidth or latency, nan, inf).
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

using AttributeCheck = std::function<void(std::string_view name, const std::string& value, int line)>;

/// Calls `check` with every attribute (outside comments) of the text whose value is quoted and terminated; an
/// unterminated value stops the scan (SimGrid's parser reports it).
void for_each_attribute(const std::string& text, const AttributeCheck& check)
{
  for (std::size_t pos = 0; pos < text.size();) {
    if (text.compare(pos, 4, "<!--") == 0) { // comments may say anything
      pos = text.find("-->", pos + 4);
      if (pos == std::string::npos) return;
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
    throw InputError(located(file, line,
                             fmt::format("attribute '{}': value '{}': expected a finite number {} (before its unit)",
                                         name, value, rate ? "> 0" : ">= 0")));
  }
}

} // namespace

void precheck_platform_xml(const std::string& file, const std::string& text)
{
  for_each_attribute(text, [&](std::string_view name, const std::string& value, int line) {
    if (name == "routing" && std::find(routings.begin(), routings.end(), value) == routings.end())
      throw InputError(located(
          file, line,
          fmt::format("attribute 'routing': value '{}': expected one of: {}", value, fmt::join(routings, ", "))));
    if (std::find(rate_attributes.begin(), rate_attributes.end(), name) != rate_attributes.end())
      check_numbers(file, name, value, line, true);
    if (std::find(latency_attributes.begin(), latency_attributes.end(), name) != latency_attributes.end())
      check_numbers(file, name, value, line, false);
  });
}

} // namespace pipesim

// Unit parsing for platform-file properties, following SimGrid's unit names.
#include "base/units.hpp"

#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

namespace pipesim {

namespace {

/// Splits "12.5MBps" into 12.5 and "MBps"; nullopt when no number starts the text.
std::optional<std::pair<double, std::string>> split(const std::string& text)
{
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front()))) return std::nullopt;
  const char* begin = text.c_str();
  char* end         = nullptr;
  double value      = std::strtod(begin, &end);
  if (end == begin || std::isnan(value)) return std::nullopt;
  return std::make_pair(value, std::string(end));
}

std::optional<double> scaled(const std::string& text, const std::vector<std::pair<std::string, double>>& units)
{
  auto parts = split(text);
  if (!parts) return std::nullopt;
  for (const auto& [unit, factor] : units)
    if (parts->second == unit) return parts->first * factor;
  return std::nullopt;
}

std::vector<std::pair<std::string, double>> bandwidth_units()
{
  const std::vector<std::pair<std::string, double>> prefixes = {
      {"", 1.0},      {"k", 1e3},     {"M", 1e6},     {"G", 1e9},     {"T", 1e12},    {"P", 1e15},   {"E", 1e18},
      {"Ki", 1024.0}, {"Mi", 0x1p20}, {"Gi", 0x1p30}, {"Ti", 0x1p40}, {"Pi", 0x1p50}, {"Ei", 0x1p60}};
  std::vector<std::pair<std::string, double>> units = {{"", 1.0}};
  for (const auto& [prefix, factor] : prefixes) {
    units.emplace_back(prefix + "Bps", factor);
    units.emplace_back(prefix + "bps", factor / 8);
  }
  return units;
}

} // namespace

std::optional<double> parse_number_text(const std::string& text) { return scaled(text, {{"", 1.0}}); }

std::optional<double> parse_bandwidth_text(const std::string& text)
{
  static const auto units = bandwidth_units();
  return scaled(text, units);
}

std::optional<double> parse_duration_text(const std::string& text)
{
  static const std::vector<std::pair<std::string, double>> units = {
      {"", 1.0},    {"s", 1.0},  {"ps", 1e-12}, {"ns", 1e-9},   {"us", 1e-6},
      {"ms", 1e-3}, {"m", 60.0}, {"h", 3600.0}, {"d", 86400.0}, {"w", 604800.0}};
  return scaled(text, units);
}

} // namespace pipesim

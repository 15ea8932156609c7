// Memory and time limits of simulation processes (resource_limits.hpp).
#include "base/resource_limits.hpp"

#include "base/input_error.hpp"
#include "base/units.hpp"

#include <array>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <stdexcept>
#include <string_view>
#include <unistd.h>
#include <utility>

namespace pipesim {

namespace {

constexpr const char* memory_variable = "PIPESIM_MEMORY_LIMIT";
constexpr const char* time_variable   = "PIPESIM_TIME_LIMIT";

/// Bytes of "8GB", "512MiB", "1e9", "75%" (of the physical memory); nullopt when it is none of these.
std::optional<double> parse_memory(const std::string& text)
{
  if (text.ends_with('%')) {
    auto share = parse_number_text(text.substr(0, text.size() - 1));
    if (!share || !(*share > 0) || *share > 100 || physical_memory() <= 0) return std::nullopt;
    return *share / 100 * physical_memory();
  }
  constexpr std::array<std::pair<std::string_view, double>, 9> units{{{"KiB", 1024.0},
                                                                      {"MiB", 1048576.0},
                                                                      {"GiB", 1073741824.0},
                                                                      {"TiB", 1099511627776.0},
                                                                      {"kB", 1e3},
                                                                      {"MB", 1e6},
                                                                      {"GB", 1e9},
                                                                      {"TB", 1e12},
                                                                      {"B", 1}}};
  double factor      = 1;
  std::string number = text;
  for (const auto& [unit, f] : units)
    if (text.ends_with(unit)) {
      factor = f;
      number = text.substr(0, text.size() - unit.size());
      break;
    }
  auto value = parse_number_text(number);
  if (!value || !std::isfinite(*value) || !(*value > 0)) return std::nullopt;
  return *value * factor;
}

double from_environment(const char* variable, double fallback, std::optional<double> (*parse)(const std::string&),
                        const char* forms)
{
  const char* set = std::getenv(variable);
  if (set == nullptr || *set == '\0') return fallback;
  std::string text = set;
  if (text == "none") return 0;
  auto value = parse(text);
  if (!value || !std::isfinite(*value) || !(*value > 0))
    throw InputError::option(fmt::format("{}=", variable), text, fmt::format("expected {}, or none", forms));
  return *value;
}

std::optional<double> parse_seconds(const std::string& text) { return parse_duration_text(text); }

std::string bytes_text(double bytes)
{
  if (bytes >= 1e9) return fmt::format("{:.3g} GB", bytes / 1e9);
  return fmt::format("{:.3g} MB", bytes / 1e6);
}

} // namespace

double physical_memory()
{
  long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? static_cast<double>(pages) * static_cast<double>(size) : 0;
}

ResourceLimits simulation_limits()
{
  ResourceLimits limits;
  limits.memory  = from_environment(memory_variable, default_memory_share * physical_memory(), parse_memory,
                                    "bytes (a number, or with a unit: 8GB, 512MiB) or a share of the machine's memory "
                                     "(75%)");
  limits.seconds = from_environment(time_variable, default_time_limit, parse_seconds,
                                    "seconds (a number, or with a unit: 90m, 6h, 2d)");
  return limits;
}

PoolOptions limited(const ResourceLimits& limits)
{
  PoolOptions options;
  options.timeout      = limits.seconds;
  options.memory_limit = limits.memory;
  return options;
}

std::string limit_message(const JobOutcome& outcome, const ResourceLimits& limits, const std::string& what)
{
  if (outcome.status == JobStatus::out_of_memory)
    return fmt::format("{} stopped after {:.1f} s: its process {} (the memory limit is {}, {}; raise it with {}=..., "
                       "e.g. {}=80% or 32GB, or make the run smaller: fewer data sets, a smaller platform)",
                       what, outcome.seconds,
                       outcome.text.find("bad_alloc") != std::string::npos ? "could not allocate memory"
                                                                           : "used more memory than allowed",
                       bytes_text(limits.memory),
                       std::getenv(memory_variable) != nullptr
                           ? fmt::format("{}={}", memory_variable, std::getenv(memory_variable))
                           : "half of this machine's",
                       memory_variable, memory_variable);
  if (outcome.status == JobStatus::timed_out)
    return fmt::format("{} stopped after {:g} s, the time limit of a simulation process (raise it with {}=..., "
                       "e.g. {}=24h, or none)",
                       what, limits.seconds, time_variable, time_variable);
  return "";
}

std::string run_limited(const std::function<std::string()>& job, const std::string& what)
{
  const ResourceLimits limits = simulation_limits();
  JobOutcome o                = std::move(run_pool(1, limited(limits), [&](int) { return job(); }).front());
  if (o.status == JobStatus::bad_input) throw o.input_error();
  if (std::string why = limit_message(o, limits, what); !why.empty()) { // the variable of the limit it hit
    const bool memory    = o.status == JobStatus::out_of_memory;
    const char* variable = memory ? memory_variable : time_variable;
    const char* set      = std::getenv(variable);
    std::string value    = set != nullptr ? set
                           : memory       ? bytes_text(limits.memory) + " (default)"
                                          : fmt::format("{:g} (default)", limits.seconds);
    throw InputError::option(fmt::format("{}=", variable), value, "simulation: " + why);
  }
  if (!o.ok()) throw std::runtime_error(o.text);
  return std::move(o.text);
}

} // namespace pipesim

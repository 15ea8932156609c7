// Locations of bad-input messages.
#include "base/input_error.hpp"

#include <fmt/format.h>

namespace pipesim {

std::string located(const std::string& file, int line, const std::string& message)
{
  if (file.empty()) return message;
  if (line <= 0) return fmt::format("{}: {}", file, message);
  return fmt::format("{}:{}: {}", file, line, message);
}

} // namespace pipesim

// The project's error type for bad input (YAML, XML, CLI, impossible mappings): the CLI prints it and exits 2.
#pragma once

#include <stdexcept>
#include <string>

namespace pipesim {

/// Bad input. The message names the file, line, key and value, and what was expected
/// (e.g. "scenario.yaml:12: key 'speed': value '-3' must be a positive number").
class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Formats "file:line: message" (line omitted when 0, file omitted when empty).
std::string located(const std::string& file, int line, const std::string& message);

} // namespace pipesim

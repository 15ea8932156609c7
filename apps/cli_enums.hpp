// Closed sets of the command line: `--format`, and options whose value names an enumerator.
#pragma once

#include "base/enum_names.hpp"
#include "validation/evaluation/result_output.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace pipesim {

/// `--format`: what the commands print (the results' own format, validation/evaluation/result_output.hpp).
using OutputFormat = ResultFormat;

/// An option whose value names an enumerator of E: checked against the names, stored in `target` (an E or an
/// std::optional<E>) as the enum.
template <NamedEnum E, typename Target>
CLI::Option* add_enum_option(CLI::App* app, const std::string& name, Target& target, const std::string& help)
{
  return app
      ->add_option_function<std::string>(
          name, [&target](const std::string& text) { target = *from_string<E>(text); }, help)
      ->check(CLI::IsMember(enum_names<E>()));
}

} // namespace pipesim

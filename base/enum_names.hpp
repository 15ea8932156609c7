// Closed sets as enums whose names are written once, then used for parsing (input) and printing (output).
//
// Beside the enum, in its namespace (also for an enum declared inside a class), one line lists every enumerator in
// declaration order with the text that stands for it in files, tables and messages:
//
//   enum class CommModel { one_port, multi_port };
//   PIPESIM_ENUM_NAMES(CommModel, {one_port, "one-port"}, {multi_port, "multi-port"});
//
// Then to_string(CommModel::one_port) is "one-port", from_string<CommModel>("multi-port") is CommModel::multi_port,
// from_string<CommModel>("two-port") is empty (parse_enum<CommModel>("two-port", "model") throws an InputError),
// enum_names<CommModel>() is {"one-port", "multi-port"}, expected_names<CommModel>() is "expected one-port or
// multi-port", fmt::format("{}", CommModel::one_port) is "one-port", and gtest prints the name. A list that misses an
// enumerator in the middle, repeats or reorders one, or gives an empty or repeated name does not compile (a missing
// last enumerator cannot be detected: to_string gives "?").
#pragma once

#include "base/input_error.hpp"

#include <array>
#include <cstddef>
#include <fmt/format.h>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace pipesim {

/// One enumerator and its name.
template <typename E>
struct EnumName {
  E value;
  const char* name;
};

/// An enum whose names were declared with PIPESIM_ENUM_NAMES (found by argument-dependent lookup).
template <typename E>
concept NamedEnum = std::is_enum_v<E> && requires(E e)
{
  pipesim_enum_names(e);
};

namespace detail {
/// The enumerators are 0, 1, 2, ... in order, and the names non-empty and distinct.
template <typename E, std::size_t N>
constexpr bool enum_names_well_formed(const std::array<EnumName<E>, N>& names)
{
  for (std::size_t i = 0; i < N; ++i) {
    if (static_cast<std::size_t>(names[i].value) != i) return false;
    if (names[i].name == nullptr || std::string_view(names[i].name).empty()) return false;
    for (std::size_t k = 0; k < i; ++k)
      if (std::string_view(names[k].name) == names[i].name) return false;
  }
  return N > 0;
}
} // namespace detail

/// Declares the names of enum E; the enumerators are written unqualified. Use at namespace scope, in E's namespace
/// (the stream operator, which gtest uses to print values, must be found by argument-dependent lookup).
#define PIPESIM_ENUM_NAMES(E, ...)                                                                                     \
  constexpr auto pipesim_enum_names(E)                                                                                 \
  {                                                                                                                    \
    using enum E;                                                                                                      \
    return std::to_array<::pipesim::EnumName<E>>({__VA_ARGS__});                                                       \
  }                                                                                                                    \
  inline std::ostream& operator<<(std::ostream& out, E value) { return out << ::pipesim::to_string(value); }           \
  static_assert(::pipesim::detail::enum_names_well_formed(pipesim_enum_names(E{})),                                    \
                "PIPESIM_ENUM_NAMES(" #E ", ...): list every enumerator once, in declaration order, with distinct "    \
                "non-empty names")

/// The name of `value` ("?" for a value outside the enum).
template <NamedEnum E>
constexpr const char* to_string(E value)
{
  constexpr auto names = pipesim_enum_names(E{});
  auto i               = static_cast<std::size_t>(value);
  return i < names.size() ? names[i].name : "?";
}

/// The enumerator named `text` (exact, case-sensitive match), or nothing.
template <NamedEnum E>
constexpr std::optional<E> from_string(std::string_view text)
{
  for (const auto& [value, name] : pipesim_enum_names(E{}))
    if (text == name) return value;
  return std::nullopt;
}

/// "a, b, c".
template <NamedEnum E>
std::string enum_name_list();

/// The enumerator named `text`; InputError about key `what` "value '<text>': unknown <what> (expected one of: a, b, c)"
/// otherwise. For text read back from files and processes; YAML input has YamlNode::as_enum (file, line and key in its
/// messages).
template <NamedEnum E>
E parse_enum(std::string_view text, std::string_view what)
{
  if (auto value = from_string<E>(text)) return *value;
  throw InputError::keyed(std::string(what), text,
                          fmt::format("unknown {} (expected one of: {})", what, enum_name_list<E>()));
}

/// Every enumerator, in declaration order.
template <NamedEnum E>
constexpr auto enum_values()
{
  constexpr auto names = pipesim_enum_names(E{});
  std::array<E, names.size()> values{};
  for (std::size_t i = 0; i < names.size(); ++i)
    values[i] = names[i].value;
  return values;
}

/// Every name, in declaration order.
template <NamedEnum E>
std::vector<std::string> enum_names()
{
  std::vector<std::string> out;
  for (const auto& entry : pipesim_enum_names(E{}))
    out.emplace_back(entry.name);
  return out;
}

/// "a, b, c".
template <NamedEnum E>
std::string enum_name_list()
{
  std::string out;
  for (const auto& entry : pipesim_enum_names(E{}))
    out += (out.empty() ? "" : ", ") + std::string(entry.name);
  return out;
}

/// "expected one of: a, b, c".
template <NamedEnum E>
std::string expected_one_of()
{
  return "expected one of: " + enum_name_list<E>();
}

/// "a or b", "a, b or c".
template <NamedEnum E>
std::string enum_alternatives()
{
  constexpr auto names = pipesim_enum_names(E{});
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i].name;
  return out;
}

/// "expected a or b", "expected a, b or c".
template <NamedEnum E>
std::string expected_names()
{
  return "expected " + enum_alternatives<E>();
}

} // namespace pipesim

/// fmt::format("{}", value) writes the name, with the string's format specifications ("{:<10}").
template <pipesim::NamedEnum E>
struct fmt::formatter<E> : fmt::formatter<std::string_view> {
  template <typename FormatContext>
  auto format(E value, FormatContext& ctx) const
  {
    return fmt::formatter<std::string_view>::format(pipesim::to_string(value), ctx);
  }
};

// The project's error type for bad input (YAML, XML, CLI, impossible mappings): where, which key, which value, what
// is wrong and the limit; the CLI prints it and exits 2 (CONVENTIONS.md "Errors", docs/scenarios.md "Errors").
#pragma once

#include <fmt/format.h>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pipesim {

/// The place of a value given on the command line (InputError::file() of an error about an option).
inline constexpr std::string_view command_line_place = "command line";

/// Bad input, as fields: the place (a file and a 1-based line, 0 when the file as a whole is meant; or the command
/// line), the key (a dotted scenario key such as "platform.processors[2].speed" or "mapping[1].replicas[0]", or an
/// option such as "--steps"), the value as written, and the message (what is wrong, with the limit or what was
/// expected). what() is their one rendering:
///   FILE:LINE: key 'KEY': value 'VALUE': MESSAGE   a key of a file (no "key" part without a key, no "value" part
///                                                  without a value, no ":LINE" when the line is 0)
///   OPTION VALUE: MESSAGE                          an option of the command line ("--steps 0: expected at least 1")
///   key 'KEY': value 'VALUE': MESSAGE              not located yet
/// Code that knows the file builds it with at() or in_file(), the command line with option(). Code that does not know
/// files (model/, mappers/, simulator/, validation/ below the entry points) throws keyed() with the scenario key the
/// refusal is about; the entry point that holds the scenario attaches the place of that key from the scenario's
/// SourceMap (base/source_map.hpp), so the user reads file and line all the same.
class InputError : public std::runtime_error {
public:
  struct Fields {
    std::string file;                 // a path, command_line_place, or empty when not located (yet)
    int line = 0;                     // 1-based; 0: unknown, the file as a whole, or the command line
    std::string key;                  // dotted scenario key, option, or empty (a file's syntax, a whole file)
    std::optional<std::string> value; // the value as written, when the refusal is about one
    std::string message;              // what is wrong and the limit or what was expected
  };

  /// About `key` of the scenario (or campaign, edit list) being read, by code that does not know its file: the entry
  /// point attaches the place (SourceMap::attach). `key` must not be empty.
  static InputError keyed(std::string key, std::string message);
  template <class Value>
  static InputError keyed(std::string key, const Value& value, std::string message)
  {
    return keyed_value(std::move(key), text_of(value), std::move(message));
  }

  /// About `key` at `file`:`line` (`key` may be empty for a file's syntax or the whole file; then use in_file).
  static InputError at(std::string file, int line, std::string key, std::string message);
  template <class Value>
  static InputError at(std::string file, int line, std::string key, const Value& value, std::string message)
  {
    return make({std::move(file), line, std::move(key), text_of(value), std::move(message)});
  }

  /// About a file, or a line of it, as a whole (cannot open, syntax error, an XML element, a JSON row); `file` must
  /// not be empty.
  static InputError in_file(std::string file, int line, std::string message);

  /// About a command-line option (its file is command_line_place), e.g. option("--steps", 0, "expected at least 1").
  static InputError option(std::string option, std::string message);
  template <class Value>
  static InputError option(std::string option, const Value& value, std::string message)
  {
    return make({std::string(command_line_place), 0, std::move(option), text_of(value), std::move(message)});
  }

  /// The fields as they were sent by another process (serialize()); not an InputError's text: std::invalid_argument.
  static InputError deserialize(std::string_view text);
  /// The fields in one string, for a child process's report (base/job_report.hpp).
  std::string serialize() const;

  const Fields& fields() const { return f_; }
  const std::string& file() const { return f_.file; }
  int line() const { return f_.line; }
  const std::string& key() const { return f_.key; }
  const std::optional<std::string>& value() const { return f_.value; }
  const std::string& message() const { return f_.message; }
  /// A place is known (a file, or the command line).
  bool located() const { return !f_.file.empty(); }

  /// Sets the place (keeps key, value and message).
  void locate(std::string file, int line);
  /// Replaces every field (SourceMap, when the key it is about is shown as another one).
  void reset(Fields fields);
  /// Puts `context` before the message ("run 3 (mapper=x): " + message).
  void prefix_message(const std::string& context);

  const char* what() const noexcept override { return text_.c_str(); }

  /// The one rendering of the fields (see the class comment).
  static std::string format(const Fields& fields);

private:
  explicit InputError(Fields fields);
  static InputError make(Fields fields);
  static InputError keyed_value(std::string key, std::string value, std::string message);

  static std::string text_of(const std::string& value) { return value; }
  static std::string text_of(const char* value) { return value; }
  static std::string text_of(std::string_view value) { return std::string(value); }
  template <class Value>
  static std::string text_of(const Value& value)
  {
    return fmt::format("{}", value);
  }

  Fields f_;
  std::string text_;
};

} // namespace pipesim

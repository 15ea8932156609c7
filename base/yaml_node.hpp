// Strict YAML reading: every error names the file, line, dotted key and value (CONVENTIONS.md "Errors").
#pragma once

#include "base/enum_names.hpp"

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace pipesim {

/// A YAML node that knows its file and dotted key path ("platform.processors[2].speed").
class YamlNode {
public:
  YamlNode(YAML::Node node, std::string file, std::string path);

  const YAML::Node& raw() const { return node_; }
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  int line() const; // 1-based, 0 when unknown

  bool is_map() const { return node_.IsMap(); }
  bool is_sequence() const { return node_.IsSequence(); }
  bool is_scalar() const { return node_.IsScalar(); }
  bool is_null() const { return !node_ || node_.IsNull(); }

  bool has(const std::string& key) const;
  /// A required child: error "missing key" (with this node's line) when absent.
  YamlNode at(const std::string& key) const;
  std::optional<YamlNode> find(const std::string& key) const;
  /// Errors on the first key not in `allowed`, listing the allowed ones. Requires a map.
  void allow_only(std::initializer_list<const char*> allowed) const;
  void require_map() const;
  /// Elements of a sequence (error if not a sequence).
  std::vector<YamlNode> items() const;
  /// Keys of a map, in file order.
  std::vector<std::string> keys() const;

  std::string as_string() const;
  double as_double() const;
  double as_positive() const;    // > 0, finite
  double as_nonnegative() const; // >= 0, finite
  double as_probability() const; // in [0, 1)
  long long as_integer() const;
  int as_int_at_least(int minimum) const;
  bool as_bool() const;
  std::vector<double> as_doubles() const;
  /// A scalar naming an enumerator of E (base/enum_names.hpp); anything else fails with "expected a, b or c", or
  /// with "unknown <what> (expected one of: a, b, c)" when `what` is given.
  template <NamedEnum E>
  E as_enum(const char* what = nullptr) const
  {
    if (auto value = from_string<E>(as_string())) return *value;
    fail(what == nullptr ? expected_names<E>() : "unknown " + std::string(what) + " (" + expected_one_of<E>() + ")");
  }
  /// The scalar text as written (for messages), or a short rendering of a collection.
  std::string text() const;

  /// Throws InputError "file:line: key 'path': value 'text': what".
  [[noreturn]] void fail(const std::string& what) const;
  /// Throws InputError "file:line: key 'path': what" (no value, e.g. for a missing child).
  [[noreturn]] void fail_key(const std::string& what) const;

private:
  YAML::Node node_;
  std::string file_;
  std::string path_;
  int fallback_line_ = 0; // parent's line, for children that do not exist
};

/// The file a node names: the path as given when it names a regular file from the current directory, else relative
/// to `base_dir` (the directory of the YAML file); "file not found" (with the places looked in) otherwise.
std::string resolve_yaml_file(const YamlNode& node, const std::string& base_dir);

/// Parses a YAML file; syntax errors become InputError "file:line:col: YAML syntax error: ...".
YamlNode load_yaml_file(const std::string& path);
YamlNode load_yaml_text(const std::string& text, const std::string& label);

} // namespace pipesim

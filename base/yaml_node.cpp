// Strict YAML reading with file:line messages.
#include "base/yaml_node.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>
#include <tuple>

namespace pipesim {

YamlNode::YamlNode(YAML::Node node, std::string file, std::string path)
    : node_(std::move(node)), file_(std::move(file)), path_(std::move(path))
{
}

int YamlNode::line() const
{
  if (node_ && node_.Mark().line >= 0 && !node_.Mark().is_null()) return node_.Mark().line + 1;
  return fallback_line_;
}

bool YamlNode::has(const std::string& key) const { return node_.IsMap() && node_[key].IsDefined(); }

std::optional<YamlNode> YamlNode::find(const std::string& key) const
{
  require_map();
  YAML::Node child = node_[key];
  if (!child.IsDefined()) return std::nullopt;
  return YamlNode(child, file_, path_.empty() ? key : path_ + "." + key);
}

YamlNode YamlNode::at(const std::string& key) const
{
  auto child = find(key);
  if (!child) {
    throw InputError::at(file_, line(), path_.empty() ? key : path_ + "." + key, "missing (a required key)");
  }
  return *child;
}

void YamlNode::require_map() const
{
  if (!node_.IsMap()) fail("expected a mapping of keys to values");
}

std::vector<std::string> YamlNode::keys() const
{
  require_map();
  std::vector<std::string> out;
  for (const auto& kv : node_)
    out.push_back(kv.first.as<std::string>());
  return out;
}

void YamlNode::allow_only(std::initializer_list<const char*> allowed) const
{
  require_map();
  for (const auto& kv : node_) {
    auto key = kv.first.as<std::string>();
    bool ok  = false;
    for (const char* a : allowed)
      ok = ok || key == a;
    if (!ok) {
      std::string list;
      for (const char* a : allowed)
        list += (list.empty() ? "" : ", ") + std::string(a);
      std::string full = path_.empty() ? key : path_ + "." + key;
      throw InputError::at(file_, kv.first.Mark().line + 1, full,
                           fmt::format("unknown key (expected one of: {})", list));
    }
  }
}

std::vector<YamlNode> YamlNode::items() const
{
  if (!node_.IsSequence()) fail("expected a list");
  std::vector<YamlNode> out;
  std::size_t i = 0;
  for (const auto& item : node_) {
    YamlNode child(item, file_, fmt::format("{}[{}]", path_, i++));
    child.fallback_line_ = line();
    out.push_back(child);
  }
  return out;
}

std::string YamlNode::text() const
{
  if (!node_ || node_.IsNull()) return "null";
  if (node_.IsScalar()) return node_.Scalar();
  YAML::Node flow = YAML::Clone(node_); // a block collection keeps its style through YAML::Flow: one line it is
  flow.SetStyle(YAML::EmitterStyle::Flow);
  YAML::Emitter e;
  e << YAML::Flow << flow;
  std::string s = e.c_str();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

void YamlNode::fail(const std::string& what) const
{
  throw InputError::at(file_, line(), path_, text(), what); // no key part for the document itself
}

void YamlNode::fail_key(const std::string& what) const { throw InputError::at(file_, line(), path_, what); }

std::string YamlNode::as_string() const
{
  if (!node_.IsScalar()) fail("expected a string");
  return node_.Scalar();
}

double YamlNode::as_double() const
{
  if (!node_.IsScalar()) fail("expected a number");
  const std::string& s = node_.Scalar();
  try {
    std::size_t used = 0;
    double v         = std::stod(s, &used);
    if (used != s.size() || std::isnan(v)) fail("expected a number");
    return v;
  } catch (const std::logic_error&) {
    fail("expected a number");
  }
}

double YamlNode::as_positive() const
{
  double v = as_double();
  if (!(v > 0) || !std::isfinite(v)) fail("expected a positive finite number");
  return v;
}

double YamlNode::as_nonnegative() const
{
  double v = as_double();
  if (!(v >= 0) || !std::isfinite(v)) fail("expected a finite number >= 0");
  return v;
}

double YamlNode::as_probability() const
{
  double v = as_double();
  if (!(v >= 0 && v < 1)) fail("expected a probability in [0, 1)");
  return v;
}

long long YamlNode::as_integer() const
{
  if (!node_.IsScalar()) fail("expected an integer");
  const std::string& s = node_.Scalar();
  try {
    std::size_t used = 0;
    long long v      = std::stoll(s, &used);
    if (used != s.size()) fail("expected an integer");
    return v;
  } catch (const std::logic_error&) {
    fail("expected an integer");
  }
}

int YamlNode::as_int_at_least(int minimum) const
{
  long long v = as_integer();
  if (v < minimum || v > 2'000'000'000LL) fail(fmt::format("expected an integer >= {}", minimum));
  return static_cast<int>(v);
}

bool YamlNode::as_bool() const
{
  if (node_.IsScalar()) {
    const std::string& s = node_.Scalar();
    if (s == "true" || s == "yes" || s == "on") return true;
    if (s == "false" || s == "no" || s == "off") return false;
  }
  fail("expected true or false");
}

std::vector<double> YamlNode::as_doubles() const
{
  std::vector<double> out;
  for (const auto& item : items())
    out.push_back(item.as_double());
  return out;
}

namespace {

/// Aliases may add at most this many nodes to a document (beyond one per character of its text).
constexpr std::size_t max_alias_nodes = 100'000;

/// One walk over a parsed document: duplicate keys (yaml-cpp keeps both entries and lookups see the first), keys
/// that are not strings (the loaders read keys as strings), aliases that contain themselves and alias expansions
/// ("billion laughs") that would make every later walk (copies, output) exponential are InputErrors.
class DocumentCheck {
public:
  DocumentCheck(const std::string& label, std::size_t text_size) : label_(label), limit_(text_size + max_alias_nodes) {}

  /// The number of nodes of `node` with aliases expanded (saturated just above the limit).
  std::size_t walk(const YAML::Node& node, const std::string& path)
  {
    if (!node.IsMap() && !node.IsSequence()) return 1;
    // A collection's identity: its position in the text (an alias gives back the node of its anchor, same mark).
    const Id id{node.Mark().pos, node.Mark().line, static_cast<int>(node.Type())};
    if (auto it = walked_.find(id); it != walked_.end()) {
      if (it->second == 0) fail(node.Mark().line, path, "an alias refers to the collection that contains it");
      return it->second;
    }
    walked_[id]       = 0; // in progress
    std::size_t nodes = 1;
    auto add          = [&](std::size_t more) { nodes = std::min(nodes + more, limit_ + 1); };
    if (node.IsSequence()) {
      std::size_t i = 0;
      for (const auto& item : node)
        add(walk(item, fmt::format("{}[{}]", path, i++)));
    } else {
      std::map<std::string, int> lines; // key -> line of its first occurrence
      for (const auto& kv : node) {
        const int line = kv.first.Mark().line;
        if (!kv.first.IsScalar()) {
          walk(kv.first, path); // bounded before it is written in the message
          fail(line, path, fmt::format("a key must be a string, not '{}'", YamlNode(kv.first, label_, path).text()));
        }
        const std::string& key  = kv.first.Scalar();
        const std::string child = path.empty() ? key : path + "." + key;
        if (auto [it, fresh] = lines.emplace(key, line + 1); !fresh)
          fail(line, child, fmt::format("duplicate key (first given at line {})", it->second));
        add(1 + walk(kv.second, child));
      }
    }
    if (nodes > limit_)
      fail(node.Mark().line, path, fmt::format("YAML aliases expand this document beyond {} nodes", limit_));
    walked_[id] = nodes;
    return nodes;
  }

private:
  using Id = std::tuple<int, int, int>;

  [[noreturn]] void fail(int line0, const std::string& path, const std::string& what) const
  {
    throw InputError::at(label_, line0 + 1, path, what);
  }

  const std::string& label_;
  std::size_t limit_;
  std::map<Id, std::size_t> walked_; // expanded sizes of the collections walked; 0 while in progress
};

YamlNode parse(const std::string& text, const std::string& label)
{
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError::in_file(label, e.mark.line + 1,
                              fmt::format("YAML syntax error at column {}: {}", e.mark.column + 1, e.msg));
  }
  DocumentCheck(label, text.size()).walk(root, "");
  return YamlNode(root, label, "");
}

} // namespace

YamlNode load_yaml_file(const std::string& path)
{
  std::error_code ec; // a directory reads as empty, a device (/dev/zero) or a FIFO may never end
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError::in_file(path, 0, "cannot open file");
  std::ifstream in(path);
  if (!in) throw InputError::in_file(path, 0, "cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), path);
}

YamlNode load_yaml_text(const std::string& text, const std::string& label) { return parse(text, label); }

std::string resolve_yaml_file(const YamlNode& node, const std::string& base_dir)
{
  namespace fs            = std::filesystem;
  const std::string given = node.as_string();
  if (given.empty()) node.fail("expected a file name");
  std::error_code ec;
  const fs::path as_given(given);
  if (fs::is_regular_file(as_given, ec)) return as_given.lexically_normal().string();
  const fs::path in_base = fs::path(base_dir) / as_given;
  if (as_given.is_relative() && fs::is_regular_file(in_base, ec)) return in_base.lexically_normal().string();
  if (as_given.is_absolute()) node.fail("file not found");
  const std::string here  = fs::absolute(as_given, ec).lexically_normal().string();
  const std::string there = fs::absolute(in_base, ec).lexically_normal().string();
  node.fail(here == there ? fmt::format("file not found (looked in '{}')", here)
                          : fmt::format("file not found (looked in '{}' and '{}')", here, there));
}

} // namespace pipesim

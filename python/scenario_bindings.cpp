// Scenarios from Python: loading a file, checking a text, changing dotted keys (the campaign sweep's own function),
// and the document as Python data (YAML's core schema) or back as YAML text.
#include "base/input_error.hpp"
#include "base/yaml_node.hpp"
#include "python/bindings.hpp"
#include "scenarios/campaign.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <pybind11/stl.h>
#include <regex>
#include <sstream>
#include <utility>
#include <vector>

namespace pipesim::python {

Scenario parse_source(const ScenarioSource& source)
{
  return parse_scenario(source.text, source.file, source.base_dir);
}

namespace {

/// What a plain (unquoted) YAML scalar is under YAML 1.2's core schema.
enum class PlainScalar { null, true_, false_, integer, real, infinity, minus_infinity, nan, string };

PlainScalar kind_of(const std::string& s)
{
  static const std::regex null_re("~|null|Null|NULL|");
  static const std::regex true_re("true|True|TRUE");
  static const std::regex false_re("false|False|FALSE");
  static const std::regex int_re("[-+]?[0-9]+");
  static const std::regex real_re("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  static const std::regex inf_re("[+]?\\.(inf|Inf|INF)");
  static const std::regex minus_inf_re("-\\.(inf|Inf|INF)");
  static const std::regex nan_re("\\.(nan|NaN|NAN)");
  if (std::regex_match(s, null_re)) return PlainScalar::null;
  if (std::regex_match(s, true_re)) return PlainScalar::true_;
  if (std::regex_match(s, false_re)) return PlainScalar::false_;
  if (std::regex_match(s, int_re)) return PlainScalar::integer;
  if (std::regex_match(s, real_re)) return PlainScalar::real;
  if (std::regex_match(s, inf_re)) return PlainScalar::infinity;
  if (std::regex_match(s, minus_inf_re)) return PlainScalar::minus_infinity;
  if (std::regex_match(s, nan_re)) return PlainScalar::nan;
  return PlainScalar::string;
}

py::object plain_scalar(const std::string& s)
{
  constexpr double inf = std::numeric_limits<double>::infinity();
  switch (kind_of(s)) {
  case PlainScalar::null:
    return py::none();
  case PlainScalar::true_:
    return py::bool_(true);
  case PlainScalar::false_:
    return py::bool_(false);
  case PlainScalar::integer:
    return py::reinterpret_steal<py::object>(PyLong_FromString(s.c_str(), nullptr, 10));
  case PlainScalar::real:
    return py::float_(std::stod(s));
  case PlainScalar::infinity:
    return py::float_(inf);
  case PlainScalar::minus_infinity:
    return py::float_(-inf);
  case PlainScalar::nan:
    return py::float_(std::numeric_limits<double>::quiet_NaN());
  default:
    return py::str(s);
  }
}

py::object yaml_to_python(const YAML::Node& node)
{
  switch (node.Type()) {
  case YAML::NodeType::Map: {
    py::dict d;
    for (const auto& kv : node)
      d[yaml_to_python(kv.first)] = yaml_to_python(kv.second);
    return d;
  }
  case YAML::NodeType::Sequence: {
    py::list l;
    for (const auto& item : node)
      l.append(yaml_to_python(item));
    return l;
  }
  case YAML::NodeType::Scalar:
    return node.Tag() == "!" ? py::str(node.Scalar()) : plain_scalar(node.Scalar()); // "!": quoted, a string
  default:
    return py::none();
  }
}

bool all_scalars(const YAML::Node& node)
{
  for (const auto& item : node) { // a map's items are (key, value) pairs, a sequence's are the nodes
    const YAML::Node& value = node.IsMap() ? item.second : static_cast<const YAML::Node&>(item);
    if (value.IsMap() || value.IsSequence()) return false;
  }
  return true;
}

/// YAML text of a document: maps in block style, but a list's maps of scalars and lists of scalars in flow style
/// (`- {name: P1, speed: 12}`, `w: [10, 20, 5]`); a scalar that was quoted stays quoted (a string that reads as a
/// number keeps its type).
void emit(YAML::Emitter& out, const YAML::Node& node, bool in_sequence = false)
{
  switch (node.Type()) {
  case YAML::NodeType::Map:
    out << (in_sequence && all_scalars(node) ? YAML::Flow : YAML::Block) << YAML::BeginMap;
    for (const auto& kv : node) {
      out << YAML::Key;
      emit(out, kv.first);
      out << YAML::Value;
      emit(out, kv.second);
    }
    out << YAML::EndMap;
    return;
  case YAML::NodeType::Sequence: {
    out << (all_scalars(node) ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
    for (const auto& item : node)
      emit(out, item, true);
    out << YAML::EndSeq;
    return;
  }
  case YAML::NodeType::Scalar:
    if (node.Tag() == "!") out << YAML::DoubleQuoted;
    out << node.Scalar();
    return;
  default:
    out << YAML::Null;
  }
}

std::string yaml_text(const YAML::Node& root)
{
  YAML::Emitter out;
  emit(out, root);
  return std::string(out.c_str()) + "\n";
}

/// pipesim.load(path): the file checked as `pipesim map` reads it, then its text and name.
py::tuple load(const std::string& path)
{
  std::string name;
  {
    py::gil_scoped_release nogil;
    name = load_scenario(path).name;
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return py::make_tuple(text.str(), name);
}

/// The scenario's name once the text is checked.
std::string check(const std::string& text, const std::string& file, const std::string& base_dir)
{
  py::gil_scoped_release nogil;
  return parse_source({text, file, base_dir}).name;
}

/// A Python value as a YAML node: dict -> map, list or tuple -> sequence, str -> quoted scalar (a string stays one),
/// bool, int and float -> plain scalars YAML's core schema reads back as such, None -> null.
YAML::Node yaml_of(py::handle value)
{
  if (value.is_none()) return YAML::Node(YAML::NodeType::Null);
  if (py::isinstance<py::dict>(value)) {
    YAML::Node map(YAML::NodeType::Map);
    for (auto [k, v] : value.cast<py::dict>())
      map[yaml_of(k)] = yaml_of(v);
    return map;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    YAML::Node seq(YAML::NodeType::Sequence);
    for (auto item : value)
      seq.push_back(yaml_of(item));
    return seq;
  }
  if (py::isinstance<py::str>(value)) { // quoted when it would read back as something else ("1", "true", "")
    std::string text = value.cast<std::string>();
    YAML::Node scalar(text);
    if (kind_of(text) != PlainScalar::string) scalar.SetTag("!");
    return scalar;
  }
  if (py::isinstance<py::bool_>(value)) return YAML::Node(value.cast<bool>() ? "true" : "false");
  if (py::isinstance<py::float_>(value)) {
    double x = value.cast<double>();
    if (std::isnan(x)) return YAML::Node(".nan");
    if (std::isinf(x)) return YAML::Node(x > 0 ? ".inf" : "-.inf");
    return YAML::Node(py::repr(value).cast<std::string>()); // the shortest text that reads back as x
  }
  if (PyIndex_Check(value.ptr())) // int, and integers of other types (numpy's)
    return YAML::Node(py::str(py::int_(py::reinterpret_borrow<py::object>(value))).cast<std::string>());
  throw py::type_error(fmt::format("a scenario holds dicts, lists, strings, numbers, booleans and None, not {}",
                                   py::str(py::type::of(value).attr("__name__")).cast<std::string>()));
}

/// Scenario.with_values: each (dotted key, value) set as a campaign's sweep sets it, then the result checked.
/// Messages name the scenario as "FILE (with KEY, ...)": their lines are those of the new text.
std::string with_values(const std::string& text, const std::string& file, const std::string& base_dir,
                        const std::vector<std::pair<std::string, py::object>>& values)
{
  std::vector<std::pair<std::string, YAML::Node>> nodes;
  std::string changes;
  for (const auto& [key, value] : values) {
    nodes.emplace_back(key, yaml_of(value));
    changes += fmt::format("{}{}", changes.empty() ? "" : ", ", key);
  }
  py::gil_scoped_release nogil;
  std::string label = fmt::format("{} (with {})", file, changes);
  YAML::Node root   = load_yaml_text(text, file).raw();
  if (!root.IsMap()) throw InputError::in_file(file, 0, "a scenario is a mapping of keys");
  for (const auto& [key, node] : nodes)
    set_scenario_key(root, key, node, YamlNode(YAML::Node(key), label, key)); // no line: the key has none
  std::string out = yaml_text(root);
  parse_scenario(out, label, base_dir);
  return out;
}

py::object to_dict(const std::string& text, const std::string& file)
{
  return yaml_to_python(load_yaml_text(text, file).raw());
}

/// Scenario.from_dict: the dict as block YAML (messages then give lines of that text: Scenario.to_yaml()).
std::string yaml_from_python(const py::dict& d) { return yaml_text(yaml_of(d)); }

} // namespace

void bind_scenarios(py::module_& m)
{
  m.def("load", &load, py::arg("path"));
  m.def("check", &check, py::arg("text"), py::arg("file"), py::arg("base_dir"));
  m.def("with_values", &with_values, py::arg("text"), py::arg("file"), py::arg("base_dir"), py::arg("values"));
  m.def("to_dict", &to_dict, py::arg("text"), py::arg("file"));
  m.def("yaml_from_python", &yaml_from_python, py::arg("document"));
}

} // namespace pipesim::python

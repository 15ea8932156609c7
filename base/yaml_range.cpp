// Range parsing for generators.
#include "base/yaml_range.hpp"

#include <cmath>

namespace pipesim {

namespace {

constexpr const char* expected_shapes =
    "expected a number, [lo, hi], {min: lo, max: hi, integer: true} or {normal: {mean: m, sd: s}, integer: true}";

double bound(const YamlNode& node, bool positive) { return positive ? node.as_positive() : node.as_nonnegative(); }

Range parse_normal(const YamlNode& map)
{
  const YamlNode normal = map.at("normal");
  if (!normal.is_map()) normal.fail("expected {mean: m, sd: s}");
  normal.allow_only({"mean", "sd"});
  bool integer = false;
  if (auto i = map.find("integer")) integer = i->as_bool();
  const YamlNode mean = normal.at("mean");
  Range r             = Range::normal(mean.as_positive(), normal.at("sd").as_nonnegative(), integer);
  if (integer && r.mean < 1)
    mean.fail("expected a mean >= 1 for integer values (draws are rounded, redrawn until >= 1)");
  return r;
}

} // namespace

Range parse_range(const YamlNode& node, bool positive)
{
  Range r;
  if (node.is_scalar()) {
    r.lo = r.hi = bound(node, positive);
    return r;
  }
  if (node.is_sequence()) {
    auto items = node.items();
    if (items.size() != 2) node.fail(expected_shapes);
    r.lo = bound(items[0], positive);
    r.hi = bound(items[1], positive);
  } else if (node.is_map()) {
    node.allow_only({"min", "max", "integer", "normal"});
    if (node.has("normal")) {
      for (const char* key : {"min", "max"})
        if (auto misplaced = node.find(key)) misplaced->fail_key("give either min/max (uniform) or normal, not both");
      return parse_normal(node);
    }
    r.lo = bound(node.at("min"), positive);
    r.hi = bound(node.at("max"), positive);
    if (auto i = node.find("integer")) r.integer = i->as_bool();
  } else {
    node.fail(expected_shapes);
  }
  if (r.lo > r.hi) node.fail("the lower bound exceeds the upper bound");
  if (r.integer && std::ceil(r.lo) > std::floor(r.hi)) node.fail("the range holds no integer");
  return r;
}

} // namespace pipesim

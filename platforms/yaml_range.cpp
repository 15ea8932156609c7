// Range parsing for generators.
#include "platforms/yaml_range.hpp"

#include <cmath>

namespace pipesim {

namespace {
double bound(const YamlNode& node, bool positive) { return positive ? node.as_positive() : node.as_nonnegative(); }
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
    if (items.size() != 2) node.fail("expected a number, [lo, hi] or {min: lo, max: hi, integer: true}");
    r.lo = bound(items[0], positive);
    r.hi = bound(items[1], positive);
  } else if (node.is_map()) {
    node.allow_only({"min", "max", "integer"});
    r.lo = bound(node.at("min"), positive);
    r.hi = bound(node.at("max"), positive);
    if (auto i = node.find("integer")) r.integer = i->as_bool();
  } else {
    node.fail("expected a number, [lo, hi] or {min: lo, max: hi, integer: true}");
  }
  if (r.lo > r.hi) node.fail("the lower bound exceeds the upper bound");
  if (r.integer && std::ceil(r.lo) > std::floor(r.hi)) node.fail("the range holds no integer");
  return r;
}

} // namespace pipesim

// The axes of a campaign's product (campaign_axes.hpp).
#include "scenarios/campaign_axes.hpp"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace pipesim {

namespace {
/// The values of one list item: the integers of "a..b", else the item itself.
std::vector<YAML::Node> item_values(const YamlNode& item)
{
  std::vector<YAML::Node> out;
  const std::string s = item.is_scalar() ? item.raw().Scalar() : "";
  auto dots           = s.find("..");
  if (dots == std::string::npos) return {YAML::Clone(item.raw())};
  long long a = 0, b = 0;
  auto whole = [](const std::string& text, long long& v) { // the whole text: "1..5x" is no range
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
    return error == std::errc{} && end == text.data() + text.size();
  };
  if (!whole(s.substr(0, dots), a) || !whole(s.substr(dots + 2), b))
    item.fail("expected an integer range such as 1..50");
  if (b < a || b - a > 10'000'000) item.fail("expected an integer range a..b with a <= b");
  for (long long v = a; v <= b; ++v)
    out.emplace_back(fmt::format("{}", v));
  return out;
}

/// What makes two values of a list the same: the number for a numeric scalar (1 and 1.0 set the same value), the text
/// of any other scalar, the flow rendering of a collection.
std::string value_identity(const YAML::Node& value)
{
  if (!value || value.IsNull()) return "null";
  if (!value.IsScalar()) {
    YAML::Emitter e;
    e << YAML::Flow << value;
    return std::string("yaml:") + e.c_str();
  }
  const std::string& text = value.Scalar();
  char* end               = nullptr;
  double number           = std::strtod(text.c_str(), &end);
  if (!text.empty() && end == text.c_str() + text.size() && std::isfinite(number))
    return fmt::format("number:{}", number);
  return "text:" + text;
}

/// Refuses an empty item (an empty text: a typo, or a value lost on the way) and a value given twice, which would
/// repeat runs; `expanded` holds the values each item gave (an "a..b" item gives several).
void require_distinct_items(const std::vector<YamlNode>& items, const std::vector<std::vector<YAML::Node>>& expanded)
{
  std::map<std::string, std::size_t> first; // identity -> item giving it first
  for (std::size_t i = 0; i < items.size(); ++i) {
    const YamlNode& item = items[i];
    if (item.is_scalar() && item.raw().Scalar().empty())
      item.fail("an empty item: give a value, or null to remove the key in these runs");
    for (const auto& value : expanded[i]) {
      auto [it, fresh] = first.emplace(value_identity(value), i);
      if (!fresh)
        item.fail(fmt::format("{} is given twice in this list (item {} gives it{}): each value once, or the same "
                              "runs would repeat",
                              value.IsScalar() ? "'" + value.Scalar() + "'" : "this value", it->second + 1,
                              it->second == i ? " already" : fmt::format(": '{}'", items[it->second].text())));
    }
  }
}

/// A zip group whose i-th values are all those of an earlier position would repeat its runs.
void require_distinct_tuples(const Axis& axis, const YamlNode& group)
{
  std::map<std::string, std::size_t> first;
  for (std::size_t i = 0; i < axis.size(); ++i) {
    std::string tuple;
    for (const auto& values : axis.values)
      tuple += value_identity(values[i]) + "\n";
    auto [it, fresh] = first.emplace(tuple, i);
    if (!fresh)
      group.fail(fmt::format("positions {} and {} of the zipped lists hold the same values: each combination once, or "
                             "the same runs would repeat",
                             it->second + 1, i + 1));
  }
}

/// Values of one swept key: a list (whose "a..b" items expand to integers), a range {from, to|count, step}, or a
/// single value. A list refuses an empty item, and unless it is zipped (its values repeat while the other lists of
/// its group vary: the group checks its tuples) a value given twice.
std::vector<YAML::Node> axis_values(const YamlNode& node, AxisSources& sources, bool zipped = false)
{
  std::vector<YAML::Node> out;
  sources.items = {node}; // a range or a single value: the key's node; a list: its items
  if (node.is_map()) {
    node.allow_only({"from", "to", "count", "step"});
    double from = node.at("from").as_double();
    double step = node.has("step") ? node.at("step").as_double() : 1.0;
    if (step == 0) node.at("step").fail("the step must not be 0");
    long long count = 0;
    if (node.has("count") == node.has("to")) node.fail_key("give exactly one of 'to' and 'count'");
    if (node.has("count"))
      count = node.at("count").as_integer();
    else
      count = static_cast<long long>(std::floor((node.at("to").as_double() - from) / step + 1e-9)) + 1;
    if (count < 1 || count > 10'000'000) node.fail("the range holds no value (or more than 10^7)");
    for (long long i = 0; i < count; ++i) {
      double v = from + static_cast<double>(i) * step;
      out.emplace_back(v == std::floor(v) && std::fabs(v) < 1e15 ? fmt::format("{}", static_cast<long long>(v))
                                                                 : fmt::format("{}", v));
    }
    sources.item_of.assign(out.size(), 0);
    return out;
  }
  if (!node.is_sequence()) {
    out.push_back(YAML::Clone(node.raw()));
    sources.item_of.assign(1, 0);
    return out;
  }
  std::vector<YamlNode> items = node.items();
  std::vector<std::vector<YAML::Node>> expanded;
  sources.items = items;
  for (std::size_t k = 0; k < items.size(); ++k) {
    expanded.push_back(item_values(items[k]));
    out.insert(out.end(), expanded.back().begin(), expanded.back().end());
    sources.item_of.insert(sources.item_of.end(), expanded.back().size(), static_cast<std::uint32_t>(k));
  }
  if (out.empty()) node.fail("an axis needs at least one value");
  if (zipped) {
    for (const auto& item : items)
      if (item.is_scalar() && item.raw().Scalar().empty())
        item.fail("an empty item: give a value, or null to remove the key in these runs");
  } else {
    require_distinct_items(items, expanded);
  }
  return out;
}

} // namespace

std::vector<Axis> parse_axes(const YamlNode& root, std::vector<std::pair<std::string, YamlNode>>& key_nodes,
                             bool& distinct_seeds)
{
  std::vector<Axis> axes;
  if (auto sweep = root.find("sweep")) {
    for (const auto& key : sweep->keys()) {
      YamlNode values = sweep->at(key);
      Axis axis{{key}, {}, {AxisSources{}}};
      axis.values.push_back(axis_values(values, axis.sources.back()));
      axes.push_back(std::move(axis));
      key_nodes.emplace_back(key, values);
    }
  }
  if (auto zip = root.find("zip")) {
    for (const auto& group : zip->items()) {
      Axis axis;
      for (const auto& key : group.keys()) {
        YamlNode values = group.at(key);
        axis.keys.push_back(key);
        axis.sources.emplace_back();
        axis.values.push_back(axis_values(values, axis.sources.back(), true));
        key_nodes.emplace_back(key, values);
        if (axis.values.back().size() != axis.values.front().size())
          values.fail(fmt::format("zipped lists must have the same length ({} values here, {} for '{}')",
                                  axis.values.back().size(), axis.values.front().size(), axis.keys.front()));
      }
      if (axis.keys.empty()) group.fail("a zip group needs at least one key");
      require_distinct_tuples(axis, group);
      axes.push_back(axis);
    }
  }
  if (auto seed = root.find("seed")) {
    YamlNode values = *seed;
    if (seed->is_map() && seed->has("distinct")) {
      distinct_seeds  = seed->at("distinct").as_bool();
      YAML::Node copy = YAML::Clone(seed->raw());
      copy.remove("distinct");
      values = YamlNode(copy, seed->file(), seed->path());
    }
    Axis axis{{"seed"}, {}, {AxisSources{}}};
    axis.values.push_back(axis_values(values, axis.sources.back()));
    if (distinct_seeds || seed->has("distinct")) axis.sources.back().items = {*seed}; // the copy has no lines
    axes.push_back(std::move(axis));
    key_nodes.emplace_back("seed", *seed);
  }
  return axes;
}

} // namespace pipesim

// The axes of a campaign's product (sweep, zip, seed): each list's values, checked for empty items and values given
// twice (which would repeat runs), "a..b" ranges and {from, to|count, step} ranges expanded.
#pragma once

#include "base/yaml_node.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pipesim {

/// Where the values of one swept key are written: the node of the key (a single value, a range) or of each list item,
/// and the item each value comes from (an "a..b" item gives several), for the places of errors (SourceMap).
struct AxisSources {
  std::vector<YamlNode> items;
  std::vector<std::uint32_t> item_of; // item_of[i]: the item of value i
  const YamlNode& of(std::size_t i) const { return items[item_of[i]]; }
};

/// One axis of the product: every key of the axis takes its i-th value together.
struct Axis {
  std::vector<std::string> keys;
  std::vector<std::vector<YAML::Node>> values; // values[k][i] for keys[k]
  std::vector<AxisSources> sources;            // sources[k] for keys[k]
  std::size_t size() const { return values.empty() ? 0 : values.front().size(); }
};

/// The axes of `root`'s sweep, zip groups and seed, in that order (first outermost); `key_nodes` gets each swept key
/// with the node of its values (for messages). `distinct_seeds` is set by `seed: {..., distinct: true}`: run i gets
/// the seed `from + i`, so that no two runs share an instance (the axis still gives the number of repetitions).
std::vector<Axis> parse_axes(const YamlNode& root, std::vector<std::pair<std::string, YamlNode>>& key_nodes,
                             bool& distinct_seeds);

} // namespace pipesim

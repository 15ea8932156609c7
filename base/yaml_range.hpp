// Reads a Range from YAML: a number (constant), [lo, hi] (uniform real), {min: lo, max: hi, integer: true} or
// {normal: {mean: m, sd: s}, integer: true} (normal clipped to be positive; `integer` optional).
#pragma once

#include "base/random.hpp"
#include "base/yaml_node.hpp"

namespace pipesim {

/// `positive`: uniform values must be > 0 (else >= 0); normal ranges are always > 0 (redrawn, see Range), with
/// mean > 0 (>= 1 with `integer`) and sd >= 0. Errors name file, line, key and value.
Range parse_range(const YamlNode& node, bool positive);

} // namespace pipesim

// Reads a Range from YAML: a number (constant), [lo, hi] (uniform real) or {min: lo, max: hi, integer: true}.
#pragma once

#include "platforms/random.hpp"
#include "platforms/yaml_node.hpp"

namespace pipesim {

/// `positive`: values must be > 0 (else >= 0). Errors name file, line, key and value.
Range parse_range(const YamlNode& node, bool positive);

} // namespace pipesim

// Reads a scenario's `platform:` mapping when it describes the platform itself (explicit processors or a generator).
#pragma once

#include "base/yaml_node.hpp"
#include "platforms/platform.hpp"

namespace pipesim {

/// Parses the `platform:` mapping of a scenario that is not a `file:` platform. Keys:
///   processors: [{name, speed, failure_probability?, nic_in?, nic_out?, mtbf?}, ...]   (or generate, not both)
///   bandwidth:  X  |  {default: X, links: [{from, to, bandwidth, directed?}, ...]}       (required with processors)
///   latency:    X  |  {default: X, links: [{from, to, latency, directed?}, ...]}         (default 0)
///   io:         {in: NAME, out: NAME}                                                    (defaults "in", "out")
///   generate:   {preset?, class, p, speed, bandwidth, latency?, failure_probability?, nic_in?, nic_out?, seed}
/// With `preset: NAME` (platforms/generator_presets.hpp) class, speed and bandwidth become optional; every key given
/// overrides the preset's value; p and seed stay required. An unknown preset lists the known ones.
/// A link override applies to both directions unless `directed: true`; `from`/`to` name processors or io hosts.
/// When P_in and P_out are one host, the pair P_in <-> P_out is local (b infinite, c = 0).
/// Every error is an InputError "file:line: key 'platform.x': value 'v': what was expected".
Platform parse_platform_yaml(const YamlNode& platform_node);

} // namespace pipesim

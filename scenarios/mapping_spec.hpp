// Reading and checking the `mapping:` section of a scenario (an explicit mapping written with host names).
#pragma once

#include "base/yaml_node.hpp"
#include "scenarios/scenario.hpp"

namespace pipesim {

/// Reads `mapping: [{stages: [first, last] | [s] | s, replicas: [[host, ...] | host, ...], replication:
/// active|deal}, ...]`. A bare host name is a one-host replica: `replicas: [P1, P2]` is two replicas, while
/// `replicas: [[P1, P2]]` is one data-parallel group of two hosts. Only the shape is checked here.
MappingSpec parse_mapping_spec(const YamlNode& node);

/// The checks of resolve_mapping that need only the number of stages n (stage ranges, order, overlaps, coverage),
/// so that a scenario on a SimGrid XML platform is checked before the platform is loaded.
void check_mapping_stages(const MappingSpec& spec, int n);

} // namespace pipesim

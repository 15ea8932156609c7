// Reading and checking the `simulation.failures:` section of a scenario (the failure model of DESIGN.md §3.5).
#pragma once

#include "base/yaml_node.hpp"
#include "scenarios/scenario.hpp"
#include "simulator/simulation.hpp"

namespace pipesim {

/// Reads `failures: none | probability | exponential | platform` or a map
/// `{model: M, window: [begin, end], crashes: [{host: H, time: T}, ...], election: first}`: `window` only with
/// probability (0 <= begin <= end <= 1e6, fractions of the fault-free makespan), `crashes` required with and only
/// with trace (times >= 0), `election` with any model (an ElectionPolicy name). Host names are not checked
/// here.
FailureSettings parse_failure_settings(const YamlNode& node);

/// The checks that need the platform: `platform` only with a SimGrid XML platform; on a YAML platform, every trace
/// host must be one of its processors (on an XML platform draw_crash_schedule checks them, without line numbers).
void check_failure_settings(const YamlNode& node, const FailureSettings& failures, const PlatformSpec& platform);

} // namespace pipesim

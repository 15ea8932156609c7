// Reads `platform.profiles` (DESIGN.md §3.11, docs/dynamic.md): per host a speed and a state profile (and the
// multi-port cards' capacities), per link of a model platform a bandwidth and a latency profile, and a seeded
// generator of piecewise-constant speed epochs.
#pragma once

#include "base/random.hpp"
#include "base/yaml_node.hpp"
#include "platforms/platform.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pipesim {

/// The generator of `platform.profiles.generate`: for each host, epochs whose lengths (s) and speed levels (ratios
/// of s_u) are drawn from `epoch` and `speed`, from date 0 until `horizon` (the last level holds after it).
struct EpochGenerator {
  std::uint64_t seed = 0;
  Range epoch;
  Range speed;
  double horizon = 0;
};

/// The speed profile of `host` drawn by `generator`: its own random stream (the seed mixed with the host's name, so
/// that a host's epochs do not depend on the other hosts), one level then one epoch length per epoch.
Profile generate_epochs(const EpochGenerator& generator, const std::string& host);

/// Parses `platform.profiles`. `base_dir` resolves relative profile files (as platform.file: from the current
/// directory, else from there). `model` is the platform of a YAML scenario (hosts and links are checked against it
/// now) or nullptr for an XML platform (hosts are checked once it is loaded: merge_host_profiles; link and card
/// profiles are refused, the XML gives its links' profiles with bandwidth_file and latency_file). Errors name the file,
/// line, key and value: dates not increasing, a negative or zero speed, a loop period not above the span of the dates,
/// an unknown host, a second speed profile for a host, ...
PlatformProfiles parse_profiles_yaml(const YamlNode& node, const std::string& base_dir, const Platform* model);

/// Adds the scenario's host profiles to the profiles an XML platform brought (speed_file, state_file). A host that is
/// not a processor, or that already has a profile of that kind in the XML, is an InputError naming the scenario line
/// (HostProfiles::source).
void merge_host_profiles(Platform& platform, const std::vector<HostProfiles>& scenario_hosts);

} // namespace pipesim

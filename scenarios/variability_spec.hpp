// `pipeline.variability` of a scenario (DESIGN.md §3.10, docs/scenarios.md "Random operation times"): the laws of the
// work and message sizes of each data set, read strictly.
#pragma once

#include "base/yaml_node.hpp"
#include "model/variability.hpp"

#include <functional>
#include <string>

namespace pipesim {

/// Sample files hold at most this many values (8 bytes each in memory).
inline constexpr long long max_empirical_samples = 10'000'000;

/// Turns a `file:` node into a path (as the scenario resolves its other files: as given, else relative to the
/// scenario's directory), failing on the node when it does not exist.
using FileResolver = std::function<std::string(const YamlNode&)>;

/// Reads
///   variability:
///     seed: 7                          # optional: the simulation's seed otherwise
///     work: exponential                # law of every w_i; a bare name, or {law: gamma, cv: 0.5}, or
///     size: {law: uniform, cv: 0.2}    #   {law: empirical, file: samples.txt}; default deterministic
///     stages:                          # exceptions, by stage 0..n: `work` is w_i (not for 0), `size` delta_i
///       2: {work: {law: empirical, file: s2.txt}}
///       0: {size: exponential}
/// for a pipeline of n stages. uniform, lognormal and gamma need a cv; deterministic, exponential and empirical take
/// none (UnitLaw::cv_error says which cv are accepted and why). An empirical file has one number >= 0 per line
/// (blank lines and `#` comments skipped), at least one, a positive mean, at most max_empirical_samples; an error in
/// it names the sample file and its line, and the scenario key. Every error is an InputError naming file, line, key
/// and value.
VariabilitySpec parse_variability_spec(const YamlNode& node, int n, const FileResolver& resolve);

/// The samples of an empirical law's file; `key` (the scenario's file:line and key) is named in errors.
std::vector<double> read_samples(const std::string& path, const std::string& key);

} // namespace pipesim

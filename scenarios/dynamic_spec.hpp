// Reading the `dynamic:` section of a scenario: re-mapping during the run (DESIGN.md §3.12, docs/dynamic.md).
#pragma once

#include "base/enum_names.hpp"
#include "base/yaml_node.hpp"
#include "simulator/remap.hpp"

#include <set>
#include <string>

namespace pipesim {

/// The policies of DESIGN.md §3.12 (validation/evaluation/remap_policies.hpp builds them).
enum class RemapPolicyKind {
  static_mapping, // never re-maps (the controller still measures: what it costs)
  periodic,       // every `period` s, re-maps on the measured model when the mapper's answer differs
  threshold,      // when the measured period exceeds the predicted one by `threshold` % for `windows` windows
  clairvoyant,    // knows the profiles: re-maps at every change, on the platform of that date, at no cost
  registered      // a policy registered by name from outside (written in Python: @pipesim.policy), DynamicSpec::name
};
PIPESIM_ENUM_NAMES(RemapPolicyKind, {static_mapping, "static"}, {periodic, "periodic"}, {threshold, "threshold"},
                   {clairvoyant, "clairvoyant"}, {registered, "registered"});

/// The names of the registered policies (validation/evaluation/remap_policies.hpp, register_remap_policy, fills it):
/// what `dynamic.policy` accepts besides the built-in ones.
std::set<std::string>& registered_policy_names();

struct DynamicSpec {
  RemapPolicyKind policy = RemapPolicyKind::static_mapping;
  std::string name;      // registered: the policy's name
  std::string mapper;    // the mapper the policy runs (empty: the scenario's `mapper`)
  double period    = 0;  // periodic: T, s
  double threshold = 10; // threshold: x, % above the predicted period
  int windows      = 2;  // threshold: k windows in a row
  RemapSettings remap;   // window 0: simulation.window or its default; check 0: half a window at the predicted period
  int line = 0;
  /// What `dynamic.policy` said: the built-in policy's name or the registered one's.
  std::string policy_name() const { return policy == RemapPolicyKind::registered ? name : to_string(policy); }
};

/// Reads `dynamic:` {policy, mapper, period, threshold, windows, window, check, cost, state, restart, on_crash,
/// detect};
/// `n` stages (for `state` as a list). Every problem is an InputError naming file, line, key and value.
DynamicSpec parse_dynamic_spec(const YamlNode& node, int n);

} // namespace pipesim

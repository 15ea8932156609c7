// The `dynamic:` section of a scenario, read strictly (dynamic_spec.hpp).
//
// Choices:
// - `period` only with periodic (required there), `threshold` and `windows` only with threshold: a key that does not
//   apply is an error, as in `simulation.failures`.
// - `cost: handover` with `on_crash: remap` is refused: repairs drain (docs/dynamic.md, "Handover").
// - `detect` (d, s from a crash to its detection) only with `on_crash: remap`.
// - `state` is one number (every stage) or one per stage, bytes >= 0.
// - `policy` is a built-in policy or one registered when the scenario is read (a Python one: registered before the
//   scenario is loaded), so a misspelt name fails here with its line, as a misspelt built-in one does.
#include "scenarios/dynamic_spec.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace pipesim {

std::set<std::string>& registered_policy_names()
{
  static std::set<std::string> names;
  return names;
}

namespace {
void parse_policy_name(const YamlNode& node, DynamicSpec& spec)
{
  const std::string value = node.as_string();
  auto builtin            = from_string<RemapPolicyKind>(value);
  if (builtin && *builtin != RemapPolicyKind::registered) {
    spec.policy = *builtin;
    return;
  }
  if (registered_policy_names().contains(value)) {
    spec.policy = RemapPolicyKind::registered;
    spec.name   = value;
    return;
  }
  const auto& names = registered_policy_names();
  node.fail(fmt::format("expected static, periodic, threshold or clairvoyant, or a registered policy ({})",
                        names.empty() ? std::string("none registered: @pipesim.policy in Python registers one")
                                      : fmt::format("registered: {}", fmt::join(names, ", "))));
}

void parse_state(const YamlNode& node, int n, RemapSettings& remap)
{
  if (node.is_scalar()) {
    remap.state.assign(static_cast<std::size_t>(n), node.as_nonnegative());
    return;
  }
  if (!node.is_sequence()) node.fail(fmt::format("expected bytes >= 0, or a list of {} (one per stage)", n));
  std::vector<YamlNode> items = node.items();
  if (static_cast<int>(items.size()) != n)
    node.fail(fmt::format("expected {} sizes (one per stage), got {}", n, items.size()));
  for (const YamlNode& item : items)
    remap.state.push_back(item.as_nonnegative());
}

void parse_policy_keys(const YamlNode& node, DynamicSpec& spec)
{
  auto only = [&](const char* key, RemapPolicyKind kind) {
    auto found = node.find(key);
    if (found && spec.policy != kind)
      found->fail_key(fmt::format("'{}' applies to policy {} only", key, to_string(kind)));
    return found;
  };
  if (auto period = only("period", RemapPolicyKind::periodic))
    spec.period = period->as_positive();
  else if (spec.policy == RemapPolicyKind::periodic)
    node.fail_key("policy periodic needs 'period' (seconds > 0)");
  if (auto threshold = only("threshold", RemapPolicyKind::threshold)) spec.threshold = threshold->as_nonnegative();
  if (auto windows = only("windows", RemapPolicyKind::threshold)) spec.windows = windows->as_int_at_least(1);
}
} // namespace

DynamicSpec parse_dynamic_spec(const YamlNode& node, int n)
{
  DynamicSpec spec;
  spec.line = node.line();
  node.require_map();
  node.allow_only({"policy", "mapper", "period", "threshold", "windows", "window", "check", "cost", "state", "restart",
                   "on_crash", "detect"});
  if (auto policy = node.find("policy")) parse_policy_name(*policy, spec);
  if (auto mapper = node.find("mapper")) {
    spec.mapper = mapper->as_string();
    if (spec.mapper.empty()) mapper->fail("expected a mapper name");
  }
  parse_policy_keys(node, spec);
  spec.remap.window = 0;
  spec.remap.check  = 0;
  if (auto window = node.find("window")) spec.remap.window = window->as_int_at_least(1);
  if (auto check = node.find("check")) spec.remap.check = check->as_positive();
  if (auto cost = node.find("cost")) spec.remap.cost = cost->as_enum<RemapCost>("cost");
  if (auto state = node.find("state")) parse_state(*state, n, spec.remap);
  if (auto restart = node.find("restart")) spec.remap.restart = restart->as_nonnegative();
  if (auto on_crash = node.find("on_crash")) {
    const std::string value = on_crash->as_string();
    if (value != "none" && value != "remap") on_crash->fail("expected none or remap");
    spec.remap.repair = value == "remap";
  }
  if (auto cost = node.find("cost"); cost && spec.remap.cost == RemapCost::handover && spec.remap.repair)
    cost->fail("with on_crash: remap is not built (a crash repair drains): use cost drain (docs/dynamic.md, "
               "\"Handover\")");
  if (auto detect = node.find("detect")) {
    if (!spec.remap.repair) detect->fail_key("'detect' applies to on_crash: remap only");
    spec.remap.detect = detect->as_nonnegative();
  }
  return spec;
}

} // namespace pipesim

// The failure model of a scenario: reading it strictly and checking trace hosts against the platform.
//
// Choices:
// - The string form takes the models that need no parameter; `trace` has to be the map form (its crashes).
// - A key that does not apply to the model given (`window` without probability, `crashes` without trace) is an
//   error, not ignored, as for the multi-port keys of `simulation`.
// - `window` is capped at 1e6 (the bound draw_crash_schedule accepts) so a scenario that parses can be drawn.
// - `crashes: []` is allowed: a trace without crashes (a campaign may sweep it next to others).
#include "scenarios/failure_spec.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace pipesim {

namespace {

constexpr double max_window_end = 1e6;

FailureModel parse_model_name(const YamlNode& node) { return node.as_enum<FailureModel>("failure model"); }

void parse_window(const YamlNode& node, FailureSettings& failures)
{
  const char* expected = "expected [begin, end] with 0 <= begin <= end <= 1e6 (fractions of the fault-free makespan)";
  if (!node.is_sequence()) node.fail(expected);
  std::vector<YamlNode> items = node.items();
  if (items.size() != 2) node.fail(expected);
  failures.window_begin = items[0].as_nonnegative();
  failures.window_end   = items[1].as_nonnegative();
  if (failures.window_begin > failures.window_end || failures.window_end > max_window_end) node.fail(expected);
}

std::vector<Crash> parse_crashes(const YamlNode& node)
{
  std::vector<Crash> crashes;
  for (const YamlNode& item : node.items()) {
    item.require_map();
    item.allow_only({"host", "time"});
    Crash crash;
    const YamlNode host = item.at("host");
    crash.host          = host.as_string();
    if (crash.host.empty()) host.fail("expected a host name");
    crash.time = item.at("time").as_nonnegative();
    crashes.push_back(std::move(crash));
  }
  return crashes;
}

/// "P1, P2, ..., P10" (at most `shown` names, then how many more).
std::string processor_list(const Platform& platform, int shown = 10)
{
  std::string list;
  for (int u = 0; u < platform.p() && u < shown; ++u)
    list += (u ? ", " : "") + platform.processor(u).name;
  if (platform.p() > shown) list += fmt::format(", ... ({} more)", platform.p() - shown);
  return list;
}

} // namespace

FailureSettings parse_failure_settings(const YamlNode& node)
{
  FailureSettings failures;
  if (node.is_scalar()) {
    failures.model = parse_model_name(node);
    if (failures.model == FailureModel::trace)
      node.fail("the trace model needs its crashes: {model: trace, crashes: [{host: P1, time: 0.5}, ...]}");
    return failures;
  }
  if (!node.is_map())
    node.fail(
        fmt::format("expected a failure model ({}) or a mapping {{model: ..., ...}}", enum_name_list<FailureModel>()));
  node.allow_only({"model", "window", "crashes", "election"});
  failures.model = parse_model_name(node.at("model"));
  if (auto window = node.find("window")) {
    if (failures.model != FailureModel::probability) window->fail_key("'window' applies to the probability model only");
    parse_window(*window, failures);
  }
  if (auto crashes = node.find("crashes")) {
    if (failures.model != FailureModel::trace) crashes->fail_key("'crashes' applies to the trace model only");
    failures.trace = parse_crashes(*crashes);
  } else if (failures.model == FailureModel::trace) {
    node.fail_key("the trace model needs 'crashes': [{host: P1, time: 0.5}, ...]");
  }
  if (auto election = node.find("election")) failures.election = election->as_enum<ElectionPolicy>("election policy");
  return failures;
}

void check_failure_settings(const YamlNode& node, const FailureSettings& failures, const PlatformSpec& platform)
{
  if (failures.model == FailureModel::platform && platform.kind != PlatformSpec::Kind::xml) {
    const YamlNode model = node.is_map() ? node.at("model") : node;
    model.fail("the platform model runs the host state profiles of a SimGrid XML platform: it needs platform.file "
               "(this scenario's platform is given in YAML)");
  }
  if (failures.model != FailureModel::trace || platform.kind != PlatformSpec::Kind::model) return;
  for (const YamlNode& item : node.at("crashes").items()) {
    const YamlNode host = item.at("host");
    if (!model_platform(platform).find(host.as_string()))
      host.fail(fmt::format("not a processor of the platform (expected one of: {})",
                            processor_list(model_platform(platform))));
  }
}

} // namespace pipesim

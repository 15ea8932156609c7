// Host patterns, what-if edits: parsing, description, and their effect on a platform built from YAML.
#include "platforms/platform_edits.hpp"

#include "base/input_error.hpp"
#include "base/yaml_node.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <fnmatch.h>
#include <regex>

namespace pipesim {

namespace {

bool regex_matches(const std::string& pattern, const std::string& name)
{
  return std::regex_match(name, std::regex(pattern, std::regex::ECMAScript));
}

bool item_matches(const PatternItem& item, const std::string& name, const std::vector<std::string>& zones)
{
  switch (item.kind) {
  case PatternItem::Kind::glob:
    return ::fnmatch(item.text.c_str(), name.c_str(), 0) == 0;
  case PatternItem::Kind::regex:
    return regex_matches(item.text, name);
  case PatternItem::Kind::zone:
    return std::ranges::any_of(zones,
                               [&](const std::string& z) { return ::fnmatch(item.text.c_str(), z.c_str(), 0) == 0; });
  }
  return false;
}

std::string item_text(const PatternItem& item)
{
  switch (item.kind) {
  case PatternItem::Kind::glob:
    return item.text;
  case PatternItem::Kind::regex:
  case PatternItem::Kind::zone:
    return fmt::format("{{{}: {}}}", item.kind, item.text);
  }
  return item.text;
}

/// What std::regex cannot take safely, found by fuzz_edits: its compiler recurses once per term (a pattern of 40,000
/// characters overflowed the stack), multiplies a quantifier or back-reference number without an overflow check
/// (a back-reference `\6666666666666666666` is undefined behaviour in libstdc++ 12) and unrolls `{n}` into n copies
/// (`a{100000000}` would exhaust memory). Refused: patterns over 256 characters, numbers of more than 4 digits after a
/// backslash or inside braces.
void refuse_unsafe_regex(const YamlNode& value, const std::string& text)
{
  constexpr std::size_t max_length = 256;
  if (text.size() > max_length)
    value.fail(fmt::format("expected a regular expression of at most {} characters, got {}", max_length, text.size()));
  bool counted       = false; // after a backslash, or inside braces: a number std::regex reads
  std::size_t digits = 0;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      if (counted && ++digits > 4)
        value.fail("expected a regular expression whose back-references and {n,m} bounds have at most 4 digits");
      continue;
    }
    digits  = 0;
    counted = c == '\\' || c == '{' || (c == ',' && counted);
  }
}

PatternItem parse_item(const YamlNode& node)
{
  if (node.is_scalar()) {
    PatternItem item{PatternItem::Kind::glob, node.as_string()};
    if (item.text.empty()) node.fail("expected a host name or glob");
    return item;
  }
  if (!node.is_map()) node.fail("expected a glob, or a map {glob|regex|zone: text}");
  node.allow_only({"glob", "regex", "zone"});
  auto keys = node.keys();
  if (keys.size() != 1) node.fail("expected exactly one of glob, regex, zone");
  YamlNode value = node.at(keys.front());
  PatternItem item;
  item.kind = *from_string<PatternItem::Kind>(keys.front()); // allow_only checked the key
  item.text = value.as_string();
  if (item.text.empty()) value.fail("expected a non-empty pattern");
  if (item.kind == PatternItem::Kind::regex) {
    refuse_unsafe_regex(value, item.text);
    try {
      std::regex check(item.text, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      value.fail(fmt::format("not a valid regular expression ({})", e.what()));
    }
  }
  return item;
}

std::vector<std::string> link_globs(const YamlNode& node)
{
  std::vector<std::string> globs;
  if (node.is_scalar())
    globs.push_back(node.as_string());
  else if (node.is_sequence())
    for (const auto& item : node.items())
      globs.push_back(item.as_string());
  else
    node.fail("expected a link name or glob, or a list of them");
  for (const auto& g : globs)
    if (g.empty()) node.fail("expected non-empty link names");
  if (globs.empty()) node.fail("expected at least one link name or glob");
  return globs;
}

PlatformEdit parse_edit(const YamlNode& node)
{
  if (!node.is_map())
    node.fail("expected an edit, a map such as {scale_bandwidth: 0.5, links: backbone} (docs/whatif.md)");
  PlatformEdit edit;
  edit.file = node.file();
  edit.line = node.line();
  edit.key  = node.path();
  using K   = PlatformEdit::Kind;
  std::optional<K> action;
  for (K k : enum_values<K>())
    if (node.has(to_string(k))) {
      if (action) node.fail_key(fmt::format("an edit has one action; found both '{}' and '{}'", *action, k));
      action = k;
    }
  if (!action) node.fail_key("an edit needs one action: " + enum_alternatives<K>());
  edit.kind       = *action;
  const char* key = to_string(edit.kind);
  switch (edit.kind) {
  case K::scale_speed:
  case K::scale_failure_probability:
    node.allow_only({key, "hosts"});
    edit.value = node.at(key).as_positive();
    edit.hosts = parse_host_pattern(node.at("hosts"));
    break;
  case K::set_failure_probability:
    node.allow_only({key, "hosts"});
    edit.value = node.at(key).as_probability();
    edit.hosts = parse_host_pattern(node.at("hosts"));
    break;
  case K::remove_hosts:
    node.allow_only({key});
    edit.hosts = parse_host_pattern(node.at(key));
    break;
  case K::scale_bandwidth:
  case K::scale_latency: {
    node.allow_only({key, "links", "route"});
    edit.value = edit.kind == K::scale_bandwidth ? node.at(key).as_positive() : node.at(key).as_nonnegative();
    if (node.has("links") == node.has("route"))
      node.fail_key("give exactly one of 'links' (link names or globs) or 'route' (two host names)");
    if (auto links = node.find("links")) edit.links = link_globs(*links);
    if (auto route = node.find("route")) {
      auto ends = route->items();
      if (ends.size() != 2 || ends[0].as_string().empty() || ends[1].as_string().empty())
        route->fail("expected two host names [from, to]");
      if (ends[0].as_string() == ends[1].as_string()) route->fail("expected two different hosts");
      edit.route = std::pair{ends[0].as_string(), ends[1].as_string()};
    }
    break;
  }
  case K::fail_link:
    node.allow_only({key, "at"});
    edit.links = link_globs(node.at(key));
    edit.at    = node.has("at") ? node.at("at").as_nonnegative() : 0.0;
    break;
  }
  return edit;
}

} // namespace

bool HostPattern::matches(const std::string& name, const std::vector<std::string>& zones) const
{
  return std::ranges::any_of(items, [&](const PatternItem& item) { return item_matches(item, name, zones); });
}

std::string HostPattern::describe() const
{
  std::vector<std::string> texts;
  for (const auto& item : items)
    texts.push_back(item_text(item));
  return fmt::format("{}", fmt::join(texts, ", "));
}

bool HostPattern::uses_zones() const
{
  return std::ranges::any_of(items, [](const PatternItem& i) { return i.kind == PatternItem::Kind::zone; });
}

std::string PlatformEdit::describe() const
{
  using K = PlatformEdit::Kind;
  switch (kind) {
  case K::scale_speed:
  case K::set_failure_probability:
  case K::scale_failure_probability:
    return fmt::format("{} {} on hosts {}", kind, value, hosts.describe());
  case K::remove_hosts:
    return fmt::format("{} {}", kind, hosts.describe());
  case K::scale_bandwidth:
  case K::scale_latency:
    if (route) return fmt::format("{} {} on the route {} <-> {}", kind, value, route->first, route->second);
    return fmt::format("{} {} on links {}", kind, value, fmt::join(links, ", "));
  case K::fail_link:
    return fmt::format("{} {} at {} s", kind, fmt::join(links, ", "), at);
  }
  return "?";
}

void PlatformEdit::fail(const std::string& what) const { throw InputError::at(file, line, key, describe(), what); }

bool PlatformEdit::on_links() const
{
  return kind == Kind::scale_bandwidth || kind == Kind::scale_latency || kind == Kind::fail_link;
}

HostPattern parse_host_pattern(const YamlNode& node)
{
  HostPattern pattern;
  pattern.file = node.file();
  pattern.line = node.line();
  pattern.key  = node.path();
  if (node.is_sequence()) {
    for (const auto& item : node.items())
      pattern.items.push_back(parse_item(item));
    if (pattern.items.empty()) node.fail("expected at least one host name, glob, {regex: ...} or {zone: ...}");
  } else {
    pattern.items.push_back(parse_item(node));
  }
  return pattern;
}

std::vector<PlatformEdit> parse_platform_edits(const YamlNode& node)
{
  if (!node.is_sequence()) node.fail("expected a list of edits");
  std::vector<PlatformEdit> edits;
  for (const auto& item : node.items())
    edits.push_back(parse_edit(item));
  return edits;
}

namespace {

std::vector<int> select_processors(const HostPattern& pattern, const std::vector<std::string>& names,
                                   const std::function<std::vector<std::string>(int)>& zones_of)
{
  std::vector<int> selected;
  std::vector<bool> item_used(pattern.items.size(), false);
  for (int u = 0; u < static_cast<int>(names.size()); ++u) {
    std::vector<std::string> zones = pattern.uses_zones() ? zones_of(u) : std::vector<std::string>{};
    bool any                       = false;
    for (std::size_t i = 0; i < pattern.items.size(); ++i)
      if (item_matches(pattern.items[i], names[static_cast<std::size_t>(u)], zones)) {
        item_used[i] = true;
        any          = true;
      }
    if (any) selected.push_back(u);
  }
  for (std::size_t i = 0; i < pattern.items.size(); ++i)
    if (!item_used[i])
      throw InputError::at(pattern.file, pattern.line, pattern.key, item_text(pattern.items[i]),
                           "this pattern matches no processor of the platform (io hosts and removed hosts are not "
                           "processors)");
  return selected;
}

/// A host edit on the processors left; zones_of takes a candidate index.
void edit_processors(EditedProcessors& state, const PlatformEdit& edit,
                     const std::function<std::vector<std::string>(int)>& zones_of, AppliedEdit& record)
{
  std::vector<Processor>& processors = state.processors;
  auto zones_left                    = [&](int u) { return zones_of(state.origin[static_cast<std::size_t>(u)]); };
  std::vector<std::string> names;
  for (const auto& p : processors)
    names.push_back(p.name);
  std::vector<int> match;
  try {
    match = select_processors(edit.hosts, names, zones_left);
  } catch (const InputError&) {
    edit.fail(fmt::format("{} matches no processor of the platform (io hosts and removed hosts are not "
                          "processors)",
                          edit.hosts.describe()));
  }
  using K = PlatformEdit::Kind;
  for (int u : match) {
    Processor& proc = processors[static_cast<std::size_t>(u)];
    record.matched.push_back(proc.name);
    if (edit.kind == K::scale_speed) proc.speed *= edit.value;
    if (edit.kind == K::set_failure_probability) proc.failure_probability = edit.value;
    if (edit.kind == K::scale_failure_probability) {
      double f = proc.failure_probability * edit.value;
      if (!(f < 1))
        edit.fail(fmt::format("host '{}': failure probability {} x {} = {} is not below 1", proc.name,
                              proc.failure_probability, edit.value, f));
      proc.failure_probability = f;
    }
  }
  if (edit.kind == K::remove_hosts) {
    if (match.size() == processors.size()) edit.fail("removes every processor of the platform");
    EditedProcessors left;
    for (int u = 0; u < static_cast<int>(processors.size()); ++u)
      if (!std::ranges::binary_search(match, u)) {
        left.processors.push_back(processors[static_cast<std::size_t>(u)]);
        left.origin.push_back(state.origin[static_cast<std::size_t>(u)]);
      }
    state.processors = std::move(left.processors);
    state.origin     = std::move(left.origin);
  }
}

} // namespace

EditedProcessors select_and_edit(const std::vector<std::string>& names, const PlatformOptions& options,
                                 const std::function<Processor(int)>& read,
                                 const std::function<std::vector<std::string>(int)>& zones_of,
                                 const std::function<void(const PlatformEdit&, AppliedEdit&)>& on_link)
{
  EditedProcessors state;
  if (options.hosts.empty())
    for (int u = 0; u < static_cast<int>(names.size()); ++u)
      state.origin.push_back(u);
  else
    state.origin = select_processors(options.hosts, names, zones_of);
  for (int u : state.origin)
    state.processors.push_back(read(u));
  for (const auto& edit : options.edits) {
    AppliedEdit record{edit.describe(), {}};
    if (edit.on_links())
      on_link(edit, record);
    else
      edit_processors(state, edit, zones_of, record);
    state.records.push_back(std::move(record));
  }
  return state;
}

Platform apply_platform_options(const Platform& platform, const PlatformOptions& options)
{
  if (options.empty()) return platform;
  auto check_model = [](const HostPattern& pattern) {
    if (pattern.uses_zones())
      throw InputError::at(pattern.file, pattern.line, pattern.key,
                           "zone patterns need a SimGrid XML platform (platform.file); this platform has no zones");
  };
  check_model(options.hosts);
  for (const auto& edit : options.edits)
    check_model(edit.hosts);
  std::vector<std::string> names;
  for (const auto& p : platform.processors())
    names.push_back(p.name);
  // route edits act on the original pairs; collect the factors per original ordered pair
  auto n = static_cast<std::size_t>(platform.nodes());
  std::vector<double> b_factor(n * n, 1.0), c_factor(n * n, 1.0);
  auto route_edit = [&](const PlatformEdit& edit, AppliedEdit& record) {
    if (!edit.route)
      edit.fail("link names and fail_link need a SimGrid XML platform (platform.file); on a platform "
                "written in YAML, scale a pair's values with route: [from, to]");
    auto node_of = [&](const std::string& name) {
      if (name == platform.in_name()) return platform.in();
      if (name == platform.out_name()) return platform.out();
      if (auto u = platform.find(name)) return *u;
      edit.fail(fmt::format("host '{}' is not in the platform", name));
    };
    int a = node_of(edit.route->first), b = node_of(edit.route->second);
    for (auto [u, v] : {std::pair{a, b}, std::pair{b, a}}) {
      auto k = static_cast<std::size_t>(u) * n + static_cast<std::size_t>(v);
      (edit.kind == PlatformEdit::Kind::scale_bandwidth ? b_factor : c_factor)[k] *= edit.value;
    }
    record.matched = {edit.route->first, edit.route->second};
  };
  EditedProcessors edited = select_and_edit(
      names, options, [&](int u) { return platform.processor(u); }, [](int) { return std::vector<std::string>{}; },
      route_edit);
  // the platform on the processors left, P_in and P_out
  std::vector<int> origin = edited.origin;
  origin.push_back(platform.in());
  origin.push_back(platform.out());
  Platform out(std::move(edited.processors), platform.in_name(), platform.out_name());
  for (int u = 0; u < out.nodes(); ++u)
    for (int v = 0; v < out.nodes(); ++v) {
      if (u == v) continue;
      int ou = origin[static_cast<std::size_t>(u)], ov = origin[static_cast<std::size_t>(v)];
      if (ou == ov) { // P_in and P_out on one host
        out.set_link(u, v, platform.bandwidth(ou, ov), platform.latency(ou, ov));
        continue;
      }
      auto k = static_cast<std::size_t>(ou) * n + static_cast<std::size_t>(ov);
      out.set_link(u, v, platform.bandwidth(ou, ov) * b_factor[k], platform.latency(ou, ov) * c_factor[k]);
    }
  out.set_xml_file(platform.xml_file());
  out.set_applied_edits(std::move(edited.records));
  out.set_profiles(platform.profiles()); // by host name: a removed host's profiles no longer apply
  return out;
}

} // namespace pipesim

// Host selection and what-if edits of a platform (issue 7, DESIGN.md §6): `platform.hosts` and `platform.edits`.
#pragma once

#include "base/enum_names.hpp"
#include "platforms/platform.hpp"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pipesim {

class YamlNode;

/// One item of a host pattern: a glob over host names ("b-*", "node-[1-4]"), a regular expression over host names
/// (ECMAScript, whole name), or a glob over zone names (a host is in a zone when the zone or one of its ancestors
/// has that name).
struct PatternItem {
  enum class Kind { glob, regex, zone } kind = Kind::glob;
  std::string text;
};
PIPESIM_ENUM_NAMES(PatternItem::Kind, {glob, "glob"}, {regex, "regex"}, {zone, "zone"}); // the keys of the map form

/// A list of pattern items, matching a host when any item does. `where` locates it in its file for messages.
struct HostPattern {
  std::vector<PatternItem> items;
  std::string file;
  int line = 0;
  std::string key; // dotted key, e.g. "platform.edits[2].hosts"

  bool empty() const { return items.empty(); }
  /// True when a host named `name` in the zones `zones` (innermost first) matches.
  bool matches(const std::string& name, const std::vector<std::string>& zones = {}) const;
  /// "b-*, {zone: ca}" as written.
  std::string describe() const;
  bool uses_zones() const;
};

/// One edit of `platform.edits`, applied in file order.
struct PlatformEdit {
  enum class Kind {
    scale_speed,               // s_u *= value for the matching processors
    scale_bandwidth,           // bandwidth *= value for the matching links, or the links of the route both ways
    scale_latency,             // latency *= value, idem
    remove_hosts,              // the matching processors are no longer processors
    set_failure_probability,   // f_u = value
    scale_failure_probability, // f_u *= value (the result must stay below 1)
    fail_link,                 // the matching links turn off at time `at` (SimGrid link state change)
  } kind       = Kind::scale_speed;
  double value = 1;
  HostPattern hosts;                                        // host edits
  std::vector<std::string> links;                           // link globs (SimGrid XML platforms)
  std::optional<std::pair<std::string, std::string>> route; // scale_bandwidth / scale_latency alternative to links
  double at = 0;                                            // fail_link: time (s)
  std::string file;
  int line = 0;
  std::string key; // "platform.edits[2]"

  /// One line, as a user would write it: "scale_bandwidth 0.5 on links backbone".
  std::string describe() const;
  /// Throws InputError "file:line: key 'platform.edits[2]': value '<describe()>': what".
  [[noreturn]] void fail(const std::string& what) const;
  /// Edits that change SimGrid links (only on XML platforms, or route edits).
  bool on_links() const;
};
/// The keys of the edits' actions.
PIPESIM_ENUM_NAMES(PlatformEdit::Kind, {scale_speed, "scale_speed"}, {scale_bandwidth, "scale_bandwidth"},
                   {scale_latency, "scale_latency"}, {remove_hosts, "remove_hosts"},
                   {set_failure_probability, "set_failure_probability"},
                   {scale_failure_probability, "scale_failure_probability"}, {fail_link, "fail_link"});

/// Selection and edits of a platform, as the scenario gives them.
struct PlatformOptions {
  HostPattern hosts; // empty: every host except the io hosts
  std::vector<PlatformEdit> edits;
  bool empty() const { return hosts.empty() && edits.empty(); }
};

/// `platform.hosts`: a string, a list of strings or of {glob|regex|zone: text} maps.
HostPattern parse_host_pattern(const YamlNode& node);
/// `platform.edits`: a list of edits (docs/whatif.md gives the forms). Errors name file, line, key and value.
std::vector<PlatformEdit> parse_platform_edits(const YamlNode& node);

/// The processors a selection and a list of edits leave, and what each edit matched.
struct EditedProcessors {
  std::vector<Processor> processors;
  std::vector<int> origin;          // index in the candidate list of each processor left
  std::vector<AppliedEdit> records; // one per edit, in order
};

/// The shared step of both kinds of platforms: `options.hosts` selects among the candidates `names` (every one when
/// empty), `read(i)` makes the processor of candidate i (called for the selected ones only), then the edits apply in
/// order: host edits (scale_speed, remove_hosts, the failure edits) on the processors, link edits through `on_link`,
/// which records what they matched. `zones_of(i)` gives the zones of candidate i, innermost first (called only for
/// zone patterns). A pattern item that matches no processor, a failure probability scaled to 1 or more or the removal
/// of every processor is an InputError naming its file, line and pattern.
EditedProcessors select_and_edit(const std::vector<std::string>& names, const PlatformOptions& options,
                                 const std::function<Processor(int)>& read,
                                 const std::function<std::vector<std::string>(int)>& zones_of,
                                 const std::function<void(const PlatformEdit&, AppliedEdit&)>& on_link);

/// Applies selection and edits to a platform built from YAML (no SimGrid links, no zones): selection keeps the
/// matching processors; scale_speed, remove_hosts and the failure edits act on processors; a route edit scales
/// b_{u,v} and c_{u,v} of the pair both ways. Link-name edits, zone patterns and fail_link need a SimGrid XML platform
/// (InputError). An edit or a selection pattern that matches nothing is an InputError naming its file, line and
/// pattern. The edits' records are in the result's applied_edits().
Platform apply_platform_options(const Platform& platform, const PlatformOptions& options);

} // namespace pipesim

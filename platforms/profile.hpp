// Time-varying platforms (DESIGN.md §3.11): piecewise-constant profiles of a host's speed and state, of a link's
// bandwidth and latency, and the platform model at a given date.
#pragma once

#include "base/enum_names.hpp"

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

class Platform;

/// What a profile changes.
enum class ProfileKind { speed, state, bandwidth, latency };
PIPESIM_ENUM_NAMES(ProfileKind, {speed, "speed"}, {state, "state"}, {bandwidth, "bandwidth"}, {latency, "latency"});

/// One change: `value` from `date` on.
struct ProfilePoint {
  double date                                = 0;
  double value                               = 0;
  bool operator==(const ProfilePoint&) const = default;
};

/// A piecewise-constant function of time, as SimGrid runs a deterministic profile: the resource keeps its own value
/// before the first date, takes `points[i].value` from `points[i].date` on and, when `period` > 0, repeats the points
/// every `period` seconds (point i again at date_i + k period); between two repetitions it keeps the last value.
/// Invariants (checked where profiles are read): dates >= 0 and strictly increasing, period 0 or > last date - first
/// date. `source` says where it came from (a profile file, or "FILE:LINE" of the scenario) for messages and output.
struct Profile {
  std::vector<ProfilePoint> points;
  double period = 0;
  std::string source;

  /// The value at time t (the last change at a date <= t), or `before` when no change happened yet.
  double value_at(double t, double before) const;
  /// Every date < horizon at which the value may change, in increasing order (at most `limit` of them).
  std::vector<double> change_dates(double horizon, std::size_t limit = std::numeric_limits<std::size_t>::max()) const;
  /// Smallest and largest value the profile ever takes (its points).
  double lowest() const;
  double highest() const;
  bool operator==(const Profile& o) const { return points == o.points && period == o.period; }
};

/// Profiles of one host, as ratios of its nominal values (speed: of s_u; nic_in / nic_out: of Bin_u / Bout_u, the
/// multi-port cards of a model platform) and its state (> 0 on, 0 off). `from_xml`: SimGrid loads the profile with the
/// XML platform (speed_file, state_file); pipesim only reads it for its model.
struct HostProfiles {
  std::string host;
  std::optional<Profile> speed;
  std::optional<Profile> state;
  std::optional<Profile> nic_in;
  std::optional<Profile> nic_out;
  bool speed_from_xml = false;
  bool state_from_xml = false;
  std::string source; // "FILE:LINE" of the scenario's entry (empty: from the XML)
};

/// Profiles of the link u -> v of a model platform (YAML: one SimGrid link per ordered pair), as ratios of b_{u,v} and
/// c_{u,v}. `from` and `to` are host names; an io host name stands for P_in as `from` and for P_out as `to`.
struct PairProfiles {
  std::string from;
  std::string to;
  std::optional<Profile> bandwidth;
  std::optional<Profile> latency;
  std::string source; // "FILE:LINE" of the scenario's entry
};

/// Profiles of a SimGrid link of an XML platform (bandwidth_file, latency_file, state_file), in SimGrid's absolute
/// values (bytes/s, s, > 0 on), with the link's own values (after what-if edits) that hold before their first dates.
struct LinkProfiles {
  std::string link;
  double bandwidth = 0;
  double latency   = 0;
  std::optional<Profile> bandwidth_profile;
  std::optional<Profile> latency_profile;
  std::optional<Profile> state_profile;
};

/// The links of the route u -> v (XML platform) when it crosses a profiled link: b_{u,v}(t) is the smallest bandwidth
/// of these links at t, c_{u,v}(t) the sum of their latencies.
struct ProfiledRoute {
  struct Hop {
    std::string link;
    double bandwidth = 0;
    double latency   = 0;
  };
  int from = 0;
  int to   = 0;
  std::vector<Hop> hops;
};

/// Every profile of a platform. Empty for a platform whose values never change.
struct PlatformProfiles {
  std::vector<HostProfiles> hosts;
  std::vector<PairProfiles> pairs;
  std::vector<LinkProfiles> links;
  std::vector<ProfiledRoute> routes;

  bool empty() const { return hosts.empty() && pairs.empty() && links.empty(); }
  const HostProfiles* host(const std::string& name) const;
  const LinkProfiles* link(const std::string& name) const;
  /// Some host may be turned off by a state profile.
  bool has_state() const;
};

/// The platform model at date t: s_u, Bin_u, Bout_u, b_{u,v} and c_{u,v} as the profiles set them then (a link that is
/// off makes its routes unreachable, b = 0). State profiles of hosts are not applied (a host that is off is a crash:
/// hosts_off_at). The result has no profiles.
Platform platform_at(const Platform& platform, double t);
/// The processors a state profile holds off at date t (by name).
std::vector<std::string> hosts_off_at(const Platform& platform, double t);
/// Every date in (0, horizon) at which some profile of the platform may change a value, increasing, no duplicates;
/// each profile contributes at most `limit` dates.
std::vector<double> profile_change_dates(const Platform& platform, double horizon,
                                         std::size_t limit = std::numeric_limits<std::size_t>::max());

} // namespace pipesim

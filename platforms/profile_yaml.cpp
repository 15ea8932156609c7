// `platform.profiles` of a scenario: explicit profiles, profile files, and the seeded epoch generator.
#include "platforms/profile_yaml.hpp"

#include "base/input_error.hpp"
#include "base/yaml_range.hpp"
#include "platforms/profile_file.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace pipesim {

namespace {

std::string where(const YamlNode& node) { return fmt::format("{}:{}", node.file(), node.line()); }

/// `[[date, value], ...]`: checked point by point (dates increasing, values of the kind).
Profile parse_points(const YamlNode& list, ProfileKind kind)
{
  if (!list.is_sequence()) list.fail("expected a list of [date, value] pairs");
  Profile profile;
  for (const YamlNode& item : list.items()) {
    auto xs = item.is_sequence() && item.items().size() == 2 ? std::optional(item.as_doubles()) : std::nullopt;
    if (!xs) item.fail("expected [date, value]: a date (s) and a ratio of the nominal value");
    std::optional<double> previous;
    if (!profile.points.empty()) previous = profile.points.back().date;
    if (auto why = profile_date_problem((*xs)[0], previous)) item.fail(*why);
    if (auto why = profile_value_problem(kind, (*xs)[1])) item.fail(*why);
    profile.points.push_back({(*xs)[0], (*xs)[1]});
  }
  if (profile.points.empty()) list.fail("expected at least one [date, value] pair");
  return profile;
}

/// A profile: `[[date, ratio], ...]`, `{points: [...], period: T}` or `{file: F}` (SimGrid's format, ratios too).
Profile parse_profile(const YamlNode& node, ProfileKind kind, const std::string& base_dir)
{
  Profile profile;
  if (node.is_sequence()) {
    profile = parse_points(node, kind);
  } else if (node.is_map() && node.has("file")) {
    node.allow_only({"file"});
    profile = read_profile_file(resolve_yaml_file(node.at("file"), base_dir), kind);
    return profile;
  } else if (node.is_map()) {
    node.allow_only({"points", "period"});
    profile = parse_points(node.at("points"), kind);
    if (auto period = node.find("period")) {
      double t = period->as_double();
      if (auto why = profile_period_problem(profile, t)) period->fail(*why);
      if (t <= profile.points.back().date)
        period->fail(fmt::format("the loop period must exceed the last date ({:g} s)", profile.points.back().date));
      profile.period = t;
    }
  } else {
    node.fail("expected [[date, ratio], ...], {points: [[date, ratio], ...], period: T} or {file: PATH}");
  }
  profile.source = where(node);
  return profile;
}

std::string processor_list(const Platform& platform)
{
  std::string list;
  for (const auto& proc : platform.processors())
    list += (list.empty() ? "" : ", ") + proc.name;
  return list;
}

HostProfiles parse_host(const YamlNode& item, const std::string& base_dir, const Platform* model)
{
  item.require_map();
  item.allow_only({"host", "speed", "state", "nic_in", "nic_out"});
  HostProfiles h;
  YamlNode host = item.at("host");
  h.host        = host.as_string();
  h.source      = where(item);
  if (model && !model->find(h.host))
    host.fail(fmt::format("not a processor of the platform (expected one of: {})", processor_list(*model)));
  if (!model)
    for (const char* card : {"nic_in", "nic_out"})
      if (auto c = item.find(card))
        c->fail_key("card profiles need a platform written in YAML (an XML platform's cards are host properties)");
  if (auto p = item.find("speed")) h.speed = parse_profile(*p, ProfileKind::speed, base_dir);
  if (auto p = item.find("state")) h.state = parse_profile(*p, ProfileKind::state, base_dir);
  if (auto p = item.find("nic_in")) h.nic_in = parse_profile(*p, ProfileKind::bandwidth, base_dir);
  if (auto p = item.find("nic_out")) h.nic_out = parse_profile(*p, ProfileKind::bandwidth, base_dir);
  return h;
}

/// A link entry: {from, to, bandwidth, latency, directed} gives the pair (and the reverse unless directed).
std::vector<PairProfiles> parse_link(const YamlNode& item, const std::string& base_dir, const Platform& model)
{
  item.require_map();
  item.allow_only({"from", "to", "bandwidth", "latency", "directed"});
  auto host = [&](const YamlNode& node) {
    std::string name = node.as_string();
    if (!model.find(name) && name != model.in_name() && name != model.out_name())
      node.fail(fmt::format("unknown host (expected one of: {}, {}{})", processor_list(model), model.in_name(),
                            model.io_same_host() ? "" : ", " + model.out_name()));
    return name;
  };
  PairProfiles pair;
  pair.from   = host(item.at("from"));
  pair.to     = host(item.at("to"));
  pair.source = where(item);
  if (pair.from == pair.to) item.at("to").fail("a link joins two different hosts (same as 'from')");
  if (auto p = item.find("bandwidth")) pair.bandwidth = parse_profile(*p, ProfileKind::bandwidth, base_dir);
  if (auto p = item.find("latency")) pair.latency = parse_profile(*p, ProfileKind::latency, base_dir);
  if (!pair.bandwidth && !pair.latency) item.fail_key("expected 'bandwidth' or 'latency' (a profile)");
  bool directed = false;
  if (auto d = item.find("directed")) directed = d->as_bool();
  std::vector<PairProfiles> out{pair};
  if (!directed) {
    std::swap(pair.from, pair.to);
    out.push_back(pair);
  }
  return out;
}

EpochGenerator parse_epoch_generator(const YamlNode& node)
{
  node.require_map();
  node.allow_only({"seed", "hosts", "epoch", "speed", "horizon"});
  EpochGenerator g;
  YamlNode seed = node.at("seed");
  if (seed.as_integer() < 0) seed.fail("expected an integer >= 0");
  g.seed    = static_cast<std::uint64_t>(seed.as_integer());
  g.epoch   = parse_range(node.at("epoch"), true);
  g.speed   = parse_range(node.at("speed"), true);
  g.horizon = node.at("horizon").as_positive();
  return g;
}

/// Adds `h` to `hosts`, or merges it into the entry of the same host (one profile of each kind per host).
void add_host(std::vector<HostProfiles>& hosts, HostProfiles h, const YamlNode& item)
{
  for (auto& old : hosts) {
    if (old.host != h.host) continue;
    auto merge = [&](std::optional<Profile>& mine, std::optional<Profile>& theirs, const char* kind) {
      if (!theirs) return;
      if (mine)
        item.fail_key(fmt::format("host '{}' already has a {} profile (from {}): SimGrid takes one per host", h.host,
                                  kind, mine->source));
      mine = std::move(theirs);
    };
    merge(old.speed, h.speed, "speed");
    merge(old.state, h.state, "state");
    merge(old.nic_in, h.nic_in, "nic_in");
    merge(old.nic_out, h.nic_out, "nic_out");
    return;
  }
  hosts.push_back(std::move(h));
}

} // namespace

Profile generate_epochs(const EpochGenerator& generator, const std::string& host)
{
  std::uint64_t key = 0xcbf29ce484222325ULL; // FNV-1a of the host name, mixed with the seed
  for (unsigned char c : host)
    key = (key ^ c) * 0x100000001b3ULL;
  Rng rng(generator.seed ^ key);
  Profile profile;
  profile.source = fmt::format("generate (seed {})", generator.seed);
  for (double date = 0; date < generator.horizon;) {
    profile.points.push_back({date, generator.speed.draw(rng)});
    date += generator.epoch.draw(rng);
  }
  return profile;
}

PlatformProfiles parse_profiles_yaml(const YamlNode& node, const std::string& base_dir, const Platform* model)
{
  node.require_map();
  node.allow_only({"hosts", "links", "generate"});
  PlatformProfiles profiles;
  if (auto hosts = node.find("hosts"))
    for (const YamlNode& item : hosts->items())
      add_host(profiles.hosts, parse_host(item, base_dir, model), item);
  if (auto links = node.find("links")) {
    if (!model)
      links->fail_key("the links of an XML platform take their profiles from the XML (bandwidth_file, latency_file)");
    std::map<std::pair<std::string, std::string>, std::string> seen;
    for (const YamlNode& item : links->items())
      for (PairProfiles& pair : parse_link(item, base_dir, *model)) {
        auto [it, fresh] = seen.emplace(std::make_pair(pair.from, pair.to), pair.source);
        if (!fresh)
          item.fail_key(
              fmt::format("the link {} -> {} already has profiles (from {})", pair.from, pair.to, it->second));
        profiles.pairs.push_back(std::move(pair));
      }
  }
  if (auto gen = node.find("generate")) {
    EpochGenerator g = parse_epoch_generator(*gen);
    std::vector<std::string> names;
    if (auto hosts = gen->find("hosts")) {
      for (const YamlNode& h : hosts->items()) {
        names.push_back(h.as_string());
        if (model && !model->find(names.back()))
          h.fail(fmt::format("not a processor of the platform (expected one of: {})", processor_list(*model)));
      }
    } else if (model) {
      for (const auto& proc : model->processors())
        names.push_back(proc.name);
    } else {
      gen->fail_key("missing key 'hosts': on an XML platform, name the hosts whose speed the epochs change");
    }
    for (const auto& name : names) {
      HostProfiles h;
      h.host   = name;
      h.source = where(*gen);
      h.speed  = generate_epochs(g, name);
      add_host(profiles.hosts, std::move(h), *gen);
    }
  }
  return profiles;
}

void merge_host_profiles(Platform& platform, const std::vector<HostProfiles>& scenario_hosts)
{
  PlatformProfiles profiles = platform.profiles();
  for (const HostProfiles& h : scenario_hosts) {
    auto fail = [&](const std::string& what) { // at the scenario's entry of the host (its source, "FILE:LINE")
      const std::size_t colon = h.source.rfind(':');
      const int line          = colon == std::string::npos ? 0 : std::atoi(h.source.c_str() + colon + 1);
      throw InputError::at(h.source.substr(0, colon), line, "platform.profiles", h.host, what);
    };
    if (!platform.find(h.host))
      fail(fmt::format("not a processor of the platform (expected one of: {})", processor_list(platform)));
    auto it = std::ranges::find_if(profiles.hosts, [&](const HostProfiles& x) { return x.host == h.host; });
    if (it == profiles.hosts.end()) {
      profiles.hosts.push_back(h);
      continue;
    }
    if (h.speed && it->speed) fail(fmt::format("the XML already gives it a speed profile ({})", it->speed->source));
    if (h.state && it->state) fail(fmt::format("the XML already gives it a state profile ({})", it->state->source));
    if (h.speed) it->speed = h.speed;
    if (h.state) it->state = h.state;
  }
  platform.set_profiles(std::move(profiles));
}

} // namespace pipesim

// JSON encoding of Platform; infinities travel as the string "inf".
#include "platforms/platform_json.hpp"

#include "base/input_error.hpp"
#include "platforms/profile_json.hpp"

#include <cmath>
#include <fmt/format.h>

namespace pipesim {

namespace {

using nlohmann::json;

json number(double x)
{
  if (std::isinf(x)) return x > 0 ? json("inf") : json("-inf");
  return json(x);
}

double to_double(const json& j, const std::string& where)
{
  if (j.is_number()) return j.get<double>();
  if (j.is_string() && j.get<std::string>() == "inf") return unbounded;
  if (j.is_string() && j.get<std::string>() == "-inf") return -unbounded;
  throw InputError::keyed("platform." + where, j.dump(), "platform JSON: expected a number or \"inf\"");
}

const json& member(const json& j, const char* key, const std::string& where)
{
  if (!j.is_object() || !j.contains(key))
    throw InputError::keyed(fmt::format("platform.{}.{}", where, key), "platform JSON: missing key");
  return j.at(key);
}

std::string to_string(const json& j, const std::string& where)
{
  if (!j.is_string()) throw InputError::keyed("platform." + where, j.dump(), "platform JSON: expected a string");
  return j.get<std::string>();
}

json matrix(const Platform& platform, bool bandwidth)
{
  json rows = json::array();
  for (int u = 0; u < platform.nodes(); ++u) {
    json row = json::array();
    for (int v = 0; v < platform.nodes(); ++v)
      row.push_back(number(bandwidth ? platform.bandwidth(u, v) : platform.latency(u, v)));
    rows.push_back(std::move(row));
  }
  return rows;
}

void read_links(const json& j, Platform& platform)
{
  const json& b = member(j, "bandwidth", "platform");
  const json& c = member(j, "latency", "platform");
  auto n        = static_cast<std::size_t>(platform.nodes());
  for (const json* m : {&b, &c}) {
    bool square = m->is_array() && m->size() == n;
    for (std::size_t u = 0; square && u < n; ++u)
      square = (*m)[u].is_array() && (*m)[u].size() == n;
    if (!square)
      throw InputError::keyed(m == &b ? "platform.bandwidth" : "platform.latency",
                              fmt::format("platform JSON: expected a {} x {} matrix (processors, in, out)", n, n));
  }
  for (std::size_t u = 0; u < n; ++u)
    for (std::size_t v = 0; v < n; ++v)
      if (u != v)
        platform.set_link(static_cast<int>(u), static_cast<int>(v),
                          to_double(b[u][v], fmt::format("bandwidth[{}][{}]", u, v)),
                          to_double(c[u][v], fmt::format("latency[{}][{}]", u, v)));
}

} // namespace

json platform_to_json(const Platform& platform, bool links)
{
  json processors = json::array();
  for (const auto& proc : platform.processors())
    processors.push_back({{"name", proc.name},
                          {"speed", number(proc.speed)},
                          {"failure_probability", number(proc.failure_probability)},
                          {"nic_in", number(proc.nic_in)},
                          {"nic_out", number(proc.nic_out)},
                          {"mtbf", number(proc.mtbf)}});
  json out = {{"processors", std::move(processors)},
              {"in", platform.in_name()},
              {"out", platform.out_name()},
              {"xml_file", platform.xml_file()}};
  if (links) {
    out["bandwidth"] = matrix(platform, true);
    out["latency"]   = matrix(platform, false);
  }
  // what-if edits of an XML platform (absent when there are none, so unedited platforms keep their JSON)
  if (!platform.link_settings().empty()) {
    json settings = json::array();
    for (const auto& s : platform.link_settings())
      settings.push_back({{"link", s.link}, {"bandwidth", number(s.bandwidth)}, {"latency", number(s.latency)}});
    out["link_settings"] = std::move(settings);
  }
  if (!platform.link_failures().empty()) {
    json failures = json::array();
    for (const auto& f : platform.link_failures())
      failures.push_back({{"link", f.link}, {"time", number(f.time)}});
    out["link_failures"] = std::move(failures);
  }
  if (!platform.profiles().empty()) out["profiles"] = profiles_to_json(platform.profiles()); // absent: none
  if (!platform.applied_edits().empty()) {
    json edits = json::array();
    for (const auto& e : platform.applied_edits())
      edits.push_back({{"edit", e.edit}, {"matched", e.matched}});
    out["edits"] = std::move(edits);
  }
  return out;
}

Platform platform_from_json(const json& j, bool links)
{
  const json& list = member(j, "processors", "platform");
  if (!list.is_array()) throw InputError::keyed("platform.processors", "platform JSON: expected an array");
  std::vector<Processor> processors;
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::string where = fmt::format("processors[{}]", i);
    const json& item  = list[i];
    Processor proc;
    proc.name                = to_string(member(item, "name", where), where + ".name");
    proc.speed               = to_double(member(item, "speed", where), where + ".speed");
    proc.failure_probability = to_double(member(item, "failure_probability", where), where + ".failure_probability");
    proc.nic_in              = to_double(member(item, "nic_in", where), where + ".nic_in");
    proc.nic_out             = to_double(member(item, "nic_out", where), where + ".nic_out");
    proc.mtbf                = to_double(member(item, "mtbf", where), where + ".mtbf");
    processors.push_back(std::move(proc));
  }
  Platform platform(std::move(processors), to_string(member(j, "in", "platform"), "in"),
                    to_string(member(j, "out", "platform"), "out"));
  if (links) read_links(j, platform);
  if (j.contains("xml_file")) platform.set_xml_file(to_string(j.at("xml_file"), "xml_file"));
  auto list_of = [&](const char* key) {
    const json& l = j.contains(key) ? j.at(key) : json::array();
    if (!l.is_array()) throw InputError::keyed(fmt::format("platform.{}", key), "platform JSON: expected an array");
    return l;
  };
  std::vector<LinkSetting> settings;
  for (const json& s : list_of("link_settings"))
    settings.push_back({to_string(member(s, "link", "link_settings"), "link_settings.link"),
                        to_double(member(s, "bandwidth", "link_settings"), "link_settings.bandwidth"),
                        to_double(member(s, "latency", "link_settings"), "link_settings.latency")});
  platform.set_link_settings(std::move(settings));
  std::vector<LinkFailure> failures;
  for (const json& f : list_of("link_failures"))
    failures.push_back({to_string(member(f, "link", "link_failures"), "link_failures.link"),
                        to_double(member(f, "time", "link_failures"), "link_failures.time")});
  platform.set_link_failures(std::move(failures));
  std::vector<AppliedEdit> edits;
  for (const json& e : list_of("edits")) {
    AppliedEdit a{to_string(member(e, "edit", "edits"), "edits.edit"), {}};
    for (const json& m : member(e, "matched", "edits"))
      a.matched.push_back(to_string(m, "edits.matched"));
    edits.push_back(std::move(a));
  }
  platform.set_applied_edits(std::move(edits));
  if (j.contains("profiles")) platform.set_profiles(profiles_from_json(j.at("profiles")));
  return platform;
}

void to_json(nlohmann::json& json, const Platform& platform) { json = platform_to_json(platform); }

void from_json(const nlohmann::json& json, Platform& platform) { platform = platform_from_json(json); }

} // namespace pipesim

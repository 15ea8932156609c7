// Re-mapping's records and mapping comparison (remap.hpp).
#include "simulator/remap.hpp"

#include <nlohmann/json.hpp>

namespace pipesim {

void to_json(nlohmann::json& j, const RemapRecord& r)
{
  j = nlohmann::json{{"time", r.time}, {"dataset", r.dataset},   {"reason", r.reason},     {"from", r.from},
                     {"to", r.to},     {"drain", r.drain},       {"transfer", r.transfer}, {"restart", r.restart},
                     {"fill", r.fill}, {"downtime", r.downtime}, {"bytes_moved", r.bytes}, {"lost", r.lost}};
}

void from_json(const nlohmann::json& j, RemapRecord& r)
{
  j.at("time").get_to(r.time);
  j.at("dataset").get_to(r.dataset);
  j.at("reason").get_to(r.reason);
  j.at("from").get_to(r.from);
  j.at("to").get_to(r.to);
  j.at("drain").get_to(r.drain);
  j.at("transfer").get_to(r.transfer);
  j.at("restart").get_to(r.restart);
  j.at("fill").get_to(r.fill);
  j.at("downtime").get_to(r.downtime);
  j.at("bytes_moved").get_to(r.bytes);
  r.lost = j.value("lost", 0);
}

bool same_mapping(const Mapping& a, const Mapping& b)
{
  if (a.m() != b.m()) return false;
  for (int j = 0; j < a.m(); ++j) {
    const Interval& x = a.interval(j);
    const Interval& y = b.interval(j);
    if (x.first != y.first || x.last != y.last || x.replicas != y.replicas) return false;
    if (x.replicas.size() > 1 && x.replication != y.replication) return false;
  }
  return true;
}

} // namespace pipesim

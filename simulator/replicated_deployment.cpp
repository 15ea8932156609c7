// The one-port and multi-port executions' shared part: the run's copy of the job, its checks, its replication.
#include "simulator/replicated_deployment.hpp"

#include "base/input_error.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>
#include <typeinfo>

namespace sg4 = simgrid::s4u;

namespace pipesim::detail {

namespace {
/// SimGrid's clock is a double: a run whose data sets would end past ~1e308 s gets infinite dates and no result.
/// Refused before the run, with a bound: N (the data sets P_in may feed: max_datasets with a precision) times one data
/// set's time through the mapping's slowest resources, with the means (random times are about as long on average).
void refuse_pipeline_clock_overflow(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                    int datasets)
{
  std::vector<int> nodes = mapping.processors();
  double slowest         = unbounded;
  for (int u : nodes)
    slowest = std::min(slowest, platform.speed(u));
  nodes.push_back(platform.in());
  nodes.push_back(platform.out());
  double per_byte = 0;
  double latency  = 0;
  for (int u : nodes)
    for (int v : nodes)
      if (u != v && platform.reachable(u, v)) {
        per_byte = std::max(per_byte, 1 / platform.bandwidth(u, v));
        latency  = std::max(latency, platform.latency(u, v));
      }
  double one = 0;
  for (int i = 1; i <= pipeline.n(); ++i)
    one += pipeline.work(i) / slowest;
  for (int i = 0; i <= pipeline.n(); ++i)
    one += pipeline.data(i) * per_byte + latency;
  pipesim::refuse_clock_overflow(datasets, one, "on this mapping", "use larger units (e.g. Gflop, GB)");
}

/// A processor whose model speed was edited (scale_speed on an XML platform) executes w x (host speed / s_u) flops on
/// its SimGrid host: refused when that count is past the largest double.
void refuse_flop_overflow(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  const double w = pipeline.work(1, pipeline.n());
  for (int u : mapping.processors()) {
    sg4::Host* host = sg4::Host::by_name_or_null(platform.node_name(u));
    if (host == nullptr || host->get_speed() == platform.speed(u)) continue;
    if (std::isfinite(w * host->get_speed() / platform.speed(u))) continue;
    throw InputError::keyed("platform.edits", platform.node_name(u),
                            fmt::format("simulation: this processor runs at s_u = {:g} flop/s on a SimGrid host of "
                                        "speed {:g}: its {:g} flops become a count past the largest double",
                                        platform.speed(u), host->get_speed(), w));
  }
}

/// A crash wakes the actors waiting on a transfer with a 0-byte message from their own host (crash_waits.hpp), which
/// needs a route from the host to itself. A host alone in a zone with routing="None" has none: SimGrid 3.32 would
/// abort the run ("There can't be route in an Empty zone"). Refused before the run instead.
void refuse_hosts_without_self_route(const Platform& platform, const Mapping& mapping)
{
  std::vector<std::string> hosts{platform.in_name(), platform.out_name()};
  for (int u : mapping.processors())
    hosts.push_back(platform.node_name(u));
  for (const std::string& name : hosts) {
    sg4::Host* host = sg4::Host::by_name_or_null(name);
    if (host == nullptr) continue;
    sg4::NetZone* zone = host->get_englobing_zone();
    // EmptyZone's type is private to SimGrid: recognised by its name
    if (std::string(typeid(*zone->get_impl()).name()).find("EmptyZone") == std::string::npos) continue;
    throw InputError::in_file(platform.xml_file(), 0,
                              fmt::format("host '{}' is in zone '{}' with routing=\"None\": crash runs wake waiting "
                                          "actors with a message from their own host, and SimGrid has no route from "
                                          "'{}' to itself there; give that zone routing=\"Full\"",
                                          name, zone->get_name(), name));
  }
}
} // namespace

ReplicatedDeployment::ReplicatedDeployment(const SimulationJob& job, const SimulationSettings& run, RunInputs inputs)
    : pipeline_(job.pipeline), platform_(job.platform), mapping_(job.mapping), settings_(run),
      inputs_(std::move(inputs))
{
  refuse_pipeline_clock_overflow(pipeline_, platform_, mapping_, inputs_.stop->max_datasets());
  refuse_flop_overflow(pipeline_, platform_, mapping_);
  if (!platform_.xml_file().empty()) {
    if (!settings_.crashes.empty() || settings_.failures.model == FailureModel::platform)
      refuse_hosts_without_self_route(platform_, mapping_);
    schedule_link_failures(platform_, sg4::Host::by_name_or_null(platform_.in_name()));
  }
}

void ReplicatedDeployment::start_replication(bool allotted)
{
  replication_ = std::make_unique<Replication>(pipeline_, platform_, mapping_, settings_, inputs_, allotted);
}

SimulationResult ReplicatedDeployment::result() const { return make_result(*replication_, settings_, usage_, trace_); }

} // namespace pipesim::detail

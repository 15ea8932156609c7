// One simulation per process: engine set-up, platform, exact-mode size scaling, result transport.
#include "simulator/run.hpp"

#include "base/input_error.hpp"
#include "base/subprocess.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "simulator/failures.hpp"
#include "simulator/multiport_actors.hpp"
#include "simulator/oneport_actors.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <typeinfo>

namespace sg4 = simgrid::s4u;

namespace pipesim {

namespace {
/// No TCP window bound in exact mode. SimGrid 3.34 and later read TCP-gamma 0 as "no bound". SimGrid 3.32 bounds a
/// flow on a route with latency c > 0 by min(rate, gamma / (2c)) = 0 when gamma is 0, and max-min reads a bound of 0
/// as "unbounded": every Comm::set_rate cap on such a route is dropped (the allotted multi-port allocation ran
/// uncapped whenever latencies were set, docs/semantics.md). A gamma no transfer can reach keeps the caps.
#if SIMGRID_VERSION_MAJOR > 3 || (SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR >= 34)
constexpr const char* no_tcp_window = "--cfg=network/TCP-gamma:0";
#else
constexpr const char* no_tcp_window = "--cfg=network/TCP-gamma:1e100";
#endif
} // namespace

std::vector<std::string> simgrid_arguments(const SimulationSettings& settings)
{
  std::vector<std::string> args;
  if (settings.network == NetworkMode::exact)
    args = {"--cfg=network/model:CM02", "--cfg=network/crosstraffic:0", no_tcp_window};
#ifdef PIPESIM_SANITIZE
  args.emplace_back("--cfg=contexts/factory:thread"); // ASan cannot follow SimGrid's raw context switches
#endif
  args.insert(args.end(), settings.simgrid_args.begin(), settings.simgrid_args.end());
  return args;
}

namespace {
/// SimGrid message sizes are whole bytes below 2^63. In exact mode every size and every link bandwidth is multiplied
/// by the same power of two (up to 2^32, or below 1 for sizes past 1e18 bytes), so transfer times are unchanged,
/// fractional sizes keep ~1e-12 relative precision and the largest scaled size stays <= 1e18.
double exact_size_scale(const Pipeline& pipeline)
{
  double largest = *std::max_element(pipeline.delta.begin(), pipeline.delta.end());
  int exponent   = 32;
  if (largest > 0) exponent = std::min(32, static_cast<int>(std::floor(std::log2(1e18 / largest))));
  return std::ldexp(1.0, exponent);
}

/// In SimGrid mode sizes are sent as they are, in whole bytes: a size SimGrid cannot hold is refused, not wrapped.
void refuse_unsendable_sizes(const Pipeline& pipeline)
{
  const double limit = std::ldexp(1.0, 63);
  for (std::size_t i = 0; i < pipeline.delta.size(); ++i)
    if (pipeline.delta[i] >= limit)
      throw InputError::keyed(fmt::format("pipeline.delta[{}]", i), pipeline.delta[i],
                              "bytes: simulation.network 'simgrid' sends whole bytes and SimGrid holds at most 2^63 - "
                              "1 = 9.223372036854775807e18 per message; use network 'exact' (which scales sizes and "
                              "bandwidths together) or larger units");
}

/// SimGrid's clock is a double: a run whose data sets would end past ~1e308 s gets infinite dates and no result.
/// Refused before the run, with a bound: N times one data set's time through the mapping's slowest resources.
void refuse_clock_overflow(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                           const SimulationSettings& settings)
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
  const double bound = one * (settings.datasets + 1);
  if (!(bound < 1e307))
    throw InputError::keyed("simulation.datasets", settings.datasets,
                            fmt::format("data sets of up to {:g} s each on this mapping may end past 1e307 s, beyond "
                                        "what SimGrid's clock (a double) can date; use larger units (e.g. Gflop, GB)",
                                        one));
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
} // namespace

namespace {
/// A crash wakes the actors waiting on a transfer with a 0-byte message from their own host (replication.hpp), which
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

PreparedEngine prepare_engine(const Pipeline& pipeline, const Platform& platform, const SimulationSettings& settings)
{
  bool multiport = settings.model == CommModel::multi_port;
  if (settings.failures.model == FailureModel::platform && platform.xml_file().empty())
    throw InputError::keyed("simulation.failures", "platform",
                            "this failure model runs the host state profiles of a SimGrid XML platform; this platform "
                            "is not an XML file");
  if (settings.network != NetworkMode::exact) refuse_unsendable_sizes(pipeline);
  PreparedEngine prepared;
  prepared.args = simgrid_arguments(settings);
  start_engine(prepared.args);
  auto* engine = sg4::Engine::get_instance();
  if (!platform.xml_file().empty()) {
    engine->load_platform(platform.xml_file());
    // absolute link values of the what-if edits, before the exact-mode scaling multiplies every link
    apply_link_settings(platform);
  } else
    build_simgrid_platform(platform, multiport); // card links Bin/Bout only exist in the multi-port model
  if (settings.network == NetworkMode::exact) {
    prepared.size_scale = exact_size_scale(pipeline);
    for (sg4::Link* link : engine->get_all_links())
      if (link->get_name() != "__loopback__") link->set_bandwidth(link->get_bandwidth() * prepared.size_scale);
  }
  return prepared;
}

SimulationResult simulate_prepared(const PreparedEngine& prepared, const Pipeline& pipeline, const Platform& platform,
                                   const Mapping& mapping, const SimulationSettings& settings)
{
  refuse_clock_overflow(pipeline, platform, mapping, settings);
  refuse_flop_overflow(pipeline, platform, mapping);
  if (!platform.xml_file().empty()) {
    if (!settings.crashes.empty() || settings.failures.model == FailureModel::platform)
      refuse_hosts_without_self_route(platform, mapping);
    schedule_link_failures(platform, sg4::Host::by_name_or_null(platform.in_name()));
  }
  auto run = [&](auto& deployment) {
    deployment.deploy();
    sg4::Engine::get_instance()->run();
    SimulationResult result = deployment.result();
    result.config           = prepared.args;
    return result;
  };
  if (settings.model == CommModel::multi_port) {
    MultiPortDeployment deployment(pipeline, platform, mapping, settings, prepared.size_scale);
    return run(deployment);
  }
  OnePortDeployment deployment(pipeline, platform, mapping, settings, prepared.size_scale);
  return run(deployment);
}

SimulationResult simulate_here(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                               const SimulationSettings& settings)
{
  return simulate_prepared(prepare_engine(pipeline, platform, settings), pipeline, platform, mapping, settings);
}

SimulationSettings without_failures(const SimulationSettings& settings)
{
  SimulationSettings s = settings;
  s.failures           = FailureSettings{};
  s.failures.election  = settings.failures.election; // the senders of the fault-free run
  s.crashes.clear();
  s.runs = 1;
  return s;
}

SimulationSettings settings_for_run(const Platform& platform, const Mapping& mapping,
                                    const SimulationSettings& settings, int run, double fault_free_makespan)
{
  if (!settings.failures.enabled()) return settings;
  SimulationSettings s = settings;
  s.seed               = run_seed(settings.seed, run);
  if (s.crashes.empty()) s.crashes = draw_crash_schedule(s.failures, platform, mapping, fault_free_makespan, s.seed);
  return s;
}

SimulationResult simulate(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                          const SimulationSettings& settings)
{
  SimulationSettings run = settings;
  if (settings.failures.enabled() && settings.crashes.empty()) {
    double makespan = 0;
    if (settings.failures.model == FailureModel::probability)
      makespan = simulate(pipeline, platform, mapping, without_failures(settings)).makespan;
    run = settings_for_run(platform, mapping, settings, 0, makespan);
  }
  return simulate_in_child([&] { return simulate_here(pipeline, platform, mapping, run); });
}

SimulationResult simulate_in_child(const std::function<SimulationResult()>& run)
{
  std::string text = run_in_child([&] {
    nlohmann::json j = run();
    return j.dump();
  });
  return nlohmann::json::parse(text).get<SimulationResult>();
}

SimulationSettings latency_settings(const SimulationSettings& settings)
{
  SimulationSettings one = without_failures(settings);
  one.datasets           = 1;
  one.warmup             = 0;
  one.record_trace       = false;
  one.progress           = ProgressMode::off;
  return one;
}

double latency_of(const SimulationResult& one_dataset_run)
{
  return one_dataset_run.output_times.empty() ? unbounded : one_dataset_run.output_times.front();
}

double simulate_latency(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                        const SimulationSettings& settings)
{
  SimulationSettings one = latency_settings(settings);
  // SimGrid has no per-process trace file name: this run writes <file>.latency so the period run's Paje trace stays.
  std::string trace_file = "simgrid.trace"; // SimGrid's default
  bool tracing           = false;
  for (const auto& arg : one.simgrid_args) {
    tracing = tracing || arg.rfind("--cfg=tracing", 0) == 0;
    if (arg.rfind("--cfg=tracing/filename:", 0) == 0)
      trace_file = arg.substr(std::string("--cfg=tracing/filename:").size());
  }
  if (tracing) one.simgrid_args.push_back("--cfg=tracing/filename:" + trace_file + ".latency"); // the last value wins
  return latency_of(simulate(pipeline, platform, mapping, one)); // infinite: a link failed before it arrived
}

nlohmann::json failure_json(const FailureOutcome& o)
{
  auto crashes = nlohmann::json::array();
  for (const auto& c : o.crashes)
    crashes.push_back({{"host", c.host}, {"time", c.time}});
  auto optional = [](double x) { return x < 0 ? nlohmann::json(nullptr) : nlohmann::json(x); };
  return {{"verdict", to_string(o.verdict)},
          {"failure_time", optional(o.failure_time)},
          {"failed_interval", o.failed_interval < 0 ? nlohmann::json(nullptr) : nlohmann::json(o.failed_interval + 1)},
          {"failed_link", o.failed_link.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.failed_link)},
          {"crashes", crashes},
          {"period_before_first_crash", optional(o.period_before)},
          {"period_after_last_crash", optional(o.period_after)},
          {"elections", o.elections},
          {"duplicates", o.duplicates},
          {"delivered", o.delivered},
          {"election", to_string(o.election)}};
}

FailureOutcome failure_from_json(const nlohmann::json& j)
{
  FailureOutcome o;
  auto optional     = [&](const char* key) { return j.at(key).is_null() ? -1.0 : j.at(key).get<double>(); };
  o.verdict         = parse_enum<Verdict>(j.at("verdict").get<std::string>(), "verdict");
  o.failure_time    = optional("failure_time");
  o.failed_interval = j.at("failed_interval").is_null() ? -1 : j.at("failed_interval").get<int>() - 1;
  if (auto it = j.find("failed_link"); it != j.end() && !it->is_null()) it->get_to(o.failed_link);
  for (const auto& c : j.at("crashes"))
    o.crashes.push_back(Crash{c.at("host"), c.at("time")});
  o.period_before = optional("period_before_first_crash");
  o.period_after  = optional("period_after_last_crash");
  j.at("elections").get_to(o.elections);
  j.at("duplicates").get_to(o.duplicates);
  j.at("delivered").get_to(o.delivered);
  o.election = parse_enum<ElectionPolicy>(j.at("election").get<std::string>(), "election");
  return o;
}

void to_json(nlohmann::json& j, const SimulationResult& r)
{
  j             = nlohmann::json{{"output_times", r.output_times},
                     {"period", r.period},
                     {"makespan", r.makespan},
                     {"network", to_string(r.network)},
                     {"config", r.config}};
  j["seed"]     = r.seed;
  j["failures"] = failure_json(r.failures);
  j["usage"]    = nlohmann::json::array();
  for (const auto& u : r.usage)
    j["usage"].push_back({{"host", u.host}, {"compute", u.compute}, {"send", u.send}, {"receive", u.receive}});
  j["trace"] = nlohmann::json::array();
  for (const auto& e : r.trace)
    j["trace"].push_back({{"host", e.host},
                          {"kind", to_string(e.kind)},
                          {"dataset", e.dataset},
                          {"interval", e.interval},
                          {"start", e.start},
                          {"end", e.end}});
}

void from_json(const nlohmann::json& j, SimulationResult& r)
{
  j.at("output_times").get_to(r.output_times);
  j.at("period").get_to(r.period);
  j.at("makespan").get_to(r.makespan);
  r.network = parse_enum<NetworkMode>(j.at("network").get<std::string>(), "network");
  j.at("config").get_to(r.config);
  j.at("seed").get_to(r.seed);
  r.failures = failure_from_json(j.at("failures"));
  r.usage.clear();
  for (const auto& u : j.at("usage"))
    r.usage.push_back(ProcessorUsage{u.at("host"), u.at("compute"), u.at("send"), u.at("receive")});
  r.trace.clear();
  for (const auto& e : j.at("trace"))
    r.trace.push_back(TraceEvent{e.at("host"), parse_enum<Operation>(e.at("kind").get<std::string>(), "kind"),
                                 e.at("dataset"), e.at("interval"), e.at("start"), e.at("end")});
}

} // namespace pipesim

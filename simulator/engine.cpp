// A run's SimGrid engine: arguments, platform, exact-mode size scaling.
#include "simulator/engine.hpp"

#include "base/input_error.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "platforms/simgrid/simgrid_profiles.hpp"
#include "simulator/simgrid_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <stdexcept>
#include <unordered_set>

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

/// Some delta_i has a law that is not constant.
bool random_sizes(const VariabilitySpec& spec)
{
  return !spec.size.constant() ||
         std::ranges::any_of(spec.size_of, [](const auto& entry) { return !entry.second.constant(); });
}

/// SimGrid message sizes are whole bytes below 2^63. In exact mode every size and every transfer's rate is multiplied
/// by the same power of two (up to 2^32, or below 1 for sizes past 1e18 bytes), so transfer times are unchanged,
/// fractional sizes keep ~1e-12 relative precision and the largest scaled size stays <= 1e18. With random sizes
/// (DESIGN.md §3.10) the largest mean is taken 2^24 times larger: a draw fits unless it exceeds 1.5e8 times its mean
/// (an empirical law's largest factor is below its 10^7 samples; lognormal with cv 10, the heaviest tail accepted,
/// gets there with probability 2e-23), at the cost of a precision of ~1e-11 instead of 1e-12 for sizes of 1 MB.
double exact_size_scale(const Pipeline& pipeline, bool random_sizes)
{
  double largest = *std::max_element(pipeline.delta.begin(), pipeline.delta.end());
  if (random_sizes) largest *= std::ldexp(1.0, 24);
  int exponent = 32;
  if (largest > 0) exponent = std::min(32, static_cast<int>(std::floor(std::log2(1e18 / largest))));
  return std::ldexp(1.0, exponent);
}

/// The exact mode's scale as a bandwidth factor of every transfer (SimGrid's NetworkModelIntf callback): a transfer
/// of X s bytes moves s times as fast as max-min lets it use its links, whose bandwidths stay the platform's own. The
/// links used to be multiplied by s instead, and a bandwidth profile (absolute values, SimGrid 3.32) then set them back
/// to unscaled values: transfers 2^32 times too slow (docs/semantics.md, "Time-varying platforms").
void scale_transfer_rates(double scale)
{
  auto* model = sg4::Engine::get_instance()->get_netzone_root()->get_network_model();
  try {
    model->set_bw_factor_cb([scale](double, const sg4::Host*, const sg4::Host*, const std::vector<sg4::Link*>&,
                                    const std::unordered_set<sg4::NetZone*>&) { return scale; });
  } catch (const std::invalid_argument&) { // SimGrid refuses a callback next to --cfg=network/bandwidth-factor
    throw InputError::option("--cfg=network/bandwidth-factor",
                             "simulation: cannot be used with network 'exact', whose transfers take exactly c + X / b "
                             "(DESIGN.md §3.4); use network 'simgrid'");
  }
}

/// SimGrid 3.32 with a bandwidth-dependent max-min weight (network/weight-S > 0: LV08's default, 20537) re-weights the
/// transfers on a link when its bandwidth changes, and so enables a transfer still in its latency phase: with the lazy
/// update it never ends, with the full update it skips the rest of its latency (docs/semantics.md, "Time-varying
/// platforms"). A run with bandwidth profiles sets weight-S to 0 (every transfer then weighs its route's latency, as
/// in CM02), and refuses a user's weight-S > 0.
bool needs_no_weight_s(const Platform& platform, const SimulationSettings& settings)
{
  if (!has_bandwidth_profiles(platform)) return false;
  const std::string key = "--cfg=network/weight-S:";
  for (const auto& arg : settings.simgrid_args)
    if (arg.rfind(key, 0) == 0 && std::strtod(arg.c_str() + key.size(), nullptr) != 0)
      throw InputError::option(arg, "on a platform with bandwidth profiles: SimGrid 3.32 then stops a transfer for "
                                    "ever when a bandwidth changes during its latency (docs/semantics.md); leave "
                                    "network/weight-S at 0");
  return settings.network == NetworkMode::simgrid;
}

/// Whether the run changes link values once the platform is built (what-if link settings, profiles of bandwidth or
/// latency): SimGrid's tracing then needs the links' variables declared (simgrid_arguments_needed).
bool sets_link_values(const Platform& platform, const EngineNeeds& needs)
{
  if (needs.platform == EngineNeeds::Platform::single_host) return false;
  return !platform.link_settings().empty() || !platform.profiles().empty();
}
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

namespace detail {

void build_run_platform(const Platform& platform, const EngineNeeds& needs)
{
  if (needs.platform == EngineNeeds::Platform::single_host) {
    auto* zone = sg4::create_full_zone("modules");
    zone->create_host("instances", 1.0)->seal();
    zone->seal();
    return;
  }
  if (!platform.xml_file().empty()) {
    load_xml_for_run(platform);    // SimGrid runs its speed_file, bandwidth_file, state_file; pipesim its latency_file
    apply_link_settings(platform); // what-if edits
  } else
    build_simgrid_platform(platform, needs.platform == EngineNeeds::Platform::model_with_cards);
  install_profiles(platform);
}

PreparedEngine start_run_engine(const SimulationJob& job)
{
  const EngineNeeds needs = engine_needs(execution_kind(job), job.settings);
  PreparedEngine prepared;
  prepared.args    = needs.args;
  const auto users = static_cast<std::ptrdiff_t>(job.settings.simgrid_args.size());
  if (needs.platform != EngineNeeds::Platform::single_host && needs_no_weight_s(job.platform, job.settings))
    prepared.args.insert(prepared.args.end() - users, "--cfg=network/weight-S:0"); // before the user's arguments
  if (sets_link_values(job.platform, needs)) {
    std::vector<std::string> needed = simgrid_arguments_needed(job.settings.simgrid_args);
    prepared.args.insert(prepared.args.end() - users, needed.begin(), needed.end()); // before the user's: theirs win
  }
  // a combination of the user's arguments that would stop SimGrid is refused first, with SimGrid's message
  check_simgrid_arguments(prepared.args, job.settings.simgrid_args, [&] { build_run_platform(job.platform, needs); });
  start_engine(prepared.args);
  build_run_platform(job.platform, needs);
  if (needs.scale_sizes) {
    prepared.size_scale = exact_size_scale(job.pipeline, random_sizes(job.variability));
    scale_transfer_rates(prepared.size_scale);
  }
  return prepared;
}

} // namespace detail
} // namespace pipesim

// A run's SimGrid engine: arguments, platform, exact-mode size scaling.
#include "simulator/engine.hpp"

#include "platforms/simgrid/simgrid_platform.hpp"

#include <algorithm>
#include <cmath>
#include <simgrid/s4u.hpp>
#include <simgrid/version.h>

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

/// SimGrid message sizes are whole bytes below 2^63. In exact mode every size and every link bandwidth is multiplied
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
    sg4::Engine::get_instance()->load_platform(platform.xml_file());
    // absolute link values of the what-if edits, before the exact-mode scaling multiplies every link
    apply_link_settings(platform);
    return;
  }
  build_simgrid_platform(platform, needs.platform == EngineNeeds::Platform::model_with_cards);
}

PreparedEngine start_run_engine(const SimulationJob& job)
{
  const EngineNeeds needs = engine_needs(execution_kind(job), job.settings);
  PreparedEngine prepared;
  prepared.args = needs.args;
  start_engine(prepared.args);
  build_run_platform(job.platform, needs);
  if (needs.scale_sizes) {
    prepared.size_scale = exact_size_scale(job.pipeline, random_sizes(job.variability));
    for (sg4::Link* link : sg4::Engine::get_instance()->get_all_links())
      if (link->get_name() != "__loopback__") link->set_bandwidth(link->get_bandwidth() * prepared.size_scale);
  }
  return prepared;
}

} // namespace detail
} // namespace pipesim

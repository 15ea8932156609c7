// Crash schedule draws.
#include "simulator/failures.hpp"

#include "base/input_error.hpp"
#include "base/random.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace pipesim {

std::uint64_t run_seed(std::uint64_t seed, int run)
{
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(run) + 1);
  z               = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z               = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::vector<Crash> draw_crash_schedule(const FailureSettings& failures, const Platform& platform,
                                       const Mapping& mapping, double fault_free_makespan, std::uint64_t seed)
{
  std::vector<bool> used(static_cast<std::size_t>(platform.p()), false);
  for (int u : mapping.processors())
    used.at(static_cast<std::size_t>(u)) = true;
  std::vector<Crash> crashes;
  const FailureModel model = failures.model;
  if (model == FailureModel::none || model == FailureModel::platform) return crashes;
  if (model == FailureModel::trace) {
    for (std::size_t i = 0; i < failures.trace.size(); ++i) {
      const Crash& c = failures.trace[i];
      auto u         = platform.find(c.host);
      if (!u)
        throw InputError::keyed(fmt::format("simulation.failures.crashes[{}].host", i), c.host,
                                "not a processor of the platform");
      if (!std::isfinite(c.time) || c.time < 0)
        throw InputError::keyed(fmt::format("simulation.failures.crashes[{}].time", i), c.time,
                                fmt::format("expected a time >= 0 (the crash of '{}')", c.host));
      if (used[static_cast<std::size_t>(*u)]) crashes.push_back(c);
    }
  } else {
    if (model == FailureModel::probability &&
        !(failures.window_begin >= 0 && failures.window_begin <= failures.window_end && failures.window_end <= 1e6))
      throw InputError::keyed("simulation.failures.window",
                              fmt::format("[{}, {}]", failures.window_begin, failures.window_end),
                              "expected 0 <= begin <= end <= 1e6");
    Rng rng(seed);
    for (int u = 0; u < platform.p(); ++u) {
      const Processor& proc = platform.processor(u);
      double a              = rng.uniform01();
      double b              = rng.uniform01();
      double time           = -1;
      if (model == FailureModel::probability) {
        if (a < proc.failure_probability)
          time = (failures.window_begin + b * (failures.window_end - failures.window_begin)) * fault_free_makespan;
      } else if (std::isfinite(proc.mtbf)) {
        time = -proc.mtbf * std::log1p(-b); // Exp(1/mtbf), b in [0, 1)
      }
      if (time >= 0 && used[static_cast<std::size_t>(u)]) crashes.push_back(Crash{proc.name, time});
    }
  }
  std::stable_sort(crashes.begin(), crashes.end(), [](const Crash& x, const Crash& y) { return x.time < y.time; });
  return crashes;
}

} // namespace pipesim

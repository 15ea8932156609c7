// Seeded random instances for the tests of the exact interval mappers (exact.interval, br07.fh-dp, br07.ilp).
#pragma once

#include "mappers/mapper.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pipesim::fixtures {

/// Kinds of platforms the cross-checks cover.
enum class LinkKind {
  fully_homogeneous,         // one speed, one bandwidth b = 10 and one latency
  communication_homogeneous, // speeds differ (integer in [1, 4] on odd seeds, so some are equal), one b, one c
  mixed_latencies,           // Communication Homogeneous bandwidths, but per-pair latencies in [0, 0.1]
  fully_heterogeneous        // per-pair bandwidths in [1, 10] (and latencies in [0, 0.1] when asked)
};
const char* to_string(LinkKind kind);

/// A tiny instance: n in [1, max_n], p in [1, max_p], w integer in [0, 20] (0 on one stage in ten), delta integer
/// in [0, 100]; speeds real in [1, 20] on even seeds. `latencies` adds c = 0.25 on uniform links, or per-pair c.
Problem tiny_instance(std::uint64_t seed, LinkKind kind, bool latencies, int max_n, int max_p);

/// Every parameter of a problem, to reproduce a failing instance.
std::string describe(std::uint64_t seed, const Problem& problem);

/// Platform with the given speeds, every link of bandwidth b and latency c, P_in = "in", P_out = "out".
Platform uniform_platform(const std::vector<double>& speeds, double b, double c = 0);

} // namespace pipesim::fixtures

// Test fixtures of the br07 §4 heuristics: small platforms, seeded tiny instances and their description.
#pragma once

#include "mappers/mapper.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pipesim::heuristic_fixtures {

/// Every link (P_in / P_out included) with bandwidth b and latency c: Communication Homogeneous or Fully Homogeneous.
Platform make_platform(const std::vector<double>& speeds, double b, double c = 0);

/// Problem with pipeline (w, delta) on that platform, one-port, min_period.
Problem make_problem(std::vector<double> w, std::vector<double> delta, Platform platform);

/// Seeded tiny instance: n in 1..6, p in 1..6, integer s in [1, 20], w in [1, 20], delta in [1, 100].
/// Communication Homogeneous (`heterogeneous_links` false): b = 10 everywhere and, for every third seed, the same
/// latency c = 0.25 on every link. Fully Heterogeneous (true): b_{u,v} integer in [1, 20] per ordered pair and, for
/// every third seed, latencies c_{u,v} in [0, 0.5].
Problem random_instance(std::uint64_t seed, bool heterogeneous_links);

/// Everything needed to rebuild the instance by hand: seed, n, p, speeds, w, delta, and the links.
std::string describe(std::uint64_t seed, const Problem& problem);

/// The mapping's intervals and processors, to compare with expected values.
std::vector<std::pair<int, int>> intervals_of(const Mapping& mapping);
std::vector<int> processors_of(const Mapping& mapping);

} // namespace pipesim::heuristic_fixtures

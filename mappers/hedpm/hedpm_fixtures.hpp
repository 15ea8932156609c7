// Instances for the tests of the HeDPM mappers: hedpm's §4.1 case study and seeded tiny instances.
#pragma once

#include "mappers/mapper.hpp"

#include <cstdint>

namespace pipesim::fixtures {

/// hedpm §4.1: eight stages, eight processors. s = (27.41, 1.02, 20.03, 23.34, 1.05, 19.76, 15.57, 14.18),
/// w = (6.01, 1.32, 2.53, 4.04, 20.35, 28.16, 19.17, 12.88), d(n) = 10 for every stage (delta_0 = 10 too), B = 10
/// and c = 0.1 on every link except those of P1 (B = 5, c = 0.2), P_in ("in") and P_out ("out") included.
Problem hedpm_case_study();

/// Kinds of links of the tiny instances.
enum class HedpmLinks {
  uniform,            // b = 10, c = 0 everywhere (hedpm §5.1's reading, docs/generators.md)
  uniform_latency,    // b = 10, c = 0.1 everywhere
  slow_processor,     // as the case study: links of P1 have b = 5, c = 0.2, the others b = 10, c = 0.1
  fully_heterogeneous // b real in [1, 20], c real in [0, 0.2], per ordered pair (P_in, P_out included)
};
const char* to_string(HedpmLinks links);

/// A tiny instance: n in [1, max_n], p in [1, max_p]; speeds and w normal(10, 5) clipped positive (hedpm §5.1);
/// delta normal(1, 0.5) on even seeds and normal(10, 5) on odd ones, so that communication matters.
Problem hedpm_tiny_instance(std::uint64_t seed, HedpmLinks links, int max_n, int max_p);

} // namespace pipesim::fixtures

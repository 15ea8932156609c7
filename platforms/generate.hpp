// Seeded random platform generator for the three classes of br07 §2.2 (used by br07 §5, hedpm §5, bbr10 §7).
#pragma once

#include "base/random.hpp"
#include "platforms/platform.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace pipesim {

/// What to draw. Processors are named P1..Pp; P_in/P_out are `in_name`/`out_name` (one host when equal).
struct PlatformGeneratorSpec {
  PlatformClass platform_class = PlatformClass::fully_heterogeneous;
  int p                        = 1;
  Range speed{1, 1};               // s_u, flop/s
  Range bandwidth{1, 1};           // b_{u,v}, bytes/s
  Range latency{0, 0};             // c_{u,v}, s
  Range failure_probability{0, 0}; // f_u, must stay < 1
  Range nic_in{1, 1};              // Bin_u, used only when nic_bounded_in
  Range nic_out{1, 1};             // Bout_u, used only when nic_bounded_out
  bool nic_bounded_in  = false;
  bool nic_bounded_out = false;
  std::uint64_t seed   = 0;
  std::string in_name  = "in";
  std::string out_name = "out";
};

/// Draws a platform; the same spec always gives the same platform, on every machine.
///
/// Each quantity has its own random stream (Rng seeded from `seed` and a fixed stream number), so that
/// changing one range leaves the other quantities unchanged. Within a stream, the draw order is fixed:
///  1. speed (stream 1): fully-homogeneous: one draw for all processors; otherwise one per processor P1..Pp.
///  2. failure_probability (stream 2), nic_in (stream 3), nic_out (stream 4): one draw per processor P1..Pp
///     (nic streams only when bounded).
///  3. bandwidth (stream 5) and latency (stream 6): fully- and communication-homogeneous: one draw each, used for every
///     ordered pair; fully-heterogeneous: one draw per unordered pair of hosts {a, b}, a < b in the order
///     P1..Pp, P_in, P_out (P_out omitted when it is P_in's host), the same value in both directions.
///     P_in and P_out count as hosts: their links are drawn like the others.
/// A constant range (lo == hi) consumes no random number; a normal range consumes a variable count (redraws), which
/// only shifts later draws of its own stream. When P_in and P_out are one host, the pair P_in <-> P_out is
/// local (b infinite, c = 0), as platform_from_engine reads it from SimGrid.
/// Throws InputError when the spec is invalid (p < 1, non-positive speed/bandwidth/nic, f >= 1 or a normal failure
/// range, negative latency, an ill-formed range, a processor name equal to an io name).
/// Named specs reproducing the papers' platforms are in platforms/generator_presets.hpp.
Platform generate_platform(const PlatformGeneratorSpec& spec);

/// "fully-homogeneous", "communication-homogeneous" or "fully-heterogeneous" (also with '_'); nullopt otherwise.
std::optional<PlatformClass> platform_class_from_string(const std::string& name);

} // namespace pipesim

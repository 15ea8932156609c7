// The scenario the re-mapping tests share (remap_test.cpp, remap_handover_test.cpp): one processor's speed steps
// down at t = 100, so a policy has a reason to re-map, with every period worked out by hand below.
#pragma once

#include <fmt/format.h>
#include <string>

namespace pipesim::test {

// Two stages of 10 flop, messages of 1 byte, b = 10 bytes/s everywhere (0.1 s a transfer), no latency; P1 and P2 at
// 10 flop/s, P3 at 4. One-port cycle-times (eq. (2): receive + compute + send):
//   [1]:P2 [2]:P1 (what exact.interval picks at the nominal speeds): 0.1 + 1 + 0.1 = 1.2 on each processor
//   [1-2]:P1: 0.1 + 2 + 0.1 = 2.2;  [1]:P1 [2]:P3 or [1]:P3 [2]:P1: 0.1 + 2.5 + 0.1 = 2.7
// From t = 100, P2 runs at a quarter (2.5 flop/s): [1]:P2 [2]:P1 then takes 0.1 + 4 + 0.1 = 4.2, and the best
// interval mapping is [1-2]:P1 at 2.2 (P2 anywhere costs 4.2, P3 2.7).
inline std::string remap_scenario(const std::string& dynamic)
{
  return fmt::format(R"(pipeline: {{w: [10, 10], delta: [1, 1, 1]}}
platform:
  processors: [{{name: P1, speed: 10}}, {{name: P2, speed: 10}}, {{name: P3, speed: 4}}]
  bandwidth: 10
  io: {{in: io, out: io}}
  profiles:
    hosts:
      - {{host: P2, speed: [[100, 0.25]]}}
mapper: exact.interval
simulation: {{datasets: 200, seed: 1}}
dynamic: {}
)",
                     dynamic);
}

} // namespace pipesim::test

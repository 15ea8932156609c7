// Shared test fixtures: the paper's worked examples and seeded random instances (used by several test files).
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"
#include "platforms/random.hpp"

#include <string>

namespace pipesim::fixtures {

/// Seed 000 §2.3.3, eq. (6): n = 3, p = 2, P_0 = P_in = P_out. s_1 = b_{0,2} = b_{1,2} = 1, s_2 = b_{0,1} = 10;
/// delta_0 = delta_3 = w_2 = 10, delta_1 = delta_2 = w_1 = w_3 = 1. Mapping S1, S3 on P1 and S2 on P2.
struct Eq6Example {
  Pipeline pipeline{{1, 10, 1}, {10, 1, 1, 10}};
  Platform platform;
  Mapping mapping;
  Eq6Example();
};

struct RandomInstance {
  Pipeline pipeline;
  Platform platform;
  Mapping mapping;
  std::string describe() const;
};

/// Fully Heterogeneous platform with p processors (speeds in [1, 20], bandwidths in [1, 10] per ordered pair,
/// latencies in [0, 0.1] when `latencies`), a pipeline of n stages (w in [1, 20], delta in [1, 100]).
RandomInstance random_platform_and_pipeline(Rng& rng, int n, int p, bool latencies);
/// A random interval mapping on it (one processor per interval, m <= min(n, p) intervals).
void random_interval_mapping(Rng& rng, RandomInstance& inst);
/// A random interval mapping with active replication (1..3 replicas per interval, processors distinct).
void random_replicated_mapping(Rng& rng, RandomInstance& inst);
/// A random general mapping (stages grouped into intervals; each interval on one processor, processors reused).
void random_general_mapping(Rng& rng, RandomInstance& inst);

} // namespace pipesim::fixtures

// Instances shared by the tests of the bbr10 reliability heuristics (mappers/bbr10/*_test.cpp).
#pragma once

#include "base/random.hpp"
#include "mappers/mapper.hpp"

#include <vector>

namespace pipesim::fixtures {

/// A multi-port problem minimising F under `period_bound`.
Problem reliability_problem(Pipeline pipeline, Platform platform, double period_bound);

/// Hand-checked instance: w = (2, 2), delta = 1 everywhere, b = 1000, no card bound; P1..P4 with speeds
/// `speeds` and f = 0.1, 0.2, 0.3, 0.4. With speeds (2, 2, 2, 4) and P_max = 1.5, P1..P3 can hold one stage, not
/// two (2 / 2 = 1, 4 / 2 = 2), P4 both (4 / 4 = 1); transfers cost 1/1000.
Problem two_stage_problem(double period_bound, std::vector<double> speeds = {2, 2, 2, 4});

/// bbr10 §2 (model/test_fixtures.hpp Seed004Section2) under P_max.
Problem section2_problem(double period_bound);

/// Hand-worked instance where the two period tests accept different replica counts (subset_state_test.cpp has the
/// arithmetic): w = (4, 8, 4), delta = (1, 1, 1, 3), eight processors P1..P8 of speed 10, Bin = 100, Bout = 4 and
/// failure probability `f`, links of bandwidth 100 without latency, P_max = 1. Two consecutive stages need
/// 12 / 10 > 1 on one processor, so the only split into two subsets is the general {S1, S3} | {S2}.
Problem split_senders_problem(double f = 0.2);

/// A random tiny instance with bbr10 §7.2's ranges scaled down: n stages (w in [1, 100], integer delta in [1, 5]),
/// p processors (speed [10, 20], cards and links [1, 10], f [0.05, 0.3]), P_max drawn between the largest w / s
/// bound below which nothing fits and a few times it.
Problem random_reliability_problem(Rng& rng, int n, int p);

/// A random partition of stages 1..n into l subsets (index 0 unused), each non-empty.
std::vector<int> random_partition(Rng& rng, int n, int l);

} // namespace pipesim::fixtures

// Reference optimum of interval mappings that keeps no set of processors (for the tests of exact.interval on wide
// platforms), and seeded platforms made of classes of interchangeable processors.
#pragma once

#include "mappers/mapper.hpp"

#include <cstdint>
#include <vector>

namespace pipesim::fixtures {

/// A problem whose processors fall into classes of twins: same speed, and one link (bandwidth, latency) per
/// ordered pair of classes (within a class too), per class from P_in and per class to P_out.
struct ClassedProblem {
  Problem problem;
  std::vector<int> class_of; // processor -> class
};

/// n stages (w integer in [1, 20], delta integer in [1, 100]); p processors spread over `classes` classes at random
/// (seeded), so that members of a class are scattered over the indices; speeds real in [1, 20] per class.
/// `uniform_links`: every link b = 10 (a Communication Homogeneous platform, classes by speed); otherwise a
/// bandwidth in [1, 10] and a latency in [0, 0.1] per ordered pair of classes (Fully Heterogeneous).
ClassedProblem classed_instance(std::uint64_t seed, int n, int p, int classes, bool uniform_links);

/// The optimal br07 eq. (2) period over interval mappings, by a dynamic program over (stages placed, processors
/// used per class, class of the last interval, class of the next one): processors of a class being twins, which of
/// them an interval takes does not matter, only how many of each class are used. Cycle-times are computed by
/// br07_interval_cycle_time on representatives, so the optimum is bit-identical to eq. (2) of an optimal mapping.
/// Throws std::logic_error if two processors of a class are not twins. Complexity: O(n^2 K^2 prod_k (c_k + 1))
/// with c_k = min(n, size of class k).
double class_count_optimum(const ClassedProblem& instance);

} // namespace pipesim::fixtures

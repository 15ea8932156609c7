// Interchangeable processors ("twins") of a platform, for the symmetry breaking of the exact interval search.
#pragma once

#include "platforms/platform.hpp"

#include <vector>

namespace pipesim::exact {

/// For each processor v, the largest u < v that is its twin, or -1. u and v are twins when swapping them maps the
/// platform onto itself: same speed, the same link (bandwidth and latency) to and from every other node, and the
/// same link both ways between them. Swapping twins in a mapping keeps every cycle-time (the very same doubles), and
/// twinship is an equivalence (a composition of transpositions is an automorphism), so a search may use the members
/// of a class in increasing index order only. Complexity: O(p log p + sum over equal speeds of pairs x nodes).
std::vector<int> previous_twins(const Platform& platform);

} // namespace pipesim::exact

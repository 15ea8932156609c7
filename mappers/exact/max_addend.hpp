// The largest addend that keeps a rounded sum within a bound: the exact inverse of eq. (2)'s additions.
#pragma once

namespace pipesim::exact {

/// max{y : fl(a + y) <= bound}: the largest addend that keeps a rounded sum within a bound (+inf if bound is,
/// -inf if a is infinite or NaN). fl(a + y) is non-decreasing in y, so the answer is found by galloping then
/// bisecting over the doubles ordered as integers. Complexity: O(log) steps of one addition each.
double max_addend(double a, double bound);

} // namespace pipesim::exact

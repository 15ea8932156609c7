// Shared pieces of HeDPM's exact searches (mappers hedpm.exact*): outcome, the path of placed intervals, the bound.
#pragma once

#include "mappers/exact/search.hpp"
#include "mappers/hedpm/hedpm.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace pipesim::hedpm_exact {

/// What a search found: the best mapping (empty when none beat the start), whether the space was exhausted.
struct Outcome {
  Mapping mapping;
  double value        = std::numeric_limits<double>::infinity(); // its production time
  bool complete       = false; // no mapping has a production time below `value` (or below the start when none found)
  int improvements    = 0;     // mappings found, each better than the previous one
  std::uint64_t nodes = 0;     // search nodes expanded
};

/// Minimisation of HeDPM's production time by a depth-first branch and bound whose bound T starts just below a
/// known production time and drops just below each mapping found (the descent of docs/exact.md: a state that fails
/// under T fails under every smaller T, so memorised failures stay valid for the whole run).
class Search {
public:
  virtual ~Search() = default;
  /// Mappings with a production time < `upper`; `complete` unless the deadline stopped the search.
  virtual Outcome minimize(double upper, const Deadline& deadline) = 0;
};

/// The intervals placed on the current branch, to rebuild the mapping of a leaf.
class Path {
public:
  void push(int first, int last, const int* processors, int count)
  {
    bounds_.emplace_back(first, last);
    lists_.emplace_back(processors, processors + count);
  }
  /// The last interval's replicas in another order.
  void reorder_top(const std::vector<int>& processors) { lists_.back() = processors; }
  void pop()
  {
    bounds_.pop_back();
    lists_.pop_back();
  }
  Mapping mapping() const { return hedpm_interval_mapping(bounds_, lists_); }

private:
  std::vector<std::pair<int, int>> bounds_;
  std::vector<std::vector<int>> lists_;
};

/// The next double below x (x itself when infinite): the bound after a mapping of production time x is found.
inline double below(double x)
{
  return std::isfinite(x) ? std::nextafter(x, -std::numeric_limits<double>::infinity()) : x;
}

/// Relative slack of the capacity bound, so that rounding never cuts a feasible state (a bound may only be weaker).
inline constexpr double capacity_slack = 1e-9;

} // namespace pipesim::hedpm_exact

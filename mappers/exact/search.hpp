// Shared pieces of the exact interval solver (mapper exact.interval): the search interface and its limits.
#pragma once

#include "mappers/mapper.hpp"

#include <cstdint>
#include <limits>
#include <vector>

namespace pipesim::exact {

/// Best interval mapping (one processor per interval) a search found, and whether the search space was exhausted.
struct SearchOutcome {
  std::vector<std::pair<int, int>> intervals; // [first, last], stages numbered 1..n; empty when none was found
  std::vector<int> alloc;                     // processor of each interval
  double period      = std::numeric_limits<double>::infinity(); // its br07 eq. (2) period
  bool complete      = false; // exhausted: no mapping has a period below `period` (or <= the upper bound if none found)
  double lower_bound = 0;     // solve() only: proved, no mapping has a period below it (`period` when complete)
  int improvements   = 0;     // mappings found, each better than the previous one
};

/// When a search stops: the deadline (always), a node budget, the first mapping found (a probe).
struct SearchLimits {
  const Deadline* deadline  = nullptr;
  std::uint64_t node_budget = std::numeric_limits<std::uint64_t>::max();
  bool first_only           = false;
};

/// Exact minimisation of the br07 eq. (2) period over interval mappings, by a depth-first branch and bound over
/// a decision procedure: "is there a mapping whose cycle-times are all <= T?". The optimum is one of the finitely
/// many cycle-times of an interval on a processor with possible neighbours (the candidate periods). T starts at
/// `upper`; each mapping found has a candidate period P <= T, and T drops to the next double below P, i.e. the
/// search moves down the sorted candidate set without ever testing a candidate twice. A state that fails under
/// some T fails under every smaller T, so failed states stay memorised for the whole run and a single
/// exhaustive pass proves optimality (a bisection over the candidates would redo an infeasibility proof, the
/// expensive part, for every candidate it tests below the optimum).
class PeriodSearch {
public:
  virtual ~PeriodSearch() = default;
  /// Mappings of period <= upper, best first found; `complete` only when no limit stopped the search.
  virtual SearchOutcome minimize(double upper, const SearchLimits& limits) = 0;
  /// Search nodes expanded.
  std::uint64_t nodes() const { return nodes_; }
  /// Number of stages n (a mapping is at most n nodes deep: the probes' budgets grow with it).
  virtual int stages() const = 0;

protected:
  /// The value of nodes_ at which a budget given now runs out (saturating: a budget near the maximum is unlimited).
  std::uint64_t node_limit_for(std::uint64_t budget) const
  {
    return budget > std::numeric_limits<std::uint64_t>::max() - nodes_ ? std::numeric_limits<std::uint64_t>::max()
                                                                       : nodes_ + budget;
  }

  std::uint64_t nodes_ = 0;
};

/// What a depth-first call reports: its subtree holds no better mapping (`exhausted`, memorisable), it was left
/// because the bound dropped below a cycle-time fixed above it (`abandoned`), or a limit stopped the search.
enum class Walk { exhausted, abandoned, stopped };

/// Optimal interval mapping: bisection probes (each search in turn, first mapping only, under a small node budget)
/// between the lower bound and the best period; a probe proved infeasible raises the lower bound, one that finds a
/// mapping lowers the best period, and below an undecided one the bisection goes on a few times for the lower bound
/// alone. Then branch and bound from the best mapping known proves optimality; several searches (e.g. both
/// directions) take turns under doubling node budgets until one completes. `start` is a mapping known beforehand
/// (may be empty, period +inf). Stops at the deadline or after `node_limit` search nodes in all (a deterministic
/// limit, for tests); then `complete` is false and `lower_bound` is what the probes proved.
SearchOutcome solve(const std::vector<PeriodSearch*>& searches, const Deadline& deadline, SearchOutcome start,
                    std::uint64_t node_limit = std::numeric_limits<std::uint64_t>::max());

/// Memorised failed states of a search keyed by two words (the HeDPM searches; exact.interval's own searches use
/// FailedSets, failed_states.hpp, keyed by sets of any width): open addressing with linear probing on a key of two
/// words, each with a value (kept at the maximum stored). One flat array, so lookups are fast and freeing is cheap;
/// clearing only bumps a generation number. It grows up to 2^22 slots (128 MiB) and is cleared when that is half full
/// (a cache: forgetting only costs time).
class FailedStates {
public:
  void clear();
  /// The value stored for (a, b), or nullptr.
  const double* find(std::uint64_t a, std::uint64_t b) const;
  /// Stores max(value, the value stored for (a, b)).
  void raise(std::uint64_t a, std::uint64_t b, double value);
  std::size_t size() const { return size_; }

private:
  struct Slot {
    std::uint64_t a;
    std::uint64_t b;
    double value;
    std::uint64_t generation; // the slot is empty unless it equals generation_
  };
  std::size_t slot_of(std::uint64_t a, std::uint64_t b) const;
  void grow();

  std::vector<Slot> slots_;
  std::size_t size_         = 0;
  std::uint64_t generation_ = 1;
};

/// W(i+1, e+1) at index i * n + e, summed as Pipeline::work does (same additions, same order, so every cycle-time
/// computed from it is bit-identical to br07_interval_cycle_time).
std::vector<double> interval_work_table(const Pipeline& pipeline);

} // namespace pipesim::exact

// Mapping representation of DESIGN.md §2, shared by every mapper, evaluator and the simulator.
#pragma once

#include "base/enum_names.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// How a replicated interval uses its replicas (DESIGN.md §2).
enum class Replication {
  active, // bbr10: every replica processes every data set; one elected replica sends the output
  deal    // sv95 and hedpm: replica r of R processes the data sets k with k mod R == r
};
PIPESIM_ENUM_NAMES(Replication, {active, "active"}, {deal, "deal"});

/// Processor indices of the platform. Size 1, except for sv95 data-parallel modules.
using ProcessorGroup = std::vector<int>;

/// I_j = [first, last] (stages numbered 1..n) with its replicas.
struct Interval {
  int first = 1;
  int last  = 1;
  std::vector<ProcessorGroup> replicas;
  Replication replication = Replication::active;

  int stages() const { return last - first + 1; }
  bool holds(int processor) const;
};

/// Ordered intervals covering 1..n.
struct Mapping {
  std::vector<Interval> intervals;

  int m() const { return static_cast<int>(intervals.size()); }
  const Interval& interval(int j) const { return intervals.at(static_cast<std::size_t>(j)); }
  /// Every processor the mapping uses, sorted, each once.
  std::vector<int> processors() const;
  /// Indices of the intervals processor u holds, in stage order.
  std::vector<int> intervals_of(int u) const;
  bool replicated() const;    // some interval has more than one replica
  bool data_parallel() const; // some replica is a group of more than one processor
  bool has_deal() const;
};

/// Rules of DESIGN.md §2, derived from the mapping.
/// Complexity of the functions below: O(S log S), S the processors the mapping lists (with repetition), except
/// unreachable_pair, O(sum_j R_j R_{j+1}) route look-ups (R_j: processors of I_j).
enum class MappingRule { one_to_one, interval, general };
PIPESIM_ENUM_NAMES(MappingRule, {one_to_one, "one-to-one"}, {interval, "interval"}, {general, "general"});
MappingRule classify(const Mapping& mapping);

/// bbr10 §3.4 subsets: intervals held by the same processor set. Each subset lists interval indices.
/// `processor_sets[k]` is the sorted set of processors of subset k.
struct Subsets {
  std::vector<std::vector<int>> intervals;
  std::vector<std::vector<int>> processor_sets;
};
Subsets subsets(const Mapping& mapping);

/// Throws InputError with a message that says what is wrong: intervals must be contiguous, non-empty, cover
/// 1..n in order; every interval has at least one replica, every group at least one processor; a group never
/// names a processor twice and an interval never uses a processor in two replicas; indices are processors of
/// the platform.
void validate(const Mapping& mapping, const Pipeline& pipeline, const Platform& platform);

/// The first ordered pair of nodes (sender, receiver) that the mapping makes communicate (P_in to every processor
/// of the first interval, every processor of I_j to every processor of I_{j+1}, the last interval's to P_out) and
/// that has no route (Platform::reachable), or nullopt.
std::optional<std::pair<int, int>> unreachable_pair(const Mapping& mapping, const Platform& platform);

/// The scenario keys of a mapping's parts, for refusals (InputError::keyed): "mapping[j]" and "mapping[j].CHILD"
/// (j from 0, as in the file); with a mapper, the entry point shows them as the mapper's (docs/scenarios.md
/// "Errors").
std::string interval_key(int j, const char* child = nullptr);
/// "mapping[j].replicas[r]".
std::string replica_key(int j, std::size_t r);
/// The first replica of several processors (an sv95 data-parallel group) as {j, r}, or nullopt.
std::optional<std::pair<int, std::size_t>> first_group(const Mapping& mapping);
/// The key of the first data-parallel group ("mapping[j].replicas[r]"), or "mapping" when there is none.
std::string first_group_key(const Mapping& mapping);
/// The key of the first dealt interval's replication ("mapping[j].replication"), or "mapping" when none is dealt.
std::string first_deal_key(const Mapping& mapping);

/// Compact text form, e.g. "[1-2]:P1|P2 [3]:P3" ('|' separates replicas, '+' processors of a group,
/// a trailing "/deal" marks deal replication).
std::string to_text(const Mapping& mapping, const Platform& platform);

/// Builds a one-replica-per-interval mapping from interval boundaries and processors (convenience for mappers
/// and tests): intervals [first_j, last_j] with processor alloc[j].
Mapping make_interval_mapping(const std::vector<std::pair<int, int>>& intervals, const std::vector<int>& alloc);

} // namespace pipesim

// Exact interval mapping (one processor per interval) on every platform class: mapper exact.interval.
#pragma once

#include "mappers/mapper.hpp"

namespace pipesim {

/// Contract (mapper `exact.interval`).
/// - Source: the INTERVAL MAPPING problem of br07 §2.3.2 (NP-hard on Communication Homogeneous platforms,
///   br07 §3.2.2 Theorem 3, hence on Fully Heterogeneous ones); periods are br07 eq. (2), evaluated with
///   the same floating-point operations as br07_eq2_period, so the optimum is exact to the last bit. Beyond the
///   seeds (DESIGN.md §5 "beyond"); docs/exact.md has the algorithm, the proofs and measured figures.
/// - Accepts: the one-port model, objective min_period, every platform class, link latencies c_{u,v} included;
///   at most 64 processors (Fully Heterogeneous, or unequal latencies) or min(n, p) <= 64 (equal links), and
///   n <= 2000 (the tables take O(n^2) memory).
/// - Method: the optimum is one of the finitely many cycle-times of an interval on a processor with possible
///   neighbours. A decision procedure "all cycle-times <= T?" runs as a branch and bound whose bound T moves down
///   that sorted candidate set (bisection probes under a node budget first, then one exhaustive pass that lowers T
///   below each mapping it finds; failed states stay valid for every smaller T):
///   - links all equal (Fully or Communication Homogeneous, equal latencies): exact::CommHomSearch, best fit over
///     processors sorted by speed (an exchange argument makes the processor of each interval forced), Hall and
///     capacity bounds, failed states (stages done, used set) memorised;
///   - otherwise: exact::HeteroSearch, state (stages done, used set, last processor, what it still affords), run
///     from both ends of the pipeline in turns under doubling node budgets until one direction completes.
/// - Complexity: exponential in the worst case (at most n 2^p p states); measured (bench/exact_interval.cpp):
///   Communication Homogeneous n = 100, p = 24 median 64 ms, Fully Heterogeneous n = 50, p = 16 median 11 ms (max
///   6 s), the paper's sizes n <= 10, p <= 8 under 1 ms.
/// - Returns: status `optimal` with the mapping and its eq. (2) period. When options.time_limit runs out: status
///   `time limit` with the best mapping found so far (one is found within O(n) search nodes). Statistics: "nodes"
///   (search nodes), "improvements" (mappings found, each better than the previous), "directions" (1 or 2).
class ExactInterval : public Mapper {
public:
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override;
};

/// True when every link a mapping may use (between processors, from P_in, to P_out) has the same bandwidth and the
/// same latency: the cycle-time of an interval then depends on its processor only.
bool uniform_links(const Platform& platform);

} // namespace pipesim

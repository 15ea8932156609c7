// HeDPM's problem solved exactly (beyond hedpm): mappers hedpm.exact and hedpm.exact.replicated-intervals.
#pragma once

#include "mappers/hedpm/hedpm.hpp"

namespace pipesim {

/// Contract (mappers `hedpm.exact` and `hedpm.exact.replicated-intervals`).
/// - Source: the problem of hedpm §3-§5.1 (consecutive stages gathered on one processor, single stages replicated
///   over several with deal replication), minimising HeDPM's predicted production time (hedpm_production_time);
///   `.replicated-intervals` also replicates gathered intervals (HedpmSpace). Beyond the paper: its §5.1 brute force
///   only reaches N = P = 4; docs/hedpm.md has the algorithm, its proof sketch and measured figures.
/// - Method: start from hedpm.scan's mapping, then a branch and bound whose bound T moves down below each mapping
///   found (memorised failures stay valid as T drops): hedpm_exact::UniformSearch when every link is equal (best fit
///   over processors sorted by speed, state (stages placed, used set)), hedpm_exact::GeneralSearch otherwise (state
///   (stages placed, used set, ordered replicas of the last interval, their partial times)).
/// - Accepts: as hedpm (hedpm_refuses), with p <= 64 (sets of processors are 64-bit masks) and n <= 2000.
/// - Complexity: exponential in p in the worst case (the problem contains br07's NP-hard interval mapping);
///   measured (bench/hedpm.cpp): see docs/hedpm.md (target N = 30, P = 12 within 10 s).
/// - Returns: status `optimal` with the mapping and its production time, bit-identical to hedpm_production_time of
///   the mapping. When options.time_limit runs out: status `time limit` with the best mapping found (never worse than
///   hedpm.scan's). Statistics: "nodes", "improvements" (mappings found below hedpm.scan's), "uniform_links" (1 when
///   UniformSearch ran), "scan" (hedpm.scan's production time).
class HedpmExact : public Mapper {
public:
  explicit HedpmExact(HedpmSpace space) : space_(space) {}
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override;

private:
  HedpmSpace space_;
};

/// Which search HedpmExact uses (tests run each one alone).
enum class HedpmSearchKind { automatic, uniform, general };

/// The exact optimum with a given search (`uniform` requires uniform_links(problem.platform)).
MapperResult hedpm_exact_optimum(const Problem& problem, HedpmSpace space, const Deadline& deadline,
                                 HedpmSearchKind kind = HedpmSearchKind::automatic);

} // namespace pipesim

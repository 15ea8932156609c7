// sv95 §3: the dynamic program over modules, processors in use, and the processors per instance of the last
// and the next module (O(P^4 k^2)), with the paper's maximal replication or with every instance count.
#pragma once

#include "mappers/mapper.hpp"

namespace pipesim {

/// How the dynamic program replicates a module given q processors.
enum class Sv95DpReplication {
  any,    // every r >= 1 with r p processors (pipesim's fix: exact)
  maximal // sv95 §3.2 as written: r = floor(q / p_min) instances of floor(q / r) processors
};

/// Contract (mappers `sv95.dp` and `sv95.dp-maximal`).
/// - Source: sv95 §3.1 (the table A_j(p_total, p_last, p_next) and its recurrence), §3.2 (replication through
///   processors per instance and effective response f / r), §3.3 (clustering, O(P^4 k^2)). pipesim's table is
///   V_b(U, p, q): the smallest max_j f_j / r_j of a mapping of t_1..t_b into modules using U processors, whose last
///   module ends at t_b with p processors per instance and whose next module has q per instance; a transition
///   enumerates the last module's first task a (the paper's "nextmodlength"), its instances r and the previous
///   module's p', and adds the module's term f(p', p, q) / r (module_response). The answer is the smallest
///   V_k(U, p) over U <= P. docs/sv95.md explains why this state, and shows where §3.2's rule is not optimal.
///   `sv95.dp` enumerates every r (r p <= P - U'); `sv95.dp-maximal` replicates as §3.2 says: a module given q
///   processors has floor(q / p_min) instances of floor(q / r) processors (r = 1, p = q when not replicable) and
///   takes all q.
/// - Accepts: what sv95_refusal accepts (mappers/sv95/tables.hpp), with at most 6e7 table entries
///   (k P^3 / 6: P = 256 with k = 8 is 2.2e7, 180 MB).
/// - Complexity: O(k^2 P^4 log P) for `sv95.dp` (the harmonic sum over r), O(k^2 P^4) for `sv95.dp-maximal`;
///   O(k P^3) memory.
/// - Returns: `sv95.dp`: status `optimal`, the smallest period, then the fewest processors (the same optimum as
///   sv95.exhaustive); `sv95.dp-maximal`: status `feasible` (the best mapping under maximal replication, which can
///   be worse). `infeasible` when no mapping has a finite period. When options.time_limit runs out: status `time limit`
///   with sv95.greedy's mapping.
class Sv95Dp : public Mapper {
public:
  explicit Sv95Dp(Sv95DpReplication replication) : replication_(replication) {}
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override;

private:
  Sv95DpReplication replication_;
};

} // namespace pipesim

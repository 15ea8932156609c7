// sv95 §4: the greedy processor assignment (§4.1, with neighbours, and Theorem 1's slowest-only variant) with
// maximal replication and the clustering merge/split of §4.2.
#pragma once

#include "mappers/mapper.hpp"
#include "model/sv95/response.hpp"

#include <optional>
#include <utility>
#include <vector>

namespace pipesim {

/// Where §4.1 step 3 may add a processor: to the slowest module or its neighbours (the procedure Greedy), or to the
/// slowest module only (Theorem 1's modified greedy).
enum class Sv95GreedyRule { neighbours, slowest };

/// An assignment of sv95 §4: modules [first, last] and q_j processors in all for module j. Replication is
/// maximal (§3.2, used by §4.2): r_j = floor(q_j / p_min_j) instances of p_j = floor(q_j / r_j) processors when
/// the module is replicable, r_j = 1 and p_j = q_j otherwise.
struct Sv95Assignment {
  std::vector<std::pair<int, int>> modules;
  std::vector<int> q;
};
std::vector<Sv95Module> sv95_triplets(const TaskChain& chain, const Sv95Assignment& assignment);

/// §4.1 procedure Greedy(T, P) on a fixed clustering: start from p_min per module (step 1); while processors are
/// left, add one (step 3) to the module with the longest effective response f_j / r_j (the first on ties) or, with
/// `neighbours`, to whichever of it and its two neighbours gives the highest throughput (ties: the module itself,
/// then the predecessor, then the successor); return the best assignment met (step 4; the earliest on ties).
/// nullopt when the p_min do not fit in P. Complexity: O(P k) evaluations of O(k) each.
std::optional<Sv95Assignment> sv95_greedy_assignment(const TaskChain& chain,
                                                     const std::vector<std::pair<int, int>>& clustering, int P,
                                                     Sv95GreedyRule rule);

/// Contract (mappers `sv95.greedy` and `sv95.greedy-slowest`).
/// - Source: sv95 §4.1 (procedure Greedy; Theorem 1's variant for `sv95.greedy-slowest`), §3.2's maximal
///   replication as the "modified response time function" of §4.2, and §4.2's clustering (pipesim's reading,
///   docs/sv95.md): start with one module per task (the clustering with the fewest processors at p_min when that
///   does not fit); run Greedy, and after step 1 and after every step 3 merge the adjacent pair of modules (with
///   the processors of both) that lowers the period most, as long as one does; on the best assignment met, split a
///   module in two (trying every split point and every division of its processors) as long as that lowers the
///   period; then run Greedy again on the resulting clustering and return its assignment.
/// - Accepts: what sv95_refusal accepts (mappers/sv95/tables.hpp).
/// - Complexity: O(P k^3) evaluations of O(k) in the worst case (O(P k) steps, each trying O(k) merges up to k
///   times), O(k P) for the split check; no table, any P.
/// - Returns: status `feasible` (a heuristic: never better than the optimum; optimal under Theorem 1's
///   assumptions for the slowest-only variant without replication and clustering); `infeasible` when no clustering
///   fits on P processors, or when the assignment it ends with has an infinite period (tables that do not cover
///   the processors it reached: it proves nothing then).
class Sv95Greedy : public Mapper {
public:
  explicit Sv95Greedy(Sv95GreedyRule rule) : rule_(rule) {}
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override;

private:
  Sv95GreedyRule rule_;
};

/// The §4.2 greedy with clustering as a function (sv95.greedy, sv95.greedy-slowest and the exact mappers' fallback
/// and first bound): the triplets, or nullopt when no clustering fits.
std::optional<std::vector<Sv95Module>> sv95_greedy(const TaskChain& chain, int P, Sv95GreedyRule rule);

} // namespace pipesim

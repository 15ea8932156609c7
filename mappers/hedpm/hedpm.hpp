// HeDPM (hedpm Algorithm 4.1): the slowest stages matched with the fastest processors, fast stages gathered and
// slow ones replicated until each match is close to the ideal production time.
#pragma once

#include "mappers/mapper.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pipesim {

/// One pass of Algorithm 4.1's second and third steps: a row of hedpm Table 2.
struct HedpmIteration {
  std::vector<int> processor_list; // processors not matched yet, in eq. (4)'s order (0-based indices)
  std::vector<int> stage_list;     // stages not matched yet, in eq. (3)'s order (1-based)
  double tideal = 0;               // eq. (6) on those lists, or the production-time objective
  int first     = 0;               // the matched stages [first, last]
  int last      = 0;
  std::vector<int> processors; // the matched processors, replicas in the order they were added
  double tmatch = 0;           // T of the match when it was made (eqs. (1)-(2); unknown neighbours on mean links)
};

/// Everything Algorithm 4.1 did, for the tests and for hedpm.scan.
struct HedpmRun {
  Mapping mapping;                        // intervals in stage order, deal replication where R > 1
  std::vector<HedpmIteration> iterations; // in the order of the matches
  std::vector<int> leftover;              // processors added to the last match once the stages ran out
  int last_interval = 0;                  // index in mapping.intervals of the last match
};

/// The mappings the exhaustive and exact HeDPM mappers range over: interval mappings with one processor per replica
/// and deal replication, where only single stages are replicated (hedpm §3: "we only replicate single stages"),
/// or where gathered intervals may be replicated too (beyond the paper).
enum class HedpmSpace { single_stage_replicas, replicated_intervals };

/// Half-width of Algorithm 4.1's band: a match is adequate when T is within [0.95, 1.05] x Tideal.
inline constexpr double hedpm_band = 0.05;

/// Contract of Algorithm 4.1 (mapper `hedpm`, objective 0).
/// - Source: hedpm (docs/references.md) §4, Algorithm 4.1, eqs. (1)-(6); the choices the
///   paper leaves open are in docs/hedpm.md, "Algorithm 4.1".
/// - Method: stages sorted by eq. (3) (slowest first, ties by stage index), processors by eq. (4) (fastest first,
///   ties by index), once. Then, while stages remain: Tideal = eq. (6) over the stages and processors left (or
///   `objective` when > 0); the first stage of the list on the first processor of the list; if T > 1.05 Tideal,
///   replicas are added from the processor list, if T < 0.95 Tideal, adjacent stages are gathered (the one earlier
///   in the stage list first), each addition kept only while T is outside the band and the addition brings T
///   closer to Tideal. T of a match is eq. (1)/(2) (model/hedpm/production_time.hpp) with the real links to
///   matched neighbours and mean links (hedpm_mean_link_of over the processors left) to unmatched ones.
///   Processors never run out: a replica is added only if the processors left still cover the runs of unmatched
///   stages, and a match that would leave more runs than processors gathers (past the band) until they do.
///   Processors left when the stages run out join the last match, if it is a single stage, while each lowers its T.
/// - Accepts: see hedpm_refuses. Only single stages are replicated (hedpm §3).
/// - Complexity: O(N (P^2 + N + R P)) per run, R the largest replica count (eq. (6)'s means over processor pairs
///   dominate); hedpm states O(N^2).
/// - Returns: a valid interval mapping (every stage mapped, no processor used twice); it makes no optimality claim.
HedpmRun hedpm_algorithm41(const Problem& problem, double objective = 0);

/// What the HeDPM mappers (hedpm, hedpm.scan, hedpm.exhaustive*, hedpm.exact*) are: they minimise HeDPM's production
/// time (objective min_period), whose t(n, p) adds receive, compute and send (hedpm §3 assumes synchronous
/// communications: the one-port model); any platform class; interval mappings with deal replicas.
MapperInfo hedpm_info(std::string name, std::string description, Paper paper, MapperFamily family, bool exact,
                      std::string complexity);

/// Why a HeDPM mapper refuses a problem its hedpm_info accepts, or nullopt: a speed that is not positive.
std::optional<std::string> hedpm_refuses(const Problem& problem);

/// The interval mapping with stages [first, last] of bounds[j] on the processors lists[j], dealt over them when
/// there are several (the mappings every HeDPM search enumerates).
Mapping hedpm_interval_mapping(const std::vector<std::pair<int, int>>& bounds,
                               const std::vector<std::vector<int>>& lists);

/// Mapper `hedpm`: Algorithm 4.1 with Tideal from eq. (6). Status `feasible`; objective = HeDPM's predicted
/// production time of the mapping (hedpm_production_time). Statistics: "iterations", "tideal" (eq. (6) of the first
/// iteration), "replicated" and "gathered" (intervals with R > 1, with more than one stage), "processors_used".
class HedpmMapper : public Mapper {
public:
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override { return hedpm_refuses(problem); }
};

/// The result of a HeDPM mapper for `run`: objective and the statistics listed above.
MapperResult hedpm_result(const Problem& problem, const HedpmRun& run);

} // namespace pipesim

// pipesim's worst-case period of a mapping with active replication (bbr10 §4): the largest, over the failure
// configurations the mapping survives, of the period the system reaches when it elects well.
#pragma once

#include "model/bbr10/election.hpp"

#include <cstdint>

namespace pipesim {

struct WorstCaseOptions {
  /// Exact enumeration up to this many used processors (2^k configurations); beyond, the upper bound
  /// bbr10_worst_case_upper_bound (exact for interval mappings, where it is eq. (1)).
  int max_processors = 16;
  /// The election run in each configuration; empty: bbr10_best_election with `seed` (the paper's estimate).
  ElectionFunction elect;
  std::uint64_t seed = 1;
  /// Set when `elect` returns an election of minimum period (bbr10_election(ElectionPolicy::exhaustive), the §5 MILP):
  /// the result is then the exact worst case of the definition, otherwise an upper bound on it.
  bool elect_is_exact = false;
};

struct WorstCasePeriod {
  double period = 0;            // the worst case (exact or an upper bound, see `exact`)
  FailureConfiguration config;  // a configuration reaching it (the first found, in enumeration order)
  Election election;            // the election used there
  long long configurations = 0; // surviving configurations enumerated (0 for the bound)
  bool exact               = false;
  bool enumerated          = true; // false: the bound was returned (config and election are then empty)
};

/// Contract.
/// - Definition (docs/bbr10-periods.md): bbr10 §4 defines the worst-case period as "the largest of these periods,
///   over all possible failure configurations", each configuration's period being what the elections achieve. pipesim
///   reads it as  max over C of min over E of bbr10_period(C, E),  C ranging over the failure configurations of the
///   processors the mapping uses in which every interval keeps an alive replica (the configurations eq. (2) counts
///   as successes; unused processors are left alive, they have no cycle-time), E over the elections of C. The
///   system is assumed to elect well in each configuration (the min), failures to be adversarial (the max).
/// - For interval mappings this is bbr10 eq. (1) exactly, whatever the election (proof in the doc; checked on
///   seeded random instances): each term of eq. (1) is forced in the configuration that leaves u alone in I_j and
///   the predecessor v alone in I_{j-1}.
/// - Accepts: any mapping with active replication on single processors, any platform class. Beyond
///   options.max_processors used processors it returns bbr10_worst_case_upper_bound (enumerated = false; exact for
///   interval mappings).
/// - Complexity: 2^k configurations (k used processors), each with one election and one Algorithm 1 evaluation:
///   with `best`, about 2^k (m log m + sum_j |alloc(d_j)| |alloc(d_j+1)| + p); with an exact election, that
///   election's cost 2^k times.
/// - Returns: the maximum with a configuration and an election reaching it; `exact` = options.elect_is_exact (with
///   the heuristic `best` the value is >= the exact worst case, since each configuration's period is >= its
///   minimum over elections).
WorstCasePeriod bbr10_worst_case_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                        const WorstCaseOptions& options = {});

/// Contract.
/// - Source: bbr10 eq. (1) generalised to general mappings (beyond the paper): for every used processor u, the
///   largest each Algorithm 1 term can be over every surviving configuration and every election: u elected for
///   every interval it holds, every replica of the next intervals alive, every possible sender of its inputs
///   sending (link terms summed per possible sender, card latencies the largest possible). Each term dominates
///   the term of any configuration and election, so the result is >= the worst case of every definition (even with
///   the worst election); for interval mappings it is eq. (1) exactly.
/// - Accepts: any mapping with active replication on single processors, any platform class.
/// - Complexity: O(sum_j |alloc(d_j)| (|alloc(d_j-1)| + |alloc(d_j+1)|) log p).
double bbr10_worst_case_upper_bound(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping);

/// What one processor u handles per data set in the bound above: its work, the bytes through its input card, and the
/// bytes on each link (peer node, bytes; each peer once). The bytes through its output card are the sum of
/// `out_links`.
struct ProcessorLoad {
  double work     = 0;
  double in_bytes = 0;
  std::vector<std::pair<int, double>> in_links;  // sender node -> bytes
  std::vector<std::pair<int, double>> out_links; // receiver node -> bytes
};

/// The bound's terms for u, Algorithm 1's at their largest: max(work / s_u, c_in + in_bytes / Bin_u, c_out +
/// out_bytes / Bout_u, c_{v,u} + bytes / b_{v,u} per in-link, c_{u,v} + bytes / b_{u,v} per out-link), c_in and c_out
/// the largest latency of the in- and out-links (a card pays the latency once); a card term only when it carries
/// bytes. Shared by bbr10_worst_case_upper_bound and the reliability heuristics' incremental form
/// (mappers/bbr10/subset_state.hpp), so the formula lives once.
double bbr10_processor_bound(const Platform& platform, int u, const ProcessorLoad& load);

} // namespace pipesim

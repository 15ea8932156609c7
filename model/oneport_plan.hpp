// The one-port execution of DESIGN.md §3.1 as per-processor programs: the single description of what each
// processor does per round of data sets, consumed by the event graphs (exact period), the allotment of the
// multi-port model and the SimGrid actors.
#pragma once

#include "model/mapping.hpp"
#include "model/operation.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

#include <vector>

namespace pipesim {

struct OnePortPlan {
  /// A transfer of `bytes` on from->to carrying the input of stage `stage` (n + 1 for the delivery to P_out) for
  /// data set `dataset` of the round.
  struct Transfer {
    int from     = 0;
    int to       = 0;
    double bytes = 0;
    int stage    = 0;
    int interval = 0; // interval that receives it (m for P_out)
    int dataset  = 0; // 0..datasets-1
  };
  struct Step {
    using Kind   = Operation;
    Kind kind    = Kind::compute;
    int interval = 0;
    int transfer = -1; // receive / send
    double flops = 0;  // compute
    int dataset  = 0;  // 0..datasets-1
  };
  struct Program {
    int processor = 0;
    std::vector<Step> steps; // one round, in order
  };

  int datasets = 1; // L: a round covers data sets 0..L-1 (deal_round), then repeats with k + L
  std::vector<Transfer> transfers;
  std::vector<Program> programs;         // one per processor of the mapping, in processor order
  std::vector<std::vector<int>> from_in; // per data set of the round: the transfers P_in -> replicas of I_1
  std::vector<int> to_out;               // per data set of the round: its delivery to P_out
};

/// Per round of L = deal_round(mapping) data sets, for each data set k in increasing order and each interval the
/// processor holds, in stage order, when it processes k (every data set under active replication, k mod R == r for
/// replica r of a dealt interval, DESIGN.md §3.7): receive the input (unless the processor computed data set k of the
/// previous interval itself), compute, and, when it is the sender of k, send the output to each replica of the next
/// interval that processes k and did not compute it, one after the other in replica order (br07 §2.3.3's
/// sequential rule; bbr10's active replication with a fixed election). The sender of k is replica k mod R of a
/// dealt interval, the elected replica `senders[j]` otherwise (replica 0 when `senders` is empty; `senders[j]` is
/// not used for a dealt interval but must be one of its replicas). InputError for data-parallel groups, a round
/// above max_deal_round and a sender that is not a replica of its interval.
/// Complexity: O(L (m + sum_j R_j R_{j+1}) + P m) for R_j replicas of I_j and P processors in the mapping.
OnePortPlan plan_oneport(const Pipeline& pipeline, const Mapping& mapping, int in_node, int out_node,
                         const std::vector<int>& senders = {});

} // namespace pipesim

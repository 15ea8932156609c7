// The one-port execution of DESIGN.md §3.1 as per-processor programs: the single description of what each
// processor does per data set, consumed by the event graph (exact period) and by the SimGrid actors.
#pragma once

#include "model/mapping.hpp"
#include "model/operation.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

#include <vector>

namespace pipesim {

struct OnePortPlan {
  /// A transfer of `bytes` on from->to carrying the input of stage `stage` (n + 1 for the delivery to P_out).
  struct Transfer {
    int from     = 0;
    int to       = 0;
    double bytes = 0;
    int stage    = 0;
    int interval = 0; // interval that receives it (m for P_out)
  };
  struct Step {
    using Kind   = Operation;
    Kind kind    = Kind::compute;
    int interval = 0;
    int transfer = -1; // receive / send
    double flops = 0;  // compute
  };
  struct Program {
    int processor = 0;
    std::vector<Step> steps; // one data set, in order
  };

  std::vector<Transfer> transfers;
  std::vector<Program> programs; // one per processor of the mapping, in processor order
  std::vector<int> from_in;      // transfers P_in -> replicas of I_1
  int to_out = -1;               // the delivery to P_out
};

/// Per data set and for each interval a processor holds, in stage order: receive the input (unless the processor
/// holds the previous interval too), compute, and, when it is the elected replica, send the output to each replica
/// of the next interval that does not hold this interval, one after the other in replica order (seed 000 §2.3.3's
/// sequential rule; seed 004's active replication with a fixed election). The elected replica of I_j is
/// `senders[j]` (an Election's senders), replica 0 when `senders` is empty. InputError for data-parallel groups,
/// deal replication (not supported yet) and a sender that is not a replica of its interval.
OnePortPlan plan_oneport(const Pipeline& pipeline, const Mapping& mapping, int in_node, int out_node,
                         const std::vector<int>& senders = {});

} // namespace pipesim

// What a replicated run has recorded so far (DESIGN.md §3.5, §3.9): its verdict and failure measurements, the output
// times at P_out and the progress line. Written by every part of a Replication (simulator/replication.hpp).
#pragma once

#include "base/progress.hpp"
#include "simulator/simulation.hpp"

#include <memory>
#include <vector>

namespace pipesim::detail {

struct RunRecord {
  FailureOutcome outcome;
  bool finished = false; // the run has its verdict: the actors are being killed
  std::vector<double> output_times;
  std::unique_ptr<Progress> progress; // settings.progress: data sets output, on stderr

  /// The run failed now in interval j (0-based): an interval lost its last replica with work left, or a transfer
  /// of (into) it met a link that is off.
  void fail(int j, double now)
  {
    outcome.verdict         = Verdict::failed;
    outcome.failure_time    = now;
    outcome.failed_interval = j;
    finished                = true;
  }
  void count_output()
  {
    if (progress) progress->set(static_cast<long>(output_times.size()));
  }
};

} // namespace pipesim::detail

// HeDPM-scan (hedpm Algorithm 4.2): Algorithm 4.1 re-run with production-time objectives swept around Tideal.
#pragma once

#include "mappers/hedpm/hedpm.hpp"

#include <vector>

namespace pipesim {

/// One run of Algorithm 4.1 inside the scan.
struct HedpmScanStep {
  double objective = 0; // 0 for the first run (Tideal from eq. (6)), then TObj
  HedpmRun run;
  double production_time = 0; // hedpm_production_time of run.mapping
  bool last_most_loaded  = false;
  bool last_least_loaded = false;
};

struct HedpmScan {
  std::vector<HedpmScanStep> steps;
  double tobj0     = 0; // TObj0: eq. (6) of the first run's first iteration
  int direction    = 0; // +1 objectives raised, -1 lowered, 0 the first run only
  std::size_t best = 0; // the step with the smallest production time (the first one on ties)
};

/// Steps of the sweep: 20 of 0.5 TObj0 / 20 each, so the objective stays within [0.5, 1.5] x TObj0.
inline constexpr int hedpm_scan_steps = 20;

/// Contract of Algorithm 4.2 (mapper `hedpm.scan`).
/// - Source: hedpm §4, Algorithm 4.2 and the paragraph before it; choices in docs/hedpm.md, "Algorithm 4.2".
/// - Method: run Algorithm 4.1 with Tideal from eq. (6); TObj0 = that first Tideal. The load of a match is its T_j in
///   HeDPM's model of the finished mapping (hedpm_predict); "the last" is the match made last. If the last match is
///   the most loaded (ties included), TObj = TObj0 + k 0.5 TObj0 / 20 for k = 1, 2, ... while the previous run's
///   last match is still the most loaded and k <= 20; otherwise TObj = TObj0 - k 0.5 TObj0 / 20 while the previous
///   run's last match is the least loaded (ties included) and k <= 20. Every run is Algorithm 4.1 with the fixed
///   objective TObj; the scan returns the run with the smallest predicted production time (the earliest on ties),
///   which is how the paper "concludes that the initial mapping is the best it can obtain".
/// - Accepts: as hedpm (hedpm_refuses).
/// - Complexity: at most 21 runs of Algorithm 4.1 (hedpm states O(N^3) for the scan).
/// - Returns: never a production time above hedpm's (the first run is a candidate).
HedpmScan hedpm_algorithm42(const Problem& problem);

/// Mapper `hedpm.scan`. Status `feasible`; objective = the predicted production time of the best run. Statistics:
/// those of hedpm for the best run, plus "runs", "tobj0", "best_objective" (0 for the first run) and "direction".
class HedpmScanMapper : public Mapper {
public:
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override { return hedpm_refuses(problem); }
};

} // namespace pipesim
